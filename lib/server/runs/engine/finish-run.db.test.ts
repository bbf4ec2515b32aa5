/**
 * How a run ends, through the real pipeline against the fake provider, under both schedulers:
 * a run whose replies all failed (the provider answers 401, or is not there at all) is
 * `failed` with the provider's message, a run whose judge never answers in the protocol
 * withholds the scores that would rest on the function points alone, and neither changes the
 * blueprint's leaderboard entries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { getLeaderboardRows } from '../../db/queries/leaderboard';
import { inngestRuns } from '../../jobs/functions/inngest-runs.testkit';
import type { RunDeps } from './deps';
import { executeRun } from './execute-run';
import { requestRun } from '../request-run';
import { fakeDeps, noDispatch, storeBlueprint, TEST_DEFAULTS } from '../runs.testkit';

let t: TestDatabase;
let fake: FakeLlm;
let deps: RunDeps;
let blueprintId: string;

const BLUEPRINT = `title: Honest finish
models: [openai:model-x, openai:model-y]
---
- id: capital
  prompt: What is the capital of France?
  should:
    - $icontains: paris
    - Names Paris as the capital
- id: kind
  prompt: Say something kind.
  should:
    - $word_count_between: [1, 50]
    - Is kind
`;
const GOOD = [
  { model: 'judge-a', judge: { labels: { E: 1 } } },
  { lastUser: 'capital of France', reply: 'Paris is the capital of France.' },
];

const board = async () => (await getLeaderboardRows(t.db)).filter((r) => r.blueprintId === blueprintId).sort((a, b) => a.modelId.localeCompare(b.modelId));
const fresh = (extra: Partial<Parameters<typeof requestRun>[1]> = {}) =>
  requestRun(t.db, { blueprintId, trigger: 'cli', judges: ['openai:judge-a'], bypassCache: true, ...extra }, noDispatch, TEST_DEFAULTS);

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: GOOD });
  deps = await fakeDeps(t.db, fake.url);
  ({ blueprintId } = await storeBlueprint(t.db, 'honest.yml', BLUEPRINT));
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

describe(`finishing a run (${process.env.ASSAY_TEST_DB})`, () => {
  let before: Awaited<ReturnType<typeof board>>;

  it('a run that scored becomes the leaderboard entry, with its coverage', async () => {
    const { runId } = await fresh();
    expect(await executeRun(deps, runId)).toBe('completed');
    before = await board();
    expect(before.map((r) => [r.modelId, r.runId])).toEqual([
      ['openai:model-x', runId],
      ['openai:model-y', runId],
    ]);
    expect(before[0]).toMatchObject({ judgedVerdicts: 2, judgedScored: 2, deterministicVerdicts: 2, deterministicScored: 2 });
    expect(before.every((r) => r.score !== null)).toBe(true);
  });

  it('in process: every model call answered 401 → failed with the provider’s message; the leaderboard is unchanged', async () => {
    fake.setRules([{ model: /model-/, error: { status: 401, message: 'Incorrect API key provided: set OPENAI_API_KEY' } }, ...GOOD]);
    const { runId } = await fresh();
    expect(await executeRun(deps, runId)).toBe('failed');
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/^every reply failed \(4\): 4 × .*Incorrect API key provided/);
    expect(await board()).toEqual(before);
    const summaries = await t.db.runModelSummary.findMany({ where: { runId } });
    expect(summaries.map((s) => [s.score, s.withheldReason])).toEqual([
      [null, 'every reply failed (2)'],
      [null, 'every reply failed (2)'],
    ]);
    expect(summaries[0]).toMatchObject({ judgedVerdicts: 2, judgedScored: 0, deterministicVerdicts: 2, deterministicScored: 0 });
  });

  it('in process: an unreachable provider → failed; the leaderboard is unchanged', async () => {
    const nowhere = await fakeDeps(t.db, 'http://127.0.0.1:9/v1', { timeoutMs: 2000 });
    const { runId } = await fresh();
    expect(await executeRun(nowhere, runId)).toBe('failed');
    expect((await t.db.run.findUniqueOrThrow({ where: { id: runId } })).error).toMatch(/^every reply failed \(4\): 4 × /);
    expect(await board()).toEqual(before);
  });

  it('a judge that never answers in the protocol: the run completes, but no score rests on the function points alone', async () => {
    fake.setRules([{ model: 'judge-a', reply: 'I would rather not say.' }, ...GOOD.slice(1)]);
    const { runId } = await fresh();
    expect(await executeRun(deps, runId)).toBe('completed');
    const summaries = await t.db.runModelSummary.findMany({ where: { runId }, orderBy: { modelId: 'asc' } });
    expect(summaries.map((s) => [s.score, s.withheldReason, s.judgedScored, s.deterministicScored])).toEqual([
      [null, 'only 0 of 2 judged verdicts got a result (under half)', 0, 2],
      [null, 'only 0 of 2 judged verdicts got a result (under half)', 0, 2],
    ]);
    expect(await board()).toEqual(before);
  });

  it('under Inngest: the same decision — failed, leaderboard unchanged', async () => {
    fake.setRules([{ model: /model-/, error: { status: 401, message: 'Incorrect API key provided: set OPENAI_API_KEY' } }, ...GOOD]);
    const { runId } = await fresh();
    // the Inngest functions under the strict harness (testing/inngest/harness.ts)
    expect(await inngestRuns({ deps: async () => deps, seed: 1 }).run(runId)).toBe('failed');
    expect((await t.db.run.findUniqueOrThrow({ where: { id: runId } })).error).toMatch(/every reply failed \(4\)/);
    expect(await board()).toEqual(before);
  });
});
