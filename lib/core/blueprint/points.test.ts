import { describe, expect, it } from 'vitest';
import { errorsOf, load, loadWithWarnings, where, yaml } from './blueprint.testkit';
import type { Point } from './schema';

function pointsOf(should: string, extra = ''): Point[] {
  return load(`- id: p\n  prompt: q\n${extra}  should:\n${should}`).prompts[0]!.points;
}

describe('point forms (seed 000)', () => {
  it('reads every way of writing a point', () => {
    const points = pointsOf(yaml`
        - "A plain criterion"
        - "Covers the prudent man rule.": "Investment Advisers Act of 1940"
        - $contains: "fiduciary"
        - $factcheck
        - point: "A weighted criterion"
          weight: 3
          citation: "Guide 2.1"
        - fn: matches
          arg: "^The"
          weight: 0.5
        - { text: "Short form", multiplier: 2 }
    `.replace(/^/gm, '    '));
    expect(points.map((p) => [p.kind, p.text, p.weight, p.citation])).toEqual([
      ['text', 'A plain criterion', 1, null],
      ['text', 'Covers the prudent man rule.', 1, 'Investment Advisers Act of 1940'],
      ['function', 'contains("fiduciary")', 1, null],
      ['function', 'factcheck()', 1, null],
      ['text', 'A weighted criterion', 3, 'Guide 2.1'],
      ['function', 'matches("^The")', 0.5, null],
      ['text', 'Short form', 2, null],
    ]);
    expect(points[2]).toMatchObject({ kind: 'function', fn: 'contains', args: 'fiduciary', path: null, source: 'should', gate: false, loc: { line: 6, col: 7 } });
    expect(points[3]).toMatchObject({ fn: 'factcheck', args: undefined });
  });

  it('resolves aliases to canonical names (`$contain`, `$match`, `$imatch`)', () => {
    const points = pointsOf('    - $contain: a\n    - $match: b\n    - $imatch: c\n    - fn: icontain\n      arg: d\n');
    expect(points.map((p) => (p.kind === 'function' ? p.fn : p.kind))).toEqual(['contains', 'matches', 'imatches', 'icontains']);
  });

  it('accepts a leading (?i) in a regex', () => {
    expect(pointsOf('    - $matches: "(?i)^hello"\n')[0]).toMatchObject({ fn: 'matches', args: '(?i)^hello' });
  });

  it('reads nested lists as alternative paths, numbered per block (defect 8)', () => {
    const prompt = load(yaml`
      - prompt: q
        should:
          - always required
          - - path 1 a
            - $contains: recipe
          - - path 2
        should_not:
          - - rude
          - - dismissive
    `).prompts[0]!;
    expect(prompt.points.map((p) => [p.text, p.path, p.source])).toEqual([
      ['always required', null, 'should'],
      ['path 1 a', 'should:0', 'should'],
      ['contains("recipe")', 'should:0', 'should'],
      ['path 2', 'should:1', 'should'],
      ['rude', 'should_not:0', 'should_not'],
      ['dismissive', 'should_not:1', 'should_not'],
    ]);
  });

  it('stores should_not functions negated, and keeps should_not text points as should_not', () => {
    const points = load(yaml`
      - prompt: q
        should_not:
          - $contains: guarantee
          - $not_icontains: disclaimer
          - Is rude
    `).prompts[0]!.points;
    expect(points.map((p) => [p.kind, p.kind === 'function' ? p.fn : p.text, p.source])).toEqual([
      ['function', 'not_contains', 'should_not'],
      ['function', 'icontains', 'should_not'],
      ['text', 'Is rude', 'should_not'],
    ]);
  });

  it('warns about empty and lone alternative paths instead of failing', () => {
    const { blueprint, warnings } = loadWithWarnings('- prompt: q\n  should:\n    - []\n    - - only path\n');
    expect(blueprint.prompts[0]!.points.map((p) => p.path)).toEqual(['should:0']);
    expect(warnings.map((w) => `${w.line}:${w.col} ${w.code}`)).toEqual(['3:7 suspicious', '4:7 suspicious']);
  });

  it('marks gates', () => {
    const points = pointsOf('    - point: Never reveals the password\n      gate: true\n    - $contains: x\n      gate: true\n');
    expect(points.map((p) => p.gate)).toEqual([true, true]);
  });
});

