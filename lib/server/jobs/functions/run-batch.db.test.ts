/**
 * Batch mode's rounds under the strict Inngest harness (testing/inngest/harness.ts: 1,000 steps
 * per function run, 4 MiB per step output, event ids deduplicated), with the fake's batch APIs
 * and a real database. A day of polling (the fake's batch clock moved by every `step.sleep`)
 * with 40 imports spans many function runs, none near the step limit; the rounds never call a
 * provider live (the calls no batch answers are left for the live fan-out). A whole batch-mode
 * run under the run functions (planner → rounds → live units → finish) grades as the live run
 * does, and pays each batched answer once. A collect step run again submits nothing twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InngestHarness, INNGEST_LIMITS } from '@/testing/inngest/harness';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { collectBatchRound } from '../../runs/chat/batch-steps';
import type { RunDeps } from '../../runs/engine/deps';
import { executeRun } from '../../runs/engine/execute-run';
import { requestRun } from '../../runs/request-run';
import { loadRunContext } from '../../runs/engine/run-context';
import { fakeDeps, noDispatch, storeBlueprint, TEST_DEFAULTS } from '../../runs/runs.testkit';
import { inngest } from '../client';
import { batchFunctions, batchRound, batchRoundsEvent, MAX_STEPS_PER_ROUND, type BatchRoundOutcome, type BatchStepTools } from './run-batch';
import { inngestRuns } from './inngest-runs.testkit';
import { quietRuns } from './sweep-runs';

const TURNS = 40;
const HOUR = 3600_000;
/** A 40-turn conversation: each generated turn is asked in the round after the previous one's import. */
const LONG = `title: A day of batches
models: [openai:gpt-4o-mini, openrouter:some-model]
---
- id: long-talk
  messages:
${Array.from({ length: TURNS }, (_, i) => `    - user: "Turn ${i + 1}: go on."\n    - assistant: null`).join('\n')}
    - user: "Done?"
  should:
    - $contains: Fake
`;

let t: TestDatabase;
let fake: FakeLlm;
let deps: RunDeps;
/** The fake's batch clock: moved forward by the rounds' sleeps as Inngest's server would let them pass. */
let clock = Date.now();
/** At each sleep of the rounds: whether the sweeper would have taken the run for abandoned. */
const sweepable: boolean[] = [];

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({ batchClock: () => clock });
  deps = { ...(await fakeDeps(t.db, fake.url)), batchPollMs: 60_000 };
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

/**
 * The deployed round function with its sleeps moving the fake's clock: the same options (id,
 * trigger, concurrency, retries) and the same round, its `step.sleep` a memoised step that moves
 * the clock once (the harness's sleep returns at once and says not for how long).
 */
function clockedFunctions() {
  const [real] = batchFunctions(async () => deps);
  return [
    inngest.createFunction(real.opts as never, async ({ event, step }: { event: { data: never }; step: BatchStepTools }) =>
      batchRound(
        {
          run: (id, fn) => step.run(id, fn),
          sendEvent: (id, payload) => step.sendEvent(id, payload),
          sleep: (id, ms) =>
            step.run(id, async () => {
              clock += ms;
              // what the sweeper would resume now, while the run only waits for its batches
              sweepable.push((await quietRuns(t.db, 0)).some((r) => r.runId === (event.data as { runId: string }).runId));
              return null;
            }),
        },
        async () => deps,
        event.data,
      ),
    ),
  ];
}

