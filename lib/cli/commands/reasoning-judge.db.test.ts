/**
 * Reasoning models as judges, through the real `assay run` (a child process, a real database)
 * against the fake, whose profiles refuse what OpenAI's reasoning models refuse
 * (testing/fakes/llm-server-capabilities.ts): log-probabilities, any temperature but 1, and
 * `max_tokens`.
 *  - `openai:o4-mini`, a family the published table knows (providers/capabilities.ts): never sent
 *    a parameter it refuses; every judged point is scored from `judgeSamples` independent draws,
 *    and the verdict and the run page say so.
 *  - `openai:gpt-5.2`, a model the table does not know, beside a judge with log-probabilities:
 *    its first refusals are learned (one per parameter, none billed) and no later request
 *    carries them; the mixed panel says so on the verdict and the run page.
 *  - the same o4-mini judge under batched judging and in batch mode: sampled the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoredJudgesSchema } from '@/lib/core';
import { startFakeLlm, type FakeLlm, type RecordedRequest } from '@/testing/fakes/llm-server';
import { assay as runAssay } from '@/lib/cli/cli.testkit';
import { freshDatabase, type TestDatabase } from '@/lib/server/db/db.testkit';
import { getRunHeader } from '@/lib/server/db/queries/run-header';
import { runHeaderView } from '@/lib/views/run-view';
import { judgeViews } from '@/lib/views/verdict-view';
import { mixedMethodsNote } from '@/lib/views/judge-method-view';

/** The CLI's default (lib/server/compose/run-deps.ts). */
const JUDGE_SAMPLES = 3;

const BLUEPRINT = `title: Reasoning judges
---
- id: pasta
  prompt: Recommend a pasta recipe.
  should:
    - "Names a specific recipe"
    - "Lists the ingredients"
    - $contains: Fake
- id: carbonara
  prompt: How do I make carbonara vegan?
  should:
    - "Replaces the egg yolk sauce"
`;
const JUDGED_POINTS = 3;

let dir: string;
let t: TestDatabase;
let fake: FakeLlm;

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({
    keepRequests: 10_000,
    rules: [
      { name: 'reasoning judge', model: /^(o4-mini|gpt-5\.2)$/, judge: { labels: { C: 0.2, D: 0.5, E: 0.3 } } },
      { name: 'logprobs judge', model: 'judge-lp', judge: { labels: { D: 0.7, E: 0.3 } } },
    ],
  });
  dir = await mkdtemp(join(tmpdir(), 'assay-reasoning-'));
  await writeFile(join(dir, 'reasoning.yml'), BLUEPRINT);
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

async function run(judges: string, extra: string[] = []): Promise<{ runId: string; stdout: string }> {
  const r = await runAssay(['run', join(dir, 'reasoning.yml'), '--models', 'openai:model-a', '--judges', judges, '--concurrency', '1', ...extra], undefined, {
    DATABASE_URL: t.url,
    ASSAY_LLM_BASE_URL: fake.url,
    ASSAY_DATA_DIR: 'memory://',
    // batch mode polls the fake's batches (answered at once) without the production minute between polls
    ASSAY_BATCH_POLL_SECONDS: '0.05',
  });
  expect(r.stderr + r.stdout).toMatch(/run \S+ completed/);
  expect(r.code).toBe(0);
  return { runId: /run (\S+) completed/.exec(r.stdout + r.stderr)![1]!, stdout: r.stdout + r.stderr };
}

const judgeRecords = async (runId: string) =>
  (await t.db.verdict.findMany({ where: { runId, kind: 'text' }, select: { status: true, judges: true } })).map((v) => ({ status: v.status, judges: StoredJudgesSchema.parse(v.judges) }));

const ofModel = (model: string): RecordedRequest[] => fake.requests().filter((r) => r.request.model === model);

