/** soev criteria in a blueprint: `- kind:` entries, `criteria:`, the header's `defaults:`, `citations:`, `messages:`, `corpus:`. */
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { errorsOf, loadWithWarnings, load, yaml } from './blueprint.testkit';
import { blueprintSourceSchema } from './source-schema';

const SOEV = yaml`
  title: soev-style
  defaults:
    - kind: reply.max_length
      max: 2000
      gate: true
  citations:
    pattern: '\\[(law/[a-z]+/[0-9/]+)\\]'
    match: exact
  messages:
    no_answer: "Daar kan ik geen antwoord op geven."
  corpus: { path: corpus/units.jsonl, law_names: { law/awb: [Awb, Algemene wet bestuursrecht] } }
  ---
  - id: termijn
    prompt: Hoe lang heb ik voor bezwaar?
    should:
      - "Noemt de termijn van zes weken"
      - kind: reply.language
        params: { language: en }
        language: nl
    criteria:
      - kind: citations.required
        weight: 3
  `;

describe('criterion entries', () => {
  it('reads defaults first, then should, then criteria; a key beside kind wins over params', () => {
    const { blueprint, warnings } = loadWithWarnings(SOEV);
    expect(warnings).toEqual([]);
    const points = blueprint.prompts[0]!.points;
    expect(points.map((p) => [p.kind, p.kind === 'criterion' ? p.criterion : p.text, p.weight, p.gate])).toEqual([
      ['criterion', 'reply.max_length', 1, true],
      ['text', 'Noemt de termijn van zes weken', 1, false],
      ['criterion', 'reply.language', 1, false],
      ['criterion', 'citations.required', 3, false],
    ]);
    expect(points[0]).toMatchObject({ params: { max: 2000, unit: 'characters' }, text: 'reply.max_length {"max":2000,"unit":"characters"}' });
    expect(points[2]).toMatchObject({ params: { language: 'nl' }, loc: { line: 17, col: 7 } });
  });

  it('reads the header keys: the citation reading rule, messages (not a prompt), the corpus', () => {
    const b = load(SOEV);
    expect(b.citation_reading).toEqual({ mapping: null, pattern: '\\[(law/[a-z]+/[0-9/]+)\\]', match: 'exact' });
    expect(b.references).toEqual([]);
    expect(b.messages).toEqual({ no_answer: 'Daar kan ik geen antwoord op geven.' });
    expect(b.corpus).toEqual({ path: 'corpus/units.jsonl', law_names: { 'law/awb': ['Awb', 'Algemene wet bestuursrecht'] } });
    expect(b.prompts).toHaveLength(1);
  });

  it('keeps a `citations:` list as Weval references', () => {
    const b = load(yaml`
      title: t
      citations: ["Wet A", { title: "Wet B", url: "https://example.org" }]
      ---
      - prompt: hi
        should: [hello]
    `);
    expect(b.references).toEqual([{ title: 'Wet A' }, { title: 'Wet B', url: 'https://example.org' }]);
    expect(b.citation_reading).toBeNull();
  });

  it('a prompt hash id does not change with the defaults', () => {
    const plain = load('- prompt: hi\n  should: [hello]\n').prompts[0]!;
    const withDefaults = load('defaults:\n  - kind: reply.max_length\n    max: 10\n---\n- prompt: hi\n  should: [hello]\n').prompts[0]!;
    expect(withDefaults.id).toBe(plain.id);
    expect(withDefaults.points).toHaveLength(2);
  });

  it('reports each bad entry at its position, with suggestions for an unknown kind', () => {
    const errors = errorsOf(yaml`
      - id: a
        prompt: hallo
        criteria:
          - kind: reply.langauge
            language: nl
          - kind: reply.contains
            params: { text: a, ignore_case: 3 }
          - kind: reply.max_length
            maxx: 3
            max: 3
          - kind: reply.regex
            pattern: "(?<=a)b"
          - "Noemt de termijn"
        should_not:
          - kind: reply.max_length
            max: 3
    `);
    expect(errors.map((e) => `${e.line}:${e.col} ${e.code} ${e.message}`)).toEqual([
      '4:13 unknown_function unknown criterion kind "reply.langauge"; did you mean reply.language?',
      '7:39 invalid_args reply.contains: `ignore_case`: Invalid input: expected boolean, received number',
      '9:7 invalid_args reply.max_length has no parameter `maxx`',
      expect.stringMatching(/^12:16 invalid_args reply\.regex: `pattern`: the pattern needs the JavaScript engine/),
      '13:7 schema each item of `criteria` is a criterion with `kind:`, not a string',
      '15:13 schema a criterion (`kind: reply.max_length`) cannot stand under should_not',
    ]);
    expect(errors[0]!.hint).toBe('Write `kind: reply.language`.');
  });

  it('rejects bad header keys with positions', () => {
    const errors = errorsOf(yaml`
      citations: { pattern: "(?<=x)(y)", match: fuzzy }
      messages: { a: 3 }
      corpus: { law_names: [] }
      ---
      - prompt: hi
    `);
    expect(errors.map((e) => `${e.line}:${e.col} ${e.message.slice(0, 40)}`)).toEqual([
      '1:43 `citations`.match: Invalid option: expec',
      '2:16 the message `a` must be a non-empty stri',
      '3:9 `corpus.path` is required: the JSONL fil',
      '3:22 `corpus.law_names` must map a law id to ',
    ]);
  });

  it('the JSON Schema accepts the criterion forms and refuses an unknown parameter', () => {
    const schema = blueprintSourceSchema();
    for (const doc of parseAllDocuments(SOEV)) expect(schema.safeParse(doc.toJS()).success).toBe(true);
    expect(schema.safeParse([{ prompt: 'hi', criteria: [{ kind: 'reply.max_length', maxx: 3 }] }]).success).toBe(false);
  });
});
