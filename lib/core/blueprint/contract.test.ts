/**
 * checkBlueprint (contract.ts) must be BlueprintSchema.safeParse, only faster: the same verdict
 * and the same data, key order included, on every blueprint the loader builds from the corpus
 * and the examples, and on broken ones (a parser bug is what the check exists to catch).
 */
import { describe, expect, it } from 'vitest';
import { corpusBlueprints, needsCorpus, WEVAL_CORPUS } from '@/testing/outside-data';
import { checkBlueprint } from './contract';
import { parseBlueprint } from './parse';
import { BlueprintSchema, type Blueprint } from './schema';

// The Weval corpus is outside the repository ({} without it); the examples are in it.
const CORPUS = corpusBlueprints();
const EXAMPLES = import.meta.glob<string>('../../../blueprints/**/*.{yml,yaml,json}', { query: '?raw', import: 'default', eager: true });

function loaded(texts: Record<string, string>): Blueprint[] {
  return Object.entries(texts).flatMap(([file, text]) => {
    const r = parseBlueprint(text, { file });
    return r.ok ? [r.blueprint] : [];
  });
}

function expectSameAsSchema(value: unknown): void {
  const mine = checkBlueprint(structuredClone(value));
  const schema = BlueprintSchema.safeParse(structuredClone(value));
  expect(mine.success).toBe(schema.success);
  if (mine.success && schema.success) expect(JSON.stringify(mine.data)).toBe(JSON.stringify(schema.data));
  if (!mine.success && !schema.success) expect(mine.path).toBe(schema.error.issues[0]!.path.join('.'));
}

describe('checkBlueprint', () => {
  const corpus = loaded(CORPUS);
  const examples = loaded(EXAMPLES);
  const blueprints = [...corpus, ...examples];

  it.skipIf(!WEVAL_CORPUS)(needsCorpus('gives BlueprintSchema.safeParse\'s data on every loaded corpus blueprint'), () => {
    expect(corpus.length).toBeGreaterThan(190);
    for (const b of corpus) expectSameAsSchema(b);
  });

  it('gives BlueprintSchema.safeParse\'s data on every loaded example blueprint', () => {
    expect(examples.length).toBeGreaterThan(0);
    for (const b of examples) expectSameAsSchema(b);
  });

  it('checks a correct: tree with CorrectNodeSchema', () => {
    // the example blueprints with a `correct:` block (weather-tool-call.yml…)
    const withCorrect = blueprints.filter((b) => b.prompts.some((p) => p.points.some((q) => q.kind === 'correct')));
    expect(withCorrect.length).toBeGreaterThan(0);
    for (const b of withCorrect) expectSameAsSchema(b);
    const broken = structuredClone(withCorrect[0]!);
    const p = broken.prompts.findIndex((q) => q.points.some((point) => point.kind === 'correct'));
    const i = broken.prompts[p]!.points.findIndex((point) => point.kind === 'correct');
    (broken.prompts[p]!.points[i] as { check: unknown }).check = { any: [] }; // min(1)
    expect(checkBlueprint(broken)).toMatchObject({ success: false });
    expect((checkBlueprint(broken) as { path: string }).path.startsWith(`prompts.${p}.points.${i}.check`)).toBe(true);
    expect(BlueprintSchema.safeParse(broken).success).toBe(false);
  });

  it('rejects what the schema rejects, at the same path', () => {
    const base = blueprints.find((b) => b.prompts.length > 1 && b.prompts[1]!.points.length > 0)!;
    const cases: ((b: Blueprint) => void)[] = [
      (b) => void (b.prompts[1]!.points[0]!.weight = -1),
      (b) => void (b.prompts[1]!.repeats = 1.5),
      (b) => void (b.prompts[0]!.messages = []),
      (b) => void ((b as { title: unknown }).title = 3),
      (b) => void ((b.prompts[1]!.points[0] as { kind: string }).kind = 'nonsense'),
      (b) => void (b.pass_threshold = 2),
    ];
    for (const change of cases) {
      const broken = structuredClone(base);
      change(broken);
      expect(checkBlueprint(broken).success).toBe(false);
      expectSameAsSchema(broken);
    }
  });
});