describe(`reasoning-model judges (${process.env.ASSAY_TEST_DB})`, () => {
  it('a judge the table knows (o4-mini) is sampled from the start: nothing refused is sent, every point scored from judgeSamples draws', { timeout: 180_000 }, async () => {
    fake.reset();
    const { runId, stdout } = await run('openai:o4-mini');

    const sent = ofModel('o4-mini');
    expect(sent.length).toBe(JUDGED_POINTS * JUDGE_SAMPLES);
    // no log-probabilities, only the temperature it accepts, no max_tokens: not one refusal
    expect(sent.filter((r) => r.refused !== undefined || r.status !== 200)).toEqual([]);
    expect(sent.every((r) => r.request.topLogprobs === undefined && r.request.temperature === 1 && r.request.maxTokens === undefined)).toBe(true);
    // independent draws: one attempt each, no completed call made twice
    for (let p = 0; p < JUDGED_POINTS; p++) expect(new Set(sent.slice(p * JUDGE_SAMPLES, (p + 1) * JUDGE_SAMPLES).map((r) => r.request.attempt)).size).toBe(JUDGE_SAMPLES);
    expect(fake.duplicateCompletedCalls()).toBe(0);

    const verdicts = await judgeRecords(runId);
    expect(verdicts).toHaveLength(JUDGED_POINTS);
    for (const v of verdicts) {
      expect(v.status).not.toBe('error');
      expect(v.judges).toHaveLength(1);
      expect(v.judges[0]).toMatchObject({ judge: 'openai:o4-mini', method: 'samples', n: JUDGE_SAMPLES, sampledBecause: 'logprobs-refused', error: null });
      expect(judgeViews(v.judges, null)[0]).toMatchObject({ methodLabel: '3 samples', sampledBecause: 'the model refuses log-probabilities' });
    }
    const header = runHeaderView((await getRunHeader(t.db, runId))!, 'prompts');
    expect(header.judges).toEqual([{ label: 'openai:o4-mini (standard)', alsoGraded: false, method: '3 samples each (the model refuses log-probabilities)' }]);
    expect(header.judgeMethodsNote).toBeNull();
    // the CLI's report says it too
    expect(stdout).toContain('  openai:o4-mini (standard): 3 samples each (the model refuses log-probabilities)');
  });

  it('a judge the table does not know (gpt-5.2) is learned from its refusals once, and a mixed panel says so', { timeout: 180_000 }, async () => {
    fake.reset();
    const { runId, stdout } = await run('openai:gpt-5.2,openai:judge-lp');

    const sent = ofModel('gpt-5.2');
    const refused = sent.filter((r) => r.refused !== undefined);
    // one refusal per parameter, in the order the fake checks them (the first request refused
    // for its log-probabilities, its retry without them for its temperature)
    expect(refused.map((r) => [r.status, r.refused])).toEqual([
      [400, 'logprobs'],
      [400, 'temperature'],
    ]);
    expect(sent[0]!.refused).toBe('logprobs');
    // every other request is answered, as sampled: another point's draws may be on the wire before
    // the temperature refusal comes back (points are judged concurrently), none after it is refused
    const answered = sent.filter((r) => r.refused === undefined);
    expect(answered.every((r) => r.status === 200 && r.request.topLogprobs === undefined && r.request.temperature === 1)).toBe(true);
    expect(answered).toHaveLength(JUDGED_POINTS * JUDGE_SAMPLES);
    // the log-probability judge beside it is still asked for them
    expect(ofModel('judge-lp').every((r) => r.request.topLogprobs !== undefined && r.request.temperature === 0)).toBe(true);

    const verdicts = await judgeRecords(runId);
    expect(verdicts).toHaveLength(JUDGED_POINTS);
    for (const v of verdicts) {
      expect(v.status).not.toBe('error');
      const [reasoning, lp] = v.judges;
      expect(reasoning).toMatchObject({ judge: 'openai:gpt-5.2', method: 'samples', n: JUDGE_SAMPLES, sampledBecause: 'logprobs-refused' });
      expect(lp).toMatchObject({ judge: 'openai:judge-lp', method: 'logprobs' });
      expect(mixedMethodsNote(v.judges)).toBe('Judges used different methods: openai:gpt-5.2 3 samples, openai:judge-lp log-probabilities.');
    }
    const header = runHeaderView((await getRunHeader(t.db, runId))!, 'prompts');
    expect(header.judges.map((j) => j.method)).toEqual(['3 samples each (the model refuses log-probabilities)', 'log-probabilities']);
    expect(header.judgeMethodsNote).toMatch(/different methods/);
    expect(stdout).toMatch(/note: The judges’ answers were read by different methods/);
  });

  for (const [mode, extra] of [
    ['batched judging (all points of a reply in one call)', ['--judge-mode', 'batched']],
    // --no-cache: the per-point judge calls of this blueprint are already cached by the first run
    ['batch mode (the provider’s batch API)', ['--batch', '--no-cache']],
  ] as const) {
    it(`${mode}: the reasoning judge is sampled the same way, and nothing it refuses is sent`, { timeout: 180_000 }, async () => {
      fake.reset();
      const { runId } = await run('openai:o4-mini', [...extra]);
      const sent = ofModel('o4-mini');
      expect(sent.length).toBeGreaterThan(0);
      expect(sent.filter((r) => r.refused !== undefined || r.status !== 200)).toEqual([]);
      expect(sent.every((r) => r.request.topLogprobs === undefined && r.request.temperature === 1)).toBe(true);
      const verdicts = await judgeRecords(runId);
      expect(verdicts).toHaveLength(JUDGED_POINTS);
      for (const v of verdicts) expect(v.judges[0]).toMatchObject({ method: 'samples', n: JUDGE_SAMPLES, sampledBecause: 'logprobs-refused', error: null });
    });
  }
});
