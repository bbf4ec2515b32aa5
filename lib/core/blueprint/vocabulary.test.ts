/**
 * The vocabulary against its consumers: the parser reads every spelling of a field as the field
 * itself (and without an "unknown field" warning), prefers spellings in the vocabulary's order
 * with the declared rule, the authored-format schema lists every spelling and no alias the
 * vocabulary does not know, and the form editor shows and edits every spelling.
 */
import { describe, expect, it } from 'vitest';
import { editForm, type FormEdit } from '../authoring/form-edits';
import { readForm, type FormModel } from '../authoring/form-model';
import { PASSTHROUGH_KEYS, READ_KEYS } from './header';
import { parseBlueprint } from './parse';
import { PROMPT_KEYS } from './prompts';
import type { Blueprint } from './schema';
import { blueprintJsonSchema } from './source-schema';
import { aliasesOf, HEADER_FIELDS, POINT_FIELDS, PROMPT_FIELDS, VOCABULARY, type FieldWord } from './vocabulary';

interface Case {
  field: FieldWord;
  /** A whole blueprint writing the field as `lines` (each `key: value`). */
  write: (lines: string[]) => string;
  read: (bp: Blueprint) => unknown;
  /** Two values (YAML) the field reads differently, and one that is written but empty. */
  values: [string, string];
  empty: string;
}

const header = (lines: string[]) => `${lines.join('\n')}\n---\n- prompt: q\n  should: [x]\n`;
const prompt = (lines: string[], rest = '  prompt: q\n  should: [x]\n') => `- ${lines.join('\n  ')}\n${rest}`;
const point = (fields: string) => (lines: string[]) => `- prompt: q\n  should:\n    - { ${[fields, ...lines].filter(Boolean).join(', ')} }\n`;
const first = (bp: Blueprint) => bp.prompts[0]!;
const firstPoint = (bp: Blueprint) => first(bp).points[0]!;
const RETRIEVAL = (metric: string) => `{ corpus: c.jsonl, queries: q.jsonl, qrels: r.jsonl, metrics: [${metric}], models: ["openai:text-embedding-3-small"] }`;

const CASES: Case[] = [
  { field: HEADER_FIELDS.id, write: header, read: (bp) => bp.id, values: ['a', 'b'], empty: '""' },
  { field: HEADER_FIELDS.title, write: header, read: (bp) => bp.title, values: ['A', 'B'], empty: '""' },
  { field: HEADER_FIELDS.references, write: header, read: (bp) => bp.references, values: ['"Paper A"', '[{ title: "Paper B", url: "https://b.example" }]'], empty: '""' },
  { field: HEADER_FIELDS.system, write: header, read: (bp) => bp.system, values: ['"You are A"', '"You are B"'], empty: '""' },
  { field: HEADER_FIELDS.point_defs, write: header, read: (bp) => bp.point_defs, values: ['{ d: "return 1" }', '{ e: "return 2" }'], empty: 'null' },
  { field: HEADER_FIELDS.retrieval, write: (lines) => `${lines.join('\n')}\n`, read: (bp) => bp.retrieval?.metrics, values: [RETRIEVAL('recall@10'), RETRIEVAL('mrr')], empty: 'null' },
  { field: PROMPT_FIELDS.prompt, write: (lines) => prompt(lines, '  should: [x]\n'), read: (bp) => first(bp).messages, values: ['A', 'B'], empty: '""' },
  { field: PROMPT_FIELDS.ideal, write: (lines) => prompt(lines), read: (bp) => first(bp).ideal, values: ['A', 'B'], empty: '""' },
  { field: PROMPT_FIELDS.citation, write: (lines) => prompt(lines), read: (bp) => [first(bp).citation, first(bp).citationUrl], values: ['A', '{ title: B, url: "https://b.example" }'], empty: '""' },
  { field: PROMPT_FIELDS.weight, write: (lines) => prompt(lines), read: (bp) => first(bp).weight, values: ['2', '3'], empty: 'null' },
  { field: PROMPT_FIELDS.should, write: (lines) => prompt(lines, '  prompt: q\n'), read: (bp) => first(bp).points.map((p) => p.text), values: ['[a]', '[b, c]'], empty: '[]' },
  { field: POINT_FIELDS.text, write: point(''), read: (bp) => firstPoint(bp).text, values: ['A', 'B'], empty: '""' },
  { field: POINT_FIELDS.args, write: point('fn: contains'), read: (bp) => firstPoint(bp), values: ['a', 'b'], empty: 'null' },
  { field: POINT_FIELDS.weight, write: point('text: x'), read: (bp) => firstPoint(bp).weight, values: ['2', '3'], empty: 'null' },
];

