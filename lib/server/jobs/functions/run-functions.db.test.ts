/**
 * The run functions under what Inngest really does, each case under the strict harness
 * (testing/inngest/harness.ts: concurrent, out-of-order delivery, Inngest's published limits,
 * a deploy before every step) against the fake LLM server and a real database. What every
 * scheduler must do (resume, budget, rescore, failures) is the shared suite's
 * (runs/scheduler.inngest.db.test.ts); here is what is particular to Inngest: a fan-out past
 * 5,000 events, a step executed twice at once, a unit that fails after its retries, the
 * database lost for a while, the deadline and a cancel.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import type { RunDeps } from '../../runs/engine/deps';
import { requestRun } from '../../runs/request-run';
import { fakeDeps, noDispatch, storeBlueprint, TEST_DEFAULTS } from '../../runs/runs.testkit';
import { runCancelled } from '../run-unit-events';
import { inngestRuns } from './inngest-runs.testkit';
import { runExecutionEvent } from './run-functions';
import { wideBlueprint, WIDE_GROUPS } from './wide-run.testkit';

let t: TestDatabase;
let fake: FakeLlm;
let deps: RunDeps;
const finished: string[] = [];

const SMALL = `title: Inngest specifics
models: [openrouter:model-x, openrouter:model-y, anthropic:model-z]
---
- id: capital
  prompt: What is the capital of France?
  should:
    - $icontains: fake reply
    - Names Paris as the capital
- id: kind
  prompt: Say something kind.
  should:
    - $word_count_between: [1, 50]
    - Is kind
- id: colour
  prompt: Name a colour.
  should:
    - $icontains: colour
    - Names a colour
`;
const CELLS = 9;

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: [{ model: 'judge-a', judge: { labels: { E: 1 } } }], keepRequests: 20_000 });
  deps = { ...(await fakeDeps(t.db, fake.url, { concurrency: 16 })), onFinished: async (runId) => void finished.push(runId) };
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});
beforeEach(() => fake.reset());

const newRun = async (blueprint: string, name: string, extra: Partial<Parameters<typeof requestRun>[1]> = {}) => {
  const { blueprintId } = await storeBlueprint(t.db, name, blueprint);
  return (await requestRun(t.db, { blueprintId, trigger: 'cli', judges: ['openai:judge-a'], bypassCache: true, ...extra }, noDispatch, TEST_DEFAULTS)).runId;
};
const run = (runId: string) => t.db.run.findUniqueOrThrow({ where: { id: runId } });
const modelCalls = () => fake.requests().filter((r) => r.request.model.startsWith('model-')).length;

describe(`run functions under Inngest's limits (${process.env.ASSAY_TEST_DB})`, () => {
  // The fan-out, up to the moment every group's unit is handed to Inngest; the wide run taken to
  // its finish (12,000 units) is a bench (bench/inngest-fan-out.bench.ts), since its minutes
  // show scale, not a rule the small runs here leave unchecked. On PostgreSQL only: what it shows
  // is Inngest's limits, not SQL (the same statements run on PGlite in every other case here).
  it.skipIf(process.env.ASSAY_TEST_DB === 'pglite')('a run of 6,000 prompt × model groups fans out past 5,000 events: each group sent once, every send within the limits', { timeout: 300_000 }, async () => {
    const runId = await newRun(wideBlueprint(), 'wide.yml');
    try {
      const inngest = inngestRuns({ deps: async () => deps, providerConcurrency: 32, parallel: 32, seed: 5 });
      const h = inngest.harness;
      // the queue is dropped once the plan has handed out every unit (a send over Inngest's
      // limits would have rejected the settle with the limit it broke)
      const planned = () => h.runs.some((r) => r.fnId === 'run-plan' && r.status !== 'queued' && r.status !== 'running');
      await inngest.runAndKill(runId, planned);
      const plans = h.runs.filter((r) => r.fnId === 'run-plan');
      expect(plans.map((r) => [r.status, (r.output as { done: boolean }).done])).toEqual([['completed', true]]);
      // every open unit it read, at least the 6,000 generations (a grading unit opened meanwhile
      // by a finished generation is read too; its event id makes the unit's own hand-over a no-op)
      expect((plans[0]!.output as { sent: number }).sent).toBeGreaterThanOrEqual(WIDE_GROUPS);
      // the plan's state stayed small: a few kB per chunk, far under Inngest's 32 MiB
      expect(plans[0]!.stateBytes).toBeLessThan(4 * 1024 * 1024);
      // each generation unit of the plan was started once (event ids deduplicate a repeat)
      const generate = await t.db.runUnit.findMany({ where: { runId, step: 'generate' }, select: { id: true } });
      expect(generate).toHaveLength(WIDE_GROUPS);
      const started = h.runs.filter((r) => r.fnId === 'run-unit').map((r) => (r.event.data as { unitId: string }).unitId);
      const wanted = new Set(generate.map((u) => u.id));
      expect(started.filter((id) => wanted.has(id)).sort()).toEqual([...wanted].sort());
    } finally {
      // the run left half-done goes, so that no later case's sweeper resumes its 6,000 groups
      await t.db.run.delete({ where: { id: runId } });
    }
  });

  it('a step executed again while its first invocation still runs makes no second provider call', async () => {
    const runId = await newRun(SMALL, 'overlap.yml');
    fake.setLatency(30); // the first invocation is inside its calls when the second starts
    const inngest = inngestRuns({ deps: async () => deps, seed: 9, overlap: ({ fnId, step }) => fnId === 'run-unit' && step === 0 });
    expect(await inngest.run(runId)).toBe('completed');
    fake.setLatency(0);
    const overlapped = inngest.harness.runs.filter((r) => r.fnId === 'run-unit' && r.overlaps > 0);
    expect(overlapped.length).toBe(2 * CELLS); // every generation and every grading slice ran twice at once
    expect(modelCalls()).toBe(CELLS);
    expect(fake.requests().filter((r) => r.request.model === 'judge-a')).toHaveLength(CELLS); // one judged point per cell
    expect(fake.duplicateCompletedCalls()).toBe(0);
    expect(await run(runId)).toMatchObject({ status: 'completed', doneCalls: CELLS, reservedCalls: 0 });
  });

  it('a unit that fails after its retries: the run finishes once, after every sibling settled', async () => {
    const runId = await newRun(SMALL, 'failing-unit.yml');
    // a stored reply whose turns break the stored schema: grading it is a defect, on every retry
    await t.db.reply.create({ data: { runId, promptKey: 'kind', modelId: 'openrouter:model-y', systemIndex: 0, temperatureIndex: 0, attempt: 0, temperature: null, turns: 42, content: 'hello' } });
    await t.db.run.update({ where: { id: runId }, data: { doneCalls: 1 } });
    const before = finished.length;
    const inngest = inngestRuns({ deps: async () => deps, seed: 21 });
    expect(await inngest.run(runId)).toBe('failed');
    const runs = inngest.harness.runs;
    const failedUnits = runs.filter((r) => r.fnId === 'run-unit' && r.status === 'failed');
    expect(failedUnits).toHaveLength(1);
    expect(runs.filter((r) => r.fnId === 'run-unit-failure' && r.status === 'completed')).toHaveLength(1);
    expect(runs.filter((r) => r.fnId === 'run-finish' && (r.output as { status: string | null }).status !== null)).toHaveLength(1);
    expect(finished.length - before).toBe(1); // the finished hook (a PR comment) once
    const r = await run(runId);
    expect(r.error).toMatch(/replies\.turns/);
    // every sibling settled before the finish: all graded but the broken one, none left open
    const units = await t.db.runUnit.findMany({ where: { runId }, select: { state: true, updatedAt: true } });
    expect(units.filter((u) => u.state === 'failed')).toHaveLength(1);
    expect(units.filter((u) => u.state !== 'done' && u.state !== 'failed')).toHaveLength(0);
    expect(Math.max(...units.map((u) => u.updatedAt.getTime()))).toBeLessThanOrEqual(r.finishedAt!.getTime());
    expect(await t.db.attemptScore.count({ where: { runId } })).toBe(CELLS - 1);
  });

  it('the database lost past every retry leaves the run running; the sweeper resumes it to completion', async () => {
    const runId = await newRun(SMALL, 'outage.yml');
    let down = false;
    // the functions' dependencies as a worker gets them: while the database is unreachable, every step fails to connect
    const flaky = async () => {
      if (down) throw new Error("Can't reach database server at 127.0.0.1:5432");
      return deps;
    };
    fake.setLatency(20);
    // quiet for a second: a sweep while the resumed execution works leaves it alone
    const inngest = inngestRuns({ deps: flaky, seed: 4, sweepQuietMs: 1000 });
    const watcher = setInterval(() => {
      if (fake.stats().completed >= 4) down = true;
    }, 1);
    const runs = await inngest.send(runExecutionEvent(runId, 'before-the-outage') as never);
    clearInterval(watcher);
    expect(runs.some((r) => r.fnId === 'run-finish')).toBe(false);
    fake.setLatency(0);
    expect(runs.some((r) => r.fnId === 'run-unit' && r.status === 'failed')).toBe(true);
    const stuck = await run(runId);
    expect(stuck.status).toBe('running');
    expect(stuck.doneCalls).toBeLessThan(CELLS);

    down = false;
    await new Promise((r) => setTimeout(r, 1200)); // the run goes quiet
    inngest.harness.cron('sweep-runs'); // two ticks at once: one resume
    const swept = await inngest.sweep();
    expect(inngest.harness.runs.filter((r) => r.fnId === 'sweep-runs').map((r) => r.output)).toContainEqual({ resumed: expect.arrayContaining([runId]) });
    const resumes = inngest.harness.runs.filter((r) => r.fnId === 'run-plan' && r.event.data.runId === runId && String(r.event.data.execution).startsWith('sweep-'));
    expect(resumes).toHaveLength(1);
    expect(swept.filter((r) => r.fnId === 'run-finish' && (r.output as { runId: string; status: string | null }).runId === runId && (r.output as { status: string | null }).status === 'completed')).toHaveLength(1);
    expect(await run(runId)).toMatchObject({ status: 'completed', doneCalls: CELLS, reservedCalls: 0 });
    expect(await t.db.attemptScore.count({ where: { runId } })).toBe(CELLS);
    expect(fake.duplicateCompletedCalls()).toBe(0);
    // swept again: a completed run is left alone
    expect((await inngest.sweep()).find((r) => r.fnId === 'sweep-runs')!.output).toMatchObject({ resumed: expect.not.arrayContaining([runId]) });
  });

  it('batch mode: the start hands the run to its batch rounds, whose end hands it back to the live fan-out', async () => {
    fake.setBatch({ delayMs: 0 });
    const runId = await newRun(SMALL, 'batch.yml', { mode: 'batch' });
    const inngest = inngestRuns({ deps: async () => ({ ...deps, batchPollMs: 5 }), seed: 8 });
    expect(await inngest.run(runId)).toBe('completed');
    const runs = inngest.harness.runs;
    expect(runs.some((r) => r.fnId === 'run-batch-round')).toBe(true);
    expect(runs.filter((r) => r.fnId === 'run-plan' && r.event.name === 'assay/run.batch.finished')).toHaveLength(1);
    expect(await run(runId)).toMatchObject({ status: 'completed', doneCalls: CELLS });
    expect(await t.db.attemptScore.count({ where: { runId } })).toBe(CELLS);
    expect(fake.duplicateCompletedCalls()).toBe(0);
  });

  it('the run’s deadline stops it (budget_exceeded, resumable)', async () => {
    const runId = await newRun(SMALL, 'deadline.yml');
    const late = { ...deps, runLimits: { deadlineMs: 0 } };
    expect(await inngestRuns({ deps: async () => late, seed: 2 }).run(runId)).toBe('budget_exceeded');
    expect((await run(runId)).error).toMatch(/deadline/);
    expect(modelCalls()).toBe(0);
    expect(await inngestRuns({ deps: async () => deps, seed: 2 }).run(runId)).toBe('completed');
  });

  it('a cancel stops the run’s functions (cancelOn) and finishes it as stopped', async () => {
    const runId = await newRun(SMALL, 'cancel.yml');
    fake.setLatency(20);
    const inngest = inngestRuns({ deps: async () => deps, seed: 6, parallel: 2 });
    let sent = false;
    const watcher = setInterval(() => {
      if (sent || fake.stats().completed < 2) return;
      sent = true;
      inngest.harness.send(runCancelled.create({ runId, by: 'a maintainer' }) as never);
    }, 1);
    try {
      expect(await inngest.run(runId)).toBe('budget_exceeded');
    } finally {
      clearInterval(watcher);
      fake.setLatency(0);
    }
    expect(inngest.harness.runs.filter((r) => r.status === 'cancelled').length).toBeGreaterThan(0);
    expect(modelCalls()).toBeLessThan(CELLS);
    expect((await run(runId)).error).toMatch(/cancelled by a maintainer/);
  });
});
