/**
 * The fast path (fast-tree.ts) must be invisible: for every input, `parseBlueprint` gives the
 * byte-for-byte same result (blueprint, errors, warnings, positions) as the exact path alone
 * (`parseBlueprintExact`, the `yaml` documents). Checked over the whole Weval corpus, the
 * example blueprints, the hostile inputs, each YAML construct on which js-yaml and `yaml` are
 * known to differ, and generated, mutated blueprints. Each case also states whether the fast
 * path takes it, so a fast path that quietly gave up on everything would fail here.
 */
import fc from 'fast-check';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { corpusBlueprints, needsCorpus, WEVAL_CORPUS } from '@/testing/outside-data';
import { readYamlFast } from './fast-tree';
import { ALIAS_BOMB_469, deepJson, deepYaml, manyDocuments, manyPoints, MERGE_BOMB_631 } from './hostile-blueprints';
import { BLUEPRINT_LIMITS, type BlueprintLimits } from './limits';
import { parseBlueprint, parseBlueprintExact, type ParseOptions } from './parse';

// Read through the bundler (the examples) and the test kit (the Weval corpus, outside the
// repository: {} without it): lib/core code, tests included, does no I/O of its own.
const CORPUS = corpusBlueprints();
const EXAMPLES = import.meta.glob<string>('../../../blueprints/**/*.{yml,yaml,json}', { query: '?raw', import: 'default', eager: true });

function bothWays(text: string, options: ParseOptions): { fast: string; exact: string } {
  return { fast: JSON.stringify(parseBlueprint(text, options)), exact: JSON.stringify(parseBlueprintExact(text, options)) };
}

function expectSame(text: string, options: ParseOptions = { file: 'case.yml' }): void {
  const { fast, exact } = bothWays(text, options);
  expect(fast).toBe(exact);
}

const takes = (text: string, limits: BlueprintLimits = BLUEPRINT_LIMITS) => readYamlFast(text, limits) !== null;

function filesOf(texts: Record<string, string>): { file: string; text: string }[] {
  return Object.entries(texts).map(([path, text]) => ({ file: path.replace(/^(\.\.\/)+/, ''), text }));
}

describe('the fast path gives the exact path\'s results', () => {
  it.skipIf(!WEVAL_CORPUS)(needsCorpus('on every blueprint of the Weval corpus, and takes all but the unparsable ones'), () => {
    const corpus = filesOf(CORPUS);
    expect(corpus.length).toBe(196);
    let taken = 0;
    for (const { file, text } of corpus) {
      const { fast, exact } = bothWays(text, { file });
      expect(fast, file).toBe(exact);
      if (takes(text)) taken++;
    }
    // Two files are not YAML (`title: a: b`): their errors are the exact path's to report.
    expect(taken).toBe(194);
  }, 60_000);

  it('on every example blueprint', () => {
    const examples = filesOf(EXAMPLES);
    expect(examples.length).toBeGreaterThan(0);
    for (const { file, text } of examples) {
      const { fast, exact } = bothWays(text, { file });
      expect(fast, file).toBe(exact);
    }
  });

  it('on the hostile inputs, which it leaves to the exact path (and its limits)', () => {
    const small: BlueprintLimits = { ...BLUEPRINT_LIMITS, maxDocuments: 50, maxDepth: 16, maxNodes: 2_000, maxPrompts: 10, maxPointsPerPrompt: 20 };
    const hostile = [ALIAS_BOMB_469, MERGE_BOMB_631, deepYaml(10_000), manyPoints(5_000), manyDocuments(5_000), deepYaml(40)];
    for (const text of hostile) {
      expect(takes(text, small)).toBe(false);
      expectSame(text, { file: 'hostile.yml', limits: small });
    }
    for (const text of [ALIAS_BOMB_469, MERGE_BOMB_631, deepYaml(10_000)]) expectSame(text, { file: 'hostile.yml' });
    expectSame(deepJson(10_000), { file: 'hostile.json' });
  });

  it('on limits it is near: nodes, depth and documents are left to the exact path', () => {
    const limits: BlueprintLimits = { ...BLUEPRINT_LIMITS, maxNodes: 40, maxDepth: 6, maxDocuments: 6 };
    expect(takes(manyPoints(30), limits)).toBe(false);
    expectSame(manyPoints(30), { file: 'f.yml', limits });
    expect(takes(deepYaml(6), limits)).toBe(false);
    expectSame(deepYaml(6), { file: 'f.yml', limits });
    const docs = 'title: t\n' + '---\n- prompt: hi\n'.repeat(4);
    expect(takes(docs, limits)).toBe(false);
    expectSame(docs, { file: 'f.yml', limits });
  });
});