/** What the parser makes of a blueprint: the field's value, or its errors. */
function outcome(c: Case, text: string): unknown {
  const result = parseBlueprint(text, { file: 't.yml' });
  if (!result.ok) return { errors: result.errors.map((e) => e.message) };
  expect(result.warnings.map((w) => w.message), text).toEqual([]);
  // positions differ with the key's length; the value is what matters
  return JSON.parse(JSON.stringify(c.read(result.blueprint), (key, value: unknown) => (key === 'loc' ? undefined : value)));
}

describe('the vocabulary', () => {
  it('declares each field once per place, with its canonical name among its spellings, and no spelling twice', () => {
    for (const scope of ['header', 'prompt', 'point'] as const) {
      const words = VOCABULARY.filter((f) => f.scope === scope);
      const spellings = words.flatMap((f) => f.spellings);
      expect(new Set(spellings).size, scope).toBe(spellings.length);
      expect(new Set(words.map((f) => f.name)).size, scope).toBe(words.length);
    }
    for (const field of VOCABULARY) expect(field.spellings).toContain(field.name);
  });

  it('every field of the vocabulary is tested below', () => {
    expect(CASES.map((c) => c.field)).toEqual(expect.arrayContaining([...VOCABULARY]));
    expect(CASES).toHaveLength(VOCABULARY.length);
  });
});

describe('the parser', () => {
  it('knows every spelling as a header or prompt field', () => {
    for (const field of VOCABULARY.filter((f) => f.scope === 'header')) for (const key of field.spellings) expect([...READ_KEYS, ...PASSTHROUGH_KEYS]).toContain(key);
    for (const field of VOCABULARY.filter((f) => f.scope === 'prompt')) for (const key of field.spellings) expect(PROMPT_KEYS).toContain(key);
  });

  for (const c of CASES) {
    const { field } = c;
    describe(`${field.scope} \`${field.name}\``, () => {
      it(`reads ${field.spellings.join(', ')} as \`${field.name}\``, () => {
        for (const value of c.values) {
          const canonical = outcome(c, c.write([`${field.name}: ${value}`]));
          expect(canonical, value).not.toHaveProperty('errors');
          for (const alias of aliasesOf(field)) expect(outcome(c, c.write([`${alias}: ${value}`])), alias).toEqual(canonical);
        }
        expect(outcome(c, c.write([`${field.name}: ${c.values[0]}`]))).not.toEqual(outcome(c, c.write([`${field.name}: ${c.values[1]}`])));
      });

      it(`prefers the spellings in their order (${field.precedence})`, () => {
        const [a, b] = c.values;
        field.spellings.forEach((earlier, i) => {
          for (const later of field.spellings.slice(i + 1)) {
            // written in either order in the file: the preference is the spelling's, not the line's
            for (const lines of [[`${earlier}: ${a}`, `${later}: ${b}`], [`${later}: ${b}`, `${earlier}: ${a}`]]) {
              const both = outcome(c, c.write(lines));
              if (field.precedence === 'one-only') expect(both, lines.join(' / ')).toHaveProperty('errors');
              else expect(both, lines.join(' / ')).toEqual(outcome(c, c.write([`${earlier}: ${a}`])));
            }
            if (field.precedence === 'one-only') continue;
            // the earlier spelling written but empty
            const emptyFirst = outcome(c, c.write([`${earlier}: ${c.empty}`, `${later}: ${b}`]));
            if (field.precedence === 'first-written') expect(emptyFirst, `${earlier}: ${c.empty}`).toEqual(outcome(c, c.write([`${earlier}: ${c.empty}`])));
            else expect(emptyFirst, `${earlier}: ${c.empty}`).toEqual(outcome(c, c.write([`${later}: ${b}`])));
          }
        });
        if (field.precedence !== 'first-truthy' && field.precedence !== 'first-truthy-else-last') return;
        // every spelling falsy: the field is unset, or the last spelling's value is read (and checked)
        const last = field.spellings[field.spellings.length - 1]!;
        const falsy = outcome(c, c.write([...field.spellings.slice(0, -1).map((key) => `${key}: ""`), `${last}: 0`]));
        expect(falsy).toEqual(outcome(c, c.write(field.precedence === 'first-truthy' ? [] : [`${last}: 0`])));
      });
    });
  }
});

