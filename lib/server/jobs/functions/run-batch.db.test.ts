/**
 * Batch mode under Inngest (@inngest/test's engine, real steps, the fake's batch APIs, a real
 * database): run-start collects, sleeps with `step.sleep` and polls until the batches are
 * imported, leaves nothing to fan out, and the finish completes the run with the verdicts the
 * in-process live runner gives. A collect step run again (a retried step) submits nothing twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InngestTestEngine } from '@inngest/test';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { collectBatchRound } from '../../runs/batch-steps';
import type { RunDeps } from '../../runs/deps';
import { executeRun } from '../../runs/execute-run';
import { requestRun } from '../../runs/request-run';
import { loadRunContext } from '../../runs/run-context';
import { fakeDeps, noDispatch, storeBlueprint, TEST_DEFAULTS } from '../../runs/runs.testkit';
import { runFunctions } from './run-functions';

const BLUEPRINT = `title: Inngest batch test
models: [openai:gpt-4o-mini, anthropic:claude-3-5-haiku]
---
- id: capital
  prompt: What is the capital of France?
  should:
    - "Names Paris"
- id: colours
  prompt: Name the primary colours.
  should:
    - "Names red, blue and yellow"
    - $contains: Fake
`;
const JUDGES = ['openai:judge-a', 'anthropic:judge-b'];

let t: TestDatabase;
let fake: FakeLlm;
let deps: RunDeps;
let blueprintId: string;

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: [{ model: 'judge-a', judge: { labels: { D: 1 } } }, { model: 'judge-b', judge: { labels: { B: 0.5, E: 0.5 } } }] });
  deps = { ...(await fakeDeps(t.db, fake.url)), batchPollMs: 5 };
  ({ blueprintId } = await storeBlueprint(t.db, 'inngest-batch.yml', BLUEPRINT));
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

const sent = () => ['fan-out', 'nothing-to-do', 'budget-stop'].map((id) => ({ id, handler: () => ({ ids: [] }) }));
const functions = () => runFunctions(async () => deps, { providerConcurrency: 4 });

async function verdicts(runId: string): Promise<string[]> {
  const rows = await t.db.verdict.findMany({ where: { runId }, select: { pointIndex: true, score: true, status: true, reply: { select: { promptKey: true, modelId: true, attempt: true } } } });
  return rows.map((v) => `${v.reply.promptKey}|${v.reply.modelId}|${v.reply.attempt}|${v.pointIndex}|${v.status}|${v.score}`).sort();
}

describe(`batch mode under Inngest (${process.env.ASSAY_TEST_DB})`, () => {
  it('polls with step.sleep until imported, then finishes with the live verdicts', { timeout: 120_000 }, async () => {
    // Each batch ends by its first poll (every step replays the function: few steps keep the test short).
    fake.setBatch({ delayMs: 0 });
    const live = await requestRun(t.db, { blueprintId, trigger: 'manual', judges: JUDGES, bypassCache: true }, noDispatch, TEST_DEFAULTS);
    expect(await executeRun(deps, live.runId)).toBe('completed');
    const billedLive = fake.billing().liveUsd;

    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'manual', judges: JUDGES, mode: 'batch', bypassCache: true }, noDispatch, TEST_DEFAULTS);
    const [start, , , finish] = functions();
    // A sleep is Inngest's server waking the function: mocked by id, as the sends are (@inngest/test runs no timer).
    const waits = [0, 1, 2, 3, 4].flatMap((round) => [0, 1, 2, 3].map((n) => ({ id: `batch-wait:${runId}:${round}:${n}`, handler: () => null })));
    const started = await new InngestTestEngine({ function: start, steps: [...sent(), ...waits] }).execute({ events: [{ name: 'assay/run.requested', data: { runId } }] });
    expect(started.error).toBeUndefined();
    const step = started.ctx.step as unknown as { run: { mock: { calls: [string][] } }; sleep: { mock: { calls: [string, number][] } }; sendEvent: { mock: { calls: [string][] } } };
    const ran = step.run.mock.calls.map(([id]) => id);
    expect(ran).toContain(`batch-collect:${runId}:0`);
    expect(ran).toContain(`batch-poll:${runId}:0:0`);
    // the function slept before each poll (a worker holds nothing meanwhile): one per round
    // (generation; the judges; the Anthropic judge's samples, asked once its first answer had no log-probabilities)
    expect(step.sleep.mock.calls).toEqual([0, 1, 2].map((round) => [`batch-wait:${runId}:${round}:0`, 1000]));
    // nothing left for the live cells: the finish is asked for at once
    expect(step.sendEvent.mock.calls.map(([id]) => id)).toEqual(['nothing-to-do']);

    const finished = await new InngestTestEngine({ function: finish }).execute({ events: [{ name: 'assay/run.cells.finished', data: { runId } }] });
    expect(finished.result).toEqual({ runId, status: 'completed' });
    expect(await verdicts(runId)).toEqual(await verdicts(live.runId));
    expect(fake.billing().batchUsd).toBeCloseTo(billedLive / 2, 12);
    expect(fake.billing().liveUsd).toBeCloseTo(billedLive, 12);
  });

  it('a collect step run again while its batches are open submits nothing twice', async () => {
    fake.setBatch({ delayMs: 60_000 });
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'manual', judges: JUDGES, mode: 'batch', bypassCache: true }, noDispatch, TEST_DEFAULTS);
    const ctx = await loadRunContext(t.db, runId);
    const first = await collectBatchRound(deps, ctx);
    expect(first).toMatchObject({ submitted: 2, open: 2, budgetStop: null });
    const created = fake.batchStats().created;
    const again = await collectBatchRound(deps, ctx);
    expect(again).toMatchObject({ submitted: 0, open: 2 });
    expect(fake.batchStats().created).toEqual(created);
    expect(await t.db.providerBatch.count({ where: { runId } })).toBe(2);
    fake.setBatch(null);
  });
});