/** Where js-yaml (YAML 1.1 habits, its own schema) and `yaml` (1.2 core) differ, the result must not. */
describe('YAML on which the two libraries differ', () => {
  const prompt = (value: string) => `title: t\nprompts:\n  - prompt: hi\n    ideal: ${value}\n    should:\n      - ${value}\n`;
  const taken: [string, string][] = [
    ['YAML 1.1 booleans stay strings', 'yes'],
    ['off', 'off'],
    ['On', 'On'],
    ['a 1.2 boolean', 'true'],
    ['a leading-zero integer is decimal', '0755'],
    ['a 1.2 octal', '0o17'],
    ['a hex integer', '0x1F'],
    ['underscores are no number in 1.2', '1_000'],
    ['a 1.1 sexagesimal is a string', '1:20'],
    ['a big integer', '123456789012345678901234567890'],
    ['an overflowing float', '1e400'],
    ['.inf', '.inf'],
    ['.NaN', '.NaN'],
    ['a timestamp stays a string', '2001-12-14t21:59:43.10-05:00'],
    ['a date stays a string', '2026-12-02'],
    ['~', '~'],
    ['Null', 'Null'],
    ['a signed float', '+.5'],
    ['a quoted number stays a string', '"12"'],
    ['a single-quoted string with an escaped quote', "'it''s'"],
    ['escapes in double quotes', '"tab\\tnew\\nline \\u00e9 \\x41 \\/ \\_"'],
    ['an emoji escape', '"\\U0001F600"'],
  ];
  for (const [name, value] of taken) {
    it(`${name} (${value})`, () => {
      expect(takes(prompt(value))).toBe(true);
      expectSame(prompt(value));
    });
  }

  const givenUp: [string, string][] = [
    ['an anchor and an alias', 'title: t\nbase: &b x\nprompts:\n  - prompt: *b\n'],
    ['an explicit merge key (found by the generated blueprints)', 'title: t\n? <<\nprompts:\n  - prompt: hi\n'],
    ['a merge key', 'title: t\nbase: &b {prompt: hi}\nprompts:\n  - <<: *b\n    should: [x]\n'],
    ['a duplicate key (js-yaml throws, yaml reports it)', 'title: t\ntitle: u\nprompts:\n  - prompt: hi\n'],
    ['keys equal once resolved (1 and 1.0)', 'title: t\nprompts:\n  - prompt: hi\n    should:\n      - $contains: x\n        1: a\n        1.0: b\n'],
    ['~ and null keys', 'title: t\n~: a\nnull: b\nprompts:\n  - prompt: hi\n'],
    ['a !!str tag', 'title: !!str 12\nprompts:\n  - prompt: hi\n'],
    ['a custom tag', 'title: t\nprompts:\n  - prompt: !x hi\n'],
    ['an explicit key whose value is a compact list', 'title: t\n? prompts\n: - prompt: hi\n'],
    ['an explicit key on the lines below its `?`', 'title: t\nprompts:\n  - prompt: hi\n    should:\n      - ?\n          x\n        : y\n'],
    ['an explicit collection key', 'title: t\nprompts:\n  - prompt: hi\n    should:\n      - ? [a]\n        : y\n'],
    ['a flow pair', 'title: t\nprompts: [prompt: hi]\n'],
    ['a collection key', 'title: t\n[a, b]: c\nprompts:\n  - prompt: hi\n'],
    ['a %YAML 1.1 directive (yes would be a boolean)', '%YAML 1.1\n---\ntitle: t\nprompts:\n  - prompt: hi\n    ideal: yes\n'],
    ['a BOM', '\uFEFFtitle: t\nprompts:\n  - prompt: hi\n'],
    ['an escaped NUL', 'title: t\nprompts:\n  - prompt: "a\\0b"\n'],
    ['an escaped lone surrogate', 'title: t\nprompts:\n  - prompt: "a\\ud800b"\n'],
    ['a syntax error', 'title: Maternal Benefits: Uttar Pradesh\nprompts:\n  - prompt: hi\n'],
    ['a comment-only file', '# nothing\n'],
    ['a quoted scalar continued at its key\'s column (js-yaml reads on, yaml: "Missing closing quote")', 'title: t\nprompts:\n  - prompt: hi\n    ideal: " a\n    "\n'],
    ['a plain scalar continued at its key\'s column', 'title: t\nprompts:\n  - prompt: hi\n    should:\n      - x\n    ideal: a\n    b\n'],
    ['a flow list continued at its key\'s column', 'title: t\nprompts:\n  - prompt: hi\n    should: [a,\n    b]\n'],
    ['a comment right after a closing quote (yaml wants a space)', 'title: "t"#c\nprompts:\n  - prompt: hi\n'],
  ];
  for (const [name, text] of givenUp) {
    it(`leaves ${name} to the exact path`, () => {
      expect(takes(text)).toBe(false);
      expectSame(text);
    });
  }

  it('places nodes after comments, blank lines, document markers, over lines and in flow collections where yaml does', () => {
    const texts = [
      'title: t # a comment\n\n# another\nprompts:   # here\n  -   prompt:    "hi"\n      should:\n\n        # c\n        - x\n',
      '---\ntitle: t\n...\n--- \n- prompt: hi\n  should: {x: 1}\n--- # c\n- prompt: there\n',
      'title: t\nprompts:\n- prompt: |\n    multi\n    line\n  ideal: >-\n    folded\n    text\n\n  should:\n  - |+\n    kept\n\n  - plain\n    continued\n',
      'title: t\nprompts:\n  - prompt: "quoted\n      over lines"\n    should:\n      - \'single\n        too\'\n',
      'title: t\nprompts:\n  - prompt: hi\n    should: [\n        "a",\n        "b"\n    ]\n',
      'title: t\nprompts:\n  - prompt: hi\n    should: [\n        "a", ["b",\n        c]\n      ]\n',
      'title: t\nprompts:\n  - prompt: plain text\n      - over\n\n      \'lines\' [a] {b}\n    ideal: >\n      folded\n        more indented\n      \n      back\n    should:\n      - |-\n        kept\n           \n        spaces\n',
      'title: t\nprompts:\n  - prompt: hi\n    should:\n      - ? |\n          a block key\n        : "its value"\n      - ? plain key\n      - ? "quoted"\n        : [v]\n        other: 1\n',
      'title: "a\\\n  b \\t c"\ndescription:\n  on the next line\n  and the one after\nprompts:\n- prompt: \'it\'\'s\n\n    two\'\n',
    ];
    for (const text of texts) {
      expect(takes(text)).toBe(true);
      expectSame(text);
    }
  });

  it('leaves CRLF line ends and tabs to the exact path, with the same results', () => {
    // `yaml` has rules of its own for both (a tab may separate but not indent); neither is in the corpus.
    for (const text of ['title: t\r\nprompts:\r\n  - prompt: hi\r\n    should:\r\n      - "x"\r\n', 'title:\tt\nprompts:\n  - prompt:\thi\n    should: [ a ,\tb ]\n']) {
      expect(takes(text)).toBe(false);
      expectSame(text);
    }
  });

  it('falls back when an empty value is what an issue or a result points at', () => {
    // `should:` with nothing: the warning or error would point at the empty value
    for (const text of ['title: t\nprompts:\n  - prompt: hi\n    should:\n', 'title: t\nprompts:\n  - prompt:\n    should: [x]\n', 'title:\nprompts:\n  - prompt: hi\n    should:\n      -\n      - x\n']) {
      expectSame(text);
    }
  });
});

