/**
 * `assay run --models google:…` against the fake's Gemini dialect (generateContent), as a user
 * with ASSAY_LLM_BASE_URL set runs it: the Gemini models are called over HTTP through the
 * @google/genai SDK, a Gemini judge reads log-probabilities where its model gives them, and every
 * call is the fake's `gemini` dialect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { assay as runAssay } from '@/lib/cli/cli.testkit';
import { freshDatabase, type TestDatabase } from '@/lib/server/db/db.testkit';
import { StoredJudgesSchema } from '@/lib/core';

let dir: string;
let t: TestDatabase;
let fake: FakeLlm;

const BLUEPRINT = `title: Gemini run
---
- id: capital
  prompt: What is the capital of France?
  should:
    - $icontains: paris
    - Names Paris as the capital
`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'assay-gemini-'));
  await writeFile(join(dir, 'gemini.yml'), BLUEPRINT);
  t = await freshDatabase();
  fake = await startFakeLlm({
    rules: [
      { model: 'gemini-2.0-flash', system: /judge|grad|evaluat/i, judge: { labels: { E: 0.9, D: 0.1 } } },
      { model: /^gemini-(2\.5-pro|exp)/, system: /judge|grad|evaluat/i, judge: { labels: { E: 0.8, D: 0.2 } } },
      { model: 'gemini-2.5-flash', lastUser: 'capital of France', reply: 'Paris is the capital of France.' },
    ],
  });
});
afterAll(async () => {
  await fake?.close();
  await rm(dir, { recursive: true, force: true });
  await t?.close();
});

describe(`assay run with Gemini models against the fake (${process.env.ASSAY_TEST_DB})`, () => {
  it('generates with google:gemini-2.5-flash and judges with google:gemini-2.0-flash, every call in the gemini dialect', { timeout: 90_000 }, async () => {
    const out = join(dir, 'out.json');
    const r = await runAssay(['run', join(dir, 'gemini.yml'), '--models', 'google:gemini-2.5-flash', '--judges', 'google:gemini-2.0-flash', '--no-cache', '--json', out, '--quiet'], undefined, {
      DATABASE_URL: t.url,
      ASSAY_LLM_BASE_URL: fake.url,
      GOOGLE_API_KEY: '',
    });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(await readFile(out, 'utf8')) as { run: { status: string }; results: { model: string; reply: string; verdicts: { point: string; status: string; score: number }[] }[] };
    expect(doc.run.status).toBe('completed');
    expect(doc.results).toHaveLength(1);
    expect(doc.results[0]).toMatchObject({ model: 'google:gemini-2.5-flash', reply: 'Paris is the capital of France.' });
    expect(doc.results[0]!.verdicts.map((v) => v.status)).toEqual(['pass', 'pass']);
    const requests = fake.requests();
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(new Set(requests.map((q) => q.dialect))).toEqual(new Set(['gemini']));
    expect(requests.every((q) => q.status === 200)).toBe(true);
    const judged = requests.filter((q) => q.request.model === 'gemini-2.0-flash');
    expect(judged.length).toBeGreaterThan(0);
    expect(judged[0]!.request.topLogprobs).toBeGreaterThan(0);
  });

  // Gemini 2.5 and later refuse responseLogprobs (400 "Logprobs is not enabled for models/…"): a
  // listed family is sampled from its first call; an unlisted one (an experiment) learns it from
  // one refused request, then samples. Either way every judged point is scored, by sampling.
  for (const judge of ['gemini-2.5-pro', 'gemini-exp-1206']) {
    it(`judges with google:${judge}, which refuses log-probabilities: every judged point scored by sampling`, { timeout: 90_000 }, async () => {
      fake.reset();
      const r = await runAssay(['run', join(dir, 'gemini.yml'), '--models', 'google:gemini-2.5-flash', '--judges', `google:${judge}`, '--no-cache', '--concurrency', '1', '--quiet'], undefined, {
        DATABASE_URL: t.url,
        ASSAY_LLM_BASE_URL: fake.url,
        GOOGLE_API_KEY: '',
      });
      expect(r.code, r.stderr).toBe(0);
      const asked = fake.requests().filter((q) => q.request.model === judge);
      const refused = asked.filter((q) => q.status !== 200);
      expect(refused.map((q) => q.status)).toEqual(judge === 'gemini-2.5-pro' ? [] : [400]);
      expect(asked.filter((q) => q.status === 200).every((q) => q.request.topLogprobs === undefined)).toBe(true);
      const runId = /run (\S+) completed/.exec(r.stdout + r.stderr)?.[1] ?? (await t.db.run.findFirstOrThrow({ orderBy: { createdAt: 'desc' }, select: { id: true } })).id;
      const judged = await t.db.verdict.findMany({ where: { runId, kind: 'text' }, select: { status: true, judges: true } });
      expect(judged).toHaveLength(1);
      const [record] = StoredJudgesSchema.parse(judged[0]!.judges);
      expect(record).toMatchObject({ judge: `google:${judge}`, method: 'samples', n: 3, sampledBecause: 'logprobs-refused', error: null });
      expect(judged[0]!.status).toBe('pass');
    });
  }
});
