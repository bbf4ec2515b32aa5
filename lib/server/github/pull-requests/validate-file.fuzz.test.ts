/**
 * Issue 11's fuzz run: the loader (`parseBlueprint`) and the pull-request validation path's
 * pure part (`validateFile`, what the validation worker runs) over generated input — plausible
 * blueprints serialised as YAML or JSON and then mutated, YAML-token soup, and raw bytes.
 * Properties: nothing throws; every rejection is a list of problems each at a line ≥ 1 and a
 * column ≥ 1 with a message; an accepted blueprint holds no text PostgreSQL would refuse.
 *
 * `npm test` runs FUZZ_RUNS (default 2,500) cases per generator, 10,000 in all (≈ 12 s on a quiet
 * machine); `npm run fuzz` runs 10,000 per generator, 40,000 in all (≈ 45 s).
 */
import fc from 'fast-check';
import { stringify } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { parseBlueprint, unstorableOffset, type ParseResult } from '@/lib/core';
import { validateFile } from './validate-file';

const RUNS = Number(process.env.FUZZ_RUNS ?? 2_500);
const SEED = Number(process.env.FUZZ_SEED ?? 20261201);

// ── plausible blueprints ────────────────────────────────────────────────────────────────
const word = fc.constantFrom('hello', 'Paris', 'x', '', 'ünïcödé', '😀', 'a: b', '- item', '#', '*a', '&b', '"q"', "'s'", '\\', '{}', '[]', 'null', '~', 'true', '0x1F', '1e400', '<<', '$contains_any_of: [&a [x, x], *a, *a]', '$contains_all_of: [[[[x]]]]', '$icontains: {a: &b [1], c: *b}');
const text = fc.oneof(word, fc.string({ maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 20 }));
const fnName = fc.constantFrom('$contains', '$icontains', '$matches', '$imatches', '$contains_any_of', '$word_count_between', '$js', '$ref', '$starts_with', '$no_such_fn', '$is_json', '$contains_all_of');
const fnArg = fc.oneof(text, fc.integer(), fc.array(text, { maxLength: 4 }), fc.constant('^(a+)+$'), fc.constant('('), fc.tuple(fc.integer(), fc.integer()));
const point: fc.Arbitrary<unknown> = fc.oneof(
  text,
  fc.record({ [0]: fnName }).chain(({ 0: name }) => fnArg.map((arg) => ({ [name]: arg }))),
  fc.record({ fn: fc.constantFrom('contains', 'matches', 'bogus'), arg: fnArg }),
  fc.record({ text, multiplier: fc.oneof(fc.double(), fc.integer()), citation: text }, { requiredKeys: ['text'] }),
);
const points = fc.array(fc.oneof({ weight: 4, arbitrary: point }, { weight: 1, arbitrary: fc.array(point, { maxLength: 3 }) }), { maxLength: 6 });
const message = fc.record({ role: fc.constantFrom('user', 'assistant', 'system', 'ai', 'robot'), content: fc.oneof(text, fc.constant(null)) });
const prompt = fc.record(
  {
    id: fc.oneof(text, fc.integer()),
    prompt: text,
    messages: fc.array(message, { maxLength: 4 }),
    should: points,
    should_not: points,
    ideal: text,
    weight: fc.oneof(fc.double(), fc.integer({ min: -2, max: 5 })),
    system: fc.oneof(text, fc.array(fc.oneof(text, fc.constant(null)), { maxLength: 3 })),
    split: fc.constantFrom('test', 'train', 'bogus'),
    correct: fc.oneof(text, fc.record({ path: text, equals: text })),
  },
  { requiredKeys: [] },
);
const header = fc.record(
  {
    title: text,
    description: text,
    models: fc.array(fc.constantFrom('openai:gpt-4o-mini', 'anthropic:claude-3-5-haiku-latest', 'bogus'), { maxLength: 3 }),
    temperatures: fc.array(fc.double({ min: -1, max: 3 }), { maxLength: 3 }),
    point_defs: fc.dictionary(fc.constantFrom('a', 'b', 'c'), point, { maxKeys: 2 }),
    tags: fc.array(text, { maxLength: 3 }),
  },
  { requiredKeys: [] },
);
const blueprint = fc.tuple(header, fc.array(prompt, { maxLength: 5 }), fc.constantFrom('yaml-docs', 'yaml-prompts', 'yaml-list', 'json'));

function serialise([h, ps, layout]: [object, object[], string]): { text: string; file: string } {
  if (layout === 'json') return { text: JSON.stringify({ ...h, prompts: ps }, null, 1), file: 'f.json' };
  if (layout === 'yaml-prompts') return { text: stringify({ ...h, prompts: ps }), file: 'f.yml' };
  if (layout === 'yaml-list') return { text: stringify(ps), file: 'f.yml' };
  return { text: `${stringify(h)}---\n${stringify(ps)}`, file: 'f.yml' };
}