describe('generated blueprints', () => {
  const word = fc.constantFrom('hello', 'x', '', 'yes', 'no', 'on', '0o7', '0x1F', '017', '1_000', '1e400', '.inf', '~', 'null', 'true', '2001-12-14', '12:30', 'a: b', '- item', '#', '"q"', "'s'", '\\', '<<', '😀', 'ünï');
  const text = fc.oneof(word, fc.string({ maxLength: 20 }));
  const point = fc.oneof(text, fc.record({ $contains: text }), fc.record({ text, weight: fc.oneof(fc.integer(), fc.double()) }, { requiredKeys: ['text'] }));
  const prompt = fc.record({ id: fc.oneof(text, fc.integer()), prompt: text, ideal: text, should: fc.array(fc.oneof(point, fc.array(point, { maxLength: 2 })), { maxLength: 4 }), should_not: fc.array(point, { maxLength: 2 }) }, { requiredKeys: [] });
  const blueprint = fc.tuple(fc.record({ title: text, description: text, models: fc.array(text, { maxLength: 2 }) }, { requiredKeys: [] }), fc.array(prompt, { maxLength: 4 }));
  const snippet = fc.constantFrom('&a ', '*a', '<<: *a\n', '[', ']', '{', '}', ': ', '- ', '\n', '\n  ', '\t', '"', "'", '|', '>', '---\n', '? ', '!!str ', '#', '%YAML 1.1\n', '\\0', ' #', '\r\n', '...\n');
  const mutation = fc.tuple(fc.nat(), fc.oneof(snippet, fc.string({ maxLength: 6 })), fc.nat({ max: 6 }));

  it('give the same result both ways, mutated or not', () => {
    fc.assert(
      fc.property(blueprint, fc.boolean(), fc.array(mutation, { maxLength: 3 }), ([header, prompts], docs, mutations) => {
        let source = docs ? `${stringify(header)}---\n${stringify(prompts)}` : stringify({ ...header, prompts });
        for (const [at, insert, remove] of mutations) {
          const i = source.length ? at % (source.length + 1) : 0;
          source = source.slice(0, i) + insert + source.slice(i + remove);
        }
        expectSame(source, { file: 'generated.yml' });
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 800), seed: Number(process.env.FUZZ_SEED ?? 20261202) },
    );
  }, 120_000);
});