describe(`batch rounds under the strict Inngest harness (${process.env.ASSAY_TEST_DB})`, () => {
  // On PostgreSQL only: what it shows is Inngest's step limits over a day of polling (~3,000
  // steps, each a replay of its function run), not SQL: the rounds' statements run on PGlite in
  // the other cases here and in runs/chat/batch-mode.db.test.ts.
  it.skipIf(process.env.ASSAY_TEST_DB === 'pglite')('polls a day of batches with 40 imports in function runs far under the step limit, calling nothing live', { timeout: 600_000 }, async () => {
    const { blueprintId } = await storeBlueprint(t.db, 'a-day-of-batches.yml', LONG);
    // every batch takes 36 minutes: 40 of them one after the other make a day
    fake.setBatch({ delayMs: 36 * 60_000 });
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'manual', judges: ['openai:judge-a'], mode: 'batch', bypassCache: true }, noDispatch, TEST_DEFAULTS);
    const started = clock;

    const h = new InngestHarness({ functions: clockedFunctions, seed: 3 });
    h.send(batchRoundsEvent(runId, 'e1'));
    // a repeated hand-over (the same event id) starts no second chain of rounds
    h.send(batchRoundsEvent(runId, 'e1'));
    const { runs } = await h.settle();

    expect(runs.every((r) => r.status === 'completed')).toBe(true);
    const outputs = runs.map((r) => r.output as BatchRoundOutcome);
    expect(outputs.map((o) => o.round)).toEqual(outputs.map((_, i) => i));
    expect(outputs.at(-1)).toMatchObject({ next: 'finished' });
    expect(outputs.filter((o) => o.next === 'finished')).toHaveLength(1);
    expect(await t.db.providerBatch.count({ where: { runId, state: 'imported' } })).toBeGreaterThanOrEqual(TURNS);
    expect(clock - started).toBeGreaterThanOrEqual(24 * HOUR);
    // the rounds' steps together are far past what one function run may take …
    const total = runs.reduce((n, r) => n + r.steps, 0);
    expect(total).toBeGreaterThan(INNGEST_LIMITS.stepsPerRun);
    // … and each function run is bounded, whatever the batches' duration
    expect(Math.max(...runs.map((r) => r.steps))).toBeLessThanOrEqual(MAX_STEPS_PER_ROUND);
    console.log(`batch rounds: ${runs.length} function runs, ${total} steps in all, at most ${Math.max(...runs.map((r) => r.steps))} in one, ${((clock - started) / HOUR).toFixed(1)} h simulated`);

    // the rounds held the run through every wait (the sweeper left it alone), and gave it back at the end
    expect(sweepable.length).toBeGreaterThan(TURNS);
    expect(sweepable.filter(Boolean)).toEqual([]);
    expect(await t.db.run.findUniqueOrThrow({ where: { id: runId }, select: { leaseHolder: true } })).toEqual({ leaseHolder: null });
    // nothing was called live by the rounds: the OpenRouter model (no batch API) waits for the live calls
    expect(fake.billing().liveUsd).toBe(0);
    expect(await t.db.reply.count({ where: { runId, modelId: 'openrouter:some-model' } })).toBe(0);
    // what the rounds left goes on live (here the in-process runner's tail) and the run completes
    expect(await executeRun(deps, runId)).toBe('completed');
    expect(await t.db.reply.count({ where: { runId, modelId: 'openrouter:some-model' } })).toBe(1);
    fake.setBatch(null);
  });

  it('a batch-mode run under the run functions grades as the live run, each batched answer paid once', { timeout: 600_000 }, async () => {
    const { blueprintId } = await storeBlueprint(
      t.db,
      'batch-and-live.yml',
      `title: Batch and live\nmodels: [openai:gpt-4o-mini, openrouter:some-model]\n---\n- id: capital\n  prompt: What is the capital of France?\n  should:\n    - "Names Paris"\n    - $contains: Fake\n`,
    );
    // a judge with a batch API and one without: each reply's grading needs both
    const judges = ['openai:judge-a', 'openrouter:judge-o'];
    fake.reset();
    fake.setBatch({ delayMs: 0 });
    const live = await requestRun(t.db, { blueprintId, trigger: 'manual', judges, bypassCache: true }, noDispatch, TEST_DEFAULTS);
    expect(await executeRun(deps, live.runId)).toBe('completed');
    const chatModels = (from: number) => fake.requests().slice(from).filter((r) => r.path.endsWith('/chat/completions')).map((r) => r.request.model);
    const liveRun = chatModels(0);

    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'manual', judges, mode: 'batch', bypassCache: true }, noDispatch, TEST_DEFAULTS);
    const before = fake.requests().length;
    expect(await inngestRuns({ deps: async () => deps, seed: 5 }).run(runId)).toBe('completed');
    const rows = (id: string) => t.db.verdict.findMany({ where: { runId: id }, select: { pointIndex: true, score: true, status: true, detail: true, reply: { select: { promptKey: true, modelId: true, attempt: true, error: true } } } });
    const verdicts = async (id: string) => (await rows(id)).map((v) => `${v.reply.promptKey}|${v.reply.modelId}|${v.reply.attempt}|${v.pointIndex}|${v.status}|${v.score}`).sort();
    // where they differ, the error verdicts' own words say why
    const why = async (id: string) => (await rows(id)).filter((v) => v.status === 'error').map((v) => `${v.reply.modelId}#${v.pointIndex}: ${v.detail} (reply error: ${v.reply.error})`);
    expect(await verdicts(runId), JSON.stringify({ batch: await why(runId), live: await why(live.runId) }, null, 1)).toEqual(await verdicts(live.runId));
    // every call made once, by batch or live: the OpenAI model's and judge-a's calls add up to the
    // live run's (a batched answer called again live would add one), OpenRouter's are all live
    const batchRun = chatModels(before);
    const lines = (await t.db.providerBatch.findMany({ where: { runId }, select: { lines: true } })).flatMap((b) => Object.values(b.lines as Record<string, { modelId: string }>).map((l) => l.modelId));
    const count = (list: string[], m: string) => list.filter((x) => x === m).length;
    expect(count(lines, 'openai:gpt-4o-mini')).toBe(count(liveRun, 'gpt-4o-mini'));
    expect(count(batchRun, 'gpt-4o-mini')).toBe(0);
    expect(count(lines, 'openai:judge-a') + count(batchRun, 'judge-a')).toBe(count(liveRun, 'judge-a'));
    expect(count(lines, 'openai:judge-a')).toBeGreaterThan(0);
    expect(count(batchRun, 'some-model') + count(batchRun, 'judge-o')).toBe(count(liveRun, 'some-model') + count(liveRun, 'judge-o'));
    fake.setBatch(null);
  });

  it('a collect step run again while its batches are open submits nothing twice', async () => {
    const { blueprintId } = await storeBlueprint(t.db, 'two-models.yml', `title: Two models\nmodels: [openai:gpt-4o-mini, anthropic:claude-3-5-haiku]\n---\n- id: capital\n  prompt: What is the capital of France?\n  should:\n    - $contains: Fake\n`);
    fake.setBatch({ delayMs: 60 * 60_000 });
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'manual', judges: ['openai:judge-a'], mode: 'batch', bypassCache: true }, noDispatch, TEST_DEFAULTS);
    const ctx = await loadRunContext(t.db, runId);
    const first = await collectBatchRound(deps, ctx, {}, { leaveLive: true });
    expect(first).toMatchObject({ submitted: 2, open: 2, budgetStop: null });
    const created = fake.batchStats().created;
    const again = await collectBatchRound(deps, ctx, {}, { leaveLive: true });
    expect(again).toMatchObject({ submitted: 0, open: 2 });
    expect(fake.batchStats().created).toEqual(created);
    expect(await t.db.providerBatch.count({ where: { runId } })).toBe(2);
    fake.setBatch(null);
  });
});