// ── mutations: what a careless (or hostile) edit does to the text ───────────────────────
const snippet = fc.constantFrom('\0', '\uD800', '&a ', '*a', '<<: *a\n', '[', ']', '{', '}', ': ', '- ', '\n', '\n  ', '\t', '"', "'", '|', '>', '---\n', '? ', '!!binary ', '!custom ', '#', '%YAML 1.2\n', '\\u0000', '\\0', '[[[[[[[[', '\uFEFF');
const mutation = fc.oneof(
  fc.tuple(fc.constant('insert' as const), fc.nat(), fc.oneof(snippet, fc.string({ maxLength: 8 }))),
  fc.tuple(fc.constant('delete' as const), fc.nat(), fc.nat({ max: 20 })),
  fc.tuple(fc.constant('repeat' as const), fc.nat(), fc.nat({ max: 40 })),
);
function mutate(source: string, ms: ReadonlyArray<readonly ['insert', number, string] | readonly ['delete' | 'repeat', number, number]>): string {
  let s = source;
  for (const m of ms) {
    const at = s.length ? m[1] % (s.length + 1) : 0;
    if (m[0] === 'insert') s = s.slice(0, at) + m[2] + s.slice(at);
    else if (m[0] === 'delete') s = s.slice(0, at) + s.slice(at + m[2]);
    else s = s.slice(0, at) + s.slice(at, at + m[2]).repeat(3) + s.slice(at);
  }
  return s;
}
// half unmutated, so the normaliser past the YAML parser gets its share of cases
const mutatedBlueprint = fc.tuple(blueprint, fc.oneof(fc.constant([]), fc.array(mutation, { minLength: 1, maxLength: 4 }))).map(([b, ms]) => {
  const { text: t, file } = serialise(b);
  return { text: mutate(t, ms), file };
});

// ── YAML-token soup and raw bytes ───────────────────────────────────────────────────────
const token = fc.constantFrom('- ', 'prompt: ', 'should: ', 'should_not: ', 'id: ', 'title: ', 'prompts:\n', '  ', '\n', '&a ', '&b ', '*a', '*b', '<<: ', '[', ']', '{', '}', ', ', '"x"', "'y'", '|\n', '>\n', '---\n', '...\n', '? ', ': ', '$contains: ', '$ref: ', 'hello', '1', 'null', '~', '#c', '!!str ', '!!map ', '\0', '\uDC00', '$js: "1"', 'point_defs:\n');
const tokenSoup = fc.tuple(fc.array(token, { maxLength: 60 }), fc.constantFrom('f.yml', 'f.json')).map(([ts, file]) => ({ text: ts.join(''), file }));
const rawBytes = fc.tuple(fc.uint8Array({ maxLength: 300 }), fc.constantFrom('f.yml', 'f.json', 'models/f.json')).map(([bytes, file]) => ({ text: new TextDecoder().decode(bytes), file }));
const rawUnicode = fc.tuple(fc.string({ unit: 'binary', maxLength: 200 }), fc.constantFrom('f.yml', 'f.json')).map(([t, file]) => ({ text: t, file }));

// ── the properties ──────────────────────────────────────────────────────────────────────
const stats = new Map<string, { cases: number; accepted: number; rejected: number; problems: number; maxMs: number; ms: number }>();

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) strings(v, out.concat(k));
  return out;
}

function expectPositioned(problems: { line: number; col: number; message: string }[]) {
  expect(problems.length).toBeGreaterThan(0);
  for (const p of problems) {
    expect(Number.isInteger(p.line) && p.line >= 1, `line of ${JSON.stringify(p)}`).toBe(true);
    expect(Number.isInteger(p.col) && p.col >= 1, `col of ${JSON.stringify(p)}`).toBe(true);
    expect(p.message.length).toBeGreaterThan(0);
  }
}

function check(name: string, input: { text: string; file: string }) {
  const s = stats.get(name) ?? { cases: 0, accepted: 0, rejected: 0, problems: 0, maxMs: 0, ms: 0 };
  stats.set(name, s);
  const t0 = performance.now();
  let loaded: ParseResult | undefined;
  if (!input.file.startsWith('models/')) loaded = parseBlueprint(input.text, { file: input.file });
  const validated = validateFile({ path: input.file.startsWith('models/') ? input.file : `blueprints/${input.file}`, blobSha: 'sha', text: input.text });
  const ms = performance.now() - t0;
  s.cases++;
  s.ms += ms;
  s.maxMs = Math.max(s.maxMs, ms);
  if (validated.valid) s.accepted++;
  else {
    s.rejected++;
    s.problems += validated.errors.length;
    expectPositioned(validated.errors);
  }
  if (loaded) {
    expect(loaded.ok).toBe(validated.valid);
    if (!loaded.ok) expectPositioned(loaded.errors);
    else for (const str of strings(loaded.blueprint)) expect(unstorableOffset(str), `unstorable text accepted: ${JSON.stringify(str)}`).toBe(-1);
  }
}

describe(`fuzz: the loader and PR validation (${RUNS.toLocaleString('en-US')} cases per arbitrary, seed ${SEED})`, () => {
  afterAll(() => {
    const rows = [...stats].map(([name, s]) => `${name.padEnd(20)} ${String(s.cases).padStart(6)} cases  ${String(s.accepted).padStart(6)} accepted  ${String(s.rejected).padStart(6)} rejected (${s.problems} problems, all positioned)  0 crashes  ${(s.ms / 1000).toFixed(1)} s total, max ${s.maxMs.toFixed(1)} ms`);
    console.log(`fuzz figures:\n${rows.join('\n')}`);
  });

  it.each([
    ['mutated blueprints', mutatedBlueprint],
    ['YAML-token soup', tokenSoup],
    ['raw bytes', rawBytes],
    ['raw UTF-16', rawUnicode],
  ] as const)('%s: no crash, every rejection positioned', (name, arbitrary) => {
    fc.assert(
      fc.property(arbitrary, (input) => check(name, input)),
      { numRuns: RUNS, seed: SEED },
    );
  }, 600_000);
});