describe.skipIf(!WEVAL_CORPUS)(needsCorpus('mutated corpus blueprints'), () => {
  // Real blueprints hold what the generator above rarely writes (plain and quoted scalars over
  // lines, block scalars with blank and deeper lines, flow lists over lines, comments,
  // explicit keys): a slice of one, mutated where its structure is (line starts, indentation,
  // after `:` and `-`), must give the same result both ways.
  const files = filesOf(CORPUS).filter((f) => f.file.endsWith('.yml') || f.file.endsWith('.yaml'));
  const snippet = fc.constantFrom(' ', '  ', '\n', '\n\n', '- ', ': ', '? ', '#', ' #', '"', "'", '|', '>-', '|+', '[', ']', '{', '}', ',', '\\', '\\n', "''", '---\n', '...\n', '&a ', '*a', '!t ', '~', 'null', '1.0', '0o7', 'yes', 'x: y', '  - z\n');
  const mutation = fc.tuple(fc.nat(), fc.oneof(snippet, fc.string({ maxLength: 4 })), fc.nat({ max: 4 }), fc.boolean());

  it('give the same result both ways, and the fast path takes many of them', () => {
    const runs = Number(process.env.FUZZ_RUNS ?? 600);
    let taken = 0;
    fc.assert(
      fc.property(fc.nat({ max: files.length - 1 }), fc.nat(), fc.nat({ max: 60 }), fc.array(mutation, { maxLength: 4 }), (which, from, lines, mutations) => {
        const all = files[which]!.text.split('\n');
        const start = from % all.length;
        let source = all.slice(start, start + 10 + lines).join('\n') + '\n';
        for (const [at, insert, remove, atLineStart] of mutations) {
          let i = source.length ? at % (source.length + 1) : 0;
          if (atLineStart) i = source.lastIndexOf('\n', i - 1) + 1;
          source = source.slice(0, i) + insert + source.slice(i + remove);
        }
        expectSame(source, { file: 'mutated.yml' });
        if (takes(source)) taken++;
      }),
      { numRuns: runs, seed: Number(process.env.FUZZ_SEED ?? 20261203) },
    );
    // a fast path that gave up on every mutation would pass the comparison without being tested by it
    expect(taken).toBeGreaterThan(runs / 8);
  }, 120_000);
});

describe('plain scalar resolution', () => {
  it('only tries the core-schema tags on scalars that can start one of them', async () => {
    // fast-tree.ts skips the tags for plain scalars not starting with - + . ~ 0-9, and for words of over five letters starting with n N t T f F.
    const { Document } = await import('yaml');
    const tags = new Document(null, { merge: true }).schema.tags.filter((t) => t.default === true && 'test' in t && t.test);
    const starts = tags.map((t) => (t as { test: RegExp }).test.source);
    expect(starts).toEqual([
      '^(?:~|[Nn]ull|NULL)?$',
      '^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$',
      '^0o[0-7]+$',
      '^[-+]?[0-9]+$',
      '^0x[0-9a-fA-F]+$',
      '^(?:[-+]?\\.(?:inf|Inf|INF)|\\.nan|\\.NaN|\\.NAN)$',
      '^[-+]?(?:\\.[0-9]+|[0-9]+(?:\\.[0-9]*)?)[eE][-+]?[0-9]+$',
      '^[-+]?(?:\\.[0-9]+|[0-9]+\\.[0-9]*)$',
    ]);
  });
});