describe('the authored-format schema', () => {
  type Props = Record<string, { description?: string }>;
  const definitions = blueprintJsonSchema().definitions as Record<string, { properties?: Props }>;

  it('lists every spelling of the header and prompt fields, each alias described as the alias of its field', () => {
    for (const field of VOCABULARY.filter((f) => f.scope !== 'point')) {
      const props = definitions[field.scope]!.properties!;
      expect(Object.keys(props), field.name).toEqual(expect.arrayContaining([...field.spellings]));
      for (const alias of aliasesOf(field)) expect(props[alias]!.description, alias).toMatch(new RegExp(`alias of \`${field.name}\``, 'i'));
    }
  });

  it('calls nothing an alias that the vocabulary does not', () => {
    for (const scope of ['header', 'prompt'] as const) {
      for (const [key, prop] of Object.entries(definitions[scope]!.properties!)) {
        const of = /alias of `(\w+)`/i.exec(prop.description ?? '')?.[1];
        if (!of) continue;
        const field = VOCABULARY.find((f) => f.scope === scope && f.name === of);
        expect(field && aliasesOf(field), `${scope} ${key}`).toContain(key);
      }
    }
  });

  it('accepts every spelling of the point fields', () => {
    for (const key of POINT_FIELDS.text.spellings) expect(Object.keys(definitions[`point.${key}`]?.properties ?? {}), key).toEqual(expect.arrayContaining([key, ...POINT_FIELDS.weight.spellings]));
    // `contains` needs its argument: one form per spelling of it
    for (const key of POINT_FIELDS.args.spellings) expect(Object.keys(definitions[`point.fn.contains.${key}`]?.properties ?? {}), key).toContain(key);
  });
});

describe('the form editor', () => {
  const model = (text: string): FormModel => {
    const reading = readForm(text, 't.yml');
    if (!reading.ok) throw new Error(JSON.stringify(reading));
    return reading.model;
  };
  /** The edit keeps the spelling the author wrote, and adds no other. */
  const writes = (text: string, e: FormEdit, field: FieldWord, key: string) => {
    const after = editForm(model(text), e);
    for (const spelling of field.spellings) expect(new RegExp(`(^|[\\s{,-])${spelling}:`, 'm').test(after), `${key} → ${spelling}`).toBe(spelling === key);
    return after;
  };

  it('shows and edits the title under each spelling', () => {
    for (const key of HEADER_FIELDS.title.spellings) {
      const text = header([`${key}: A`]);
      expect(model(text).view.header?.title, key).toBe('A');
      const after = writes(text, { op: 'header', field: 'title', value: 'B' }, HEADER_FIELDS.title, key);
      expect(model(after).view.header?.title).toBe('B');
    }
  });

  it('shows prompt fields under each spelling, and edits text, weight and citation where they are written', () => {
    const views = { prompt: 'prompt', ideal: 'ideal', weight: 'weight', citation: 'citation' } as const;
    for (const [name, view] of Object.entries(views)) {
      const field = PROMPT_FIELDS[name as keyof typeof views];
      for (const key of field.spellings) {
        const value = name === 'weight' ? '2' : 'A';
        const text = name === 'prompt' ? prompt([`${key}: A`], '  should: [x]\n') : prompt([`${key}: ${value}`]);
        expect(model(text).view.prompts[0]![view], key).toBe(name === 'weight' ? 2 : 'A');
        if (name === 'ideal') continue; // the form edits `ideal` under its own name
        const after = writes(text, { op: 'prompt', prompt: 0, field: name as 'prompt' | 'weight' | 'citation', value: name === 'weight' ? 3 : 'B' }, field, key);
        expect(model(after).view.prompts[0]![view], key).toBe(name === 'weight' ? 3 : 'B');
      }
    }
  });

  it('finds the rubric under each spelling of `should`', () => {
    for (const key of PROMPT_FIELDS.should.spellings) {
      const view = model(prompt([`${key}: [a]`], '  prompt: q\n')).view.prompts[0]!;
      expect([view.rubricKey, view.points.map((p) => p.text)], key).toEqual([key, ['a']]);
    }
  });

  it('shows and edits point text, weight and arguments under each spelling', () => {
    for (const key of POINT_FIELDS.text.spellings) {
      const text = point('')([`${key}: A`]);
      expect(model(text).view.prompts[0]!.points[0]!.text, key).toBe('A');
      expect(model(writes(text, { op: 'point', prompt: 0, point: 0, field: 'text', value: 'B' }, POINT_FIELDS.text, key)).view.prompts[0]!.points[0]!.text).toBe('B');
    }
    for (const key of POINT_FIELDS.weight.spellings) {
      const text = point('text: x')([`${key}: 2`]);
      expect(model(text).view.prompts[0]!.points[0]!.weight, key).toBe(2);
      expect(model(writes(text, { op: 'point', prompt: 0, point: 0, field: 'weight', value: 3 }, POINT_FIELDS.weight, key)).view.prompts[0]!.points[0]!.weight).toBe(3);
    }
    for (const key of POINT_FIELDS.args.spellings) {
      const text = point('fn: contains')([`${key}: a`]);
      expect(model(text).view.prompts[0]!.points[0]!.args, key).toBe('a');
      expect(model(writes(text, { op: 'point', prompt: 0, point: 0, field: 'args', value: 'b' }, POINT_FIELDS.args, key)).view.prompts[0]!.points[0]!.args).toBe('b');
    }
  });
});