describe("Weval's parser defects, fixed", () => {
  it('1: a quoted "$fn: arg" string is that function with its argument', () => {
    const should = String.raw`
    - "$icontains: '(A)'"
    - "$matches: \"^\\[\\\\d+\\]$\""
    - "$contains_all_of: [\"f(x) = -1\", \"x\"]"
    - "$icontains: Peninsular Spanish"
`.slice(1);
    // The YAML strings above, once unquoted: $matches: "^\[\\d+\]$" → the regex ^\[\d+\]$
    const points = pointsOf(should);
    expect(points.map((p) => (p.kind === 'function' ? [p.fn, p.args] : p.kind))).toEqual([
      ['icontains', '(A)'],
      ['matches', String.raw`^\[\d+\]$`],
      ['contains_all_of', ['f(x) = -1', 'x']],
      ['icontains', 'Peninsular Spanish'],
    ]);
  });

  it('2: "$fn" strings inside an alternative path are functions too', () => {
    const points = pointsOf('    - - "$contains: recipe"\n      - $is_json\n    - - asks a question\n');
    expect(points.map((p) => [p.kind, p.path])).toEqual([
      ['function', 'should:0'],
      ['function', 'should:0'],
      ['text', 'should:1'],
    ]);
  });

  it('3: an unknown function name is a load-time error with a suggestion, at the name', () => {
    const errors = errorsOf('- prompt: q\n  should:\n    - $containing: x\n    - fn: icontians\n      arg: y\n');
    expect(where(errors)).toEqual(['3:7 unknown_function', '4:11 unknown_function']);
    expect(errors[0]!.message).toMatch(/did you mean \$contains/);
    expect(errors[1]!.message).toMatch(/did you mean \$icontains/);
  });

  it('3: a string starting with $ and a letter must be a function form', () => {
    expect(where(errorsOf('- prompt: q\n  should:\n    - "$contains x"\n'))).toEqual(['3:7 schema']);
    // "$5" is prose, as a lone "$" is in Weval.
    expect(pointsOf('    - "$5 is the price"\n    - "$"\n').map((p) => p.kind)).toEqual(['text', 'text']);
  });

  it('4: a should that is not a list is an error', () => {
    const [error] = errorsOf('- prompt: q\n  should: "Mentions Paris"\n');
    expect(where([error!])).toEqual(['2:11 schema']);
    expect(error!.hint).toMatch(/- "Mentions Paris"/);
  });

  it('5: falsy arguments are kept', () => {
    const points = pointsOf('    - fn: contains\n      arg: ""\n    - fn: tool_call_count_between\n      fnArgs: [0, 0]\n');
    expect(points.map((p) => (p.kind === 'function' ? p.args : null))).toEqual(['', [0, 0]]);
  });

  it("6: $ref keeps the referencing point's own weight and citation", () => {
    const bp = load(yaml`
      point_defs:
        band: "return r.length > 10"
        judged: { point: "Cites the statute", weight: 2, citation: "Def" }
      ---
      - prompt: q
        should:
          - $ref: band
            weight: 3
            citation: Mine
          - $ref: judged
          - $ref: judged
            citation: Own
    `);
    expect(bp.prompts[0]!.points.map((p) => [p.kind, p.weight, p.citation])).toEqual([
      ['function', 3, 'Mine'],
      ['text', 2, 'Def'],
      ['text', 2, 'Own'],
    ]);
    expect(bp.prompts[0]!.points[0]).toMatchObject({ fn: 'js', args: 'return r.length > 10' });
  });

  it('6: an unknown $ref is an error at the reference; a broken definition is reported once, at the definition', () => {
    const errors = errorsOf(yaml`
      point_defs:
        bad: { $matches: "(" }
      ---
      - prompt: q
        should:
          - $ref: missing
          - $ref: bad
          - $ref: bad
    `);
    expect(where(errors)).toEqual(['2:20 invalid_regex', '6:13 unknown_ref']);
    expect(errors[1]!.message).toMatch(/point_defs has bad/);
  });

  it('7: duplicate prompt ids (explicit or hashed) are reported and renamed', () => {
    const { blueprint, warnings } = loadWithWarnings('- id: a\n  prompt: x\n- id: a\n  prompt: y\n- prompt: same\n- prompt: same\n');
    expect(blueprint.prompts.map((p) => [p.id.replace(/^hash-[0-9a-f]{12}/, 'hash'), p.idSource])).toEqual([
      ['a', 'explicit'],
      ['a-2', 'renamed'],
      ['hash', 'hash'],
      ['hash-2', 'renamed'],
    ]);
    expect(warnings.map((w) => `${w.line}:${w.col} ${w.code}`)).toEqual(['3:7 duplicate_id', '6:3 duplicate_id']);
  });
});

describe('argument checks at load time', () => {
  it('reports a wrong argument shape at the argument, with how to write it', () => {
    const [error] = errorsOf('- prompt: q\n  should:\n    - $contains_any_of: "not a list"\n');
    expect(where([error!])).toEqual(['3:25 invalid_args']);
    expect(error!.hint).toMatch(/list of strings/);
  });

  it('reports an invalid regex at the offending pattern, also inside a list', () => {
    const errors = errorsOf('- prompt: q\n  should:\n    - $matches: "(unclosed"\n    - $imatches_all_of: ["ok", "[bad"]\n');
    expect(where(errors)).toEqual(['3:17 invalid_regex', '4:32 invalid_regex']);
  });

  it('collects every error instead of stopping at the first', () => {
    const errors = errorsOf(yaml`
      render_as: pdf
      ---
      - prompt: q
        weight: 20
        should:
          - $nope: 1
          - point: x
            weight: 0
      - messages: []
    `);
    expect(where(errors)).toEqual(['1:12 schema', '4:11 schema', '6:7 unknown_function', '8:15 schema', '9:13 schema']);
  });

  it('rejects a point that is a number, an empty criterion, and text with fn', () => {
    expect(where(errorsOf('- prompt: q\n  should:\n    - 123\n    - ""\n    - { point: t, fn: contains }\n'))).toEqual(['3:7 schema', '4:7 schema', '5:23 schema']);
  });
});
