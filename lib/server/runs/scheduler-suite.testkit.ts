/**
 * The one suite every run scheduler must pass, over every kind of run (one shared suite for every
 * adapter, as providers/llm-client-contract.testkit.ts is for the LLM clients): the in-process
 * runner and the Inngest functions each give an adapter (scheduler-kind.testkit.ts), and the same
 * tests run against each, for a chat run and a retrieval run, through the real steps, a real
 * database and the fake LLM server (the only test double, at the network boundary). Each test
 * counts what the fake was asked and what the database holds, so a scheduler that repeats a call,
 * loses a result or decides an end of its own fails here.
 *
 * The in-process runner is the reference: a complete run under any scheduler shows the reader the
 * same results as the same blueprint run in process.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { chatSuiteKind, CHAT_JUDGE_RULES } from './chat/scheduler-kind.testkit';
import type { RunDeps } from './engine/deps';
import { executeRun } from './engine/execute-run';
import { requestRun } from './request-run';
import { retrievalSuiteKind } from './retrieval/scheduler-kind.testkit';
import { noDispatch, TEST_DEFAULTS } from './runs.testkit';
import type { RunRequestExtra, SchedulerAdapter, SuiteContext, SuiteKind } from './scheduler-kind.testkit';

export { SUITE_CONCURRENCY, type SchedulerAdapter } from './scheduler-kind.testkit';

/** Every kind of run the schedulers drive. */
export const SUITE_KINDS: SuiteKind[] = [chatSuiteKind, retrievalSuiteKind];

/** The fake's latency between kills; a kill raises it so calls are long enough for the kill to land mid-run. */
const LATENCY_MS = 5;
const KILL_LATENCY_MS = 40;

/** Provider calls of any kind the fake received (chat completions and embedding requests). */
const providerCalls = (fake: FakeLlm) => fake.calls() + fake.stats().embeddings.calls;

export function runSchedulerSuite(adapter: SchedulerAdapter): void {
  let t: TestDatabase;
  let fake: FakeLlm;

  beforeAll(async () => {
    t = await freshDatabase();
    fake = await startFakeLlm({ rules: CHAT_JUDGE_RULES, keepRequests: 10_000, latencyMs: LATENCY_MS });
  });
  afterAll(async () => {
    await fake?.close();
    await t?.close();
  });

  for (const kind of SUITE_KINDS) {
    describe(`scheduler: ${adapter.name} × ${kind.name} run (${process.env.ASSAY_TEST_DB})`, () => {
      let c: SuiteContext;
      let deps: RunDeps;
      /** The results of the complete run of the first test, which every later complete run must match. */
      let complete: unknown;

      beforeAll(async () => {
        const made = await kind.setUp(t, fake.url);
        deps = made.deps;
        const newRun = async (extra: RunRequestExtra = {}) => (await requestRun(t.db, { blueprintId: made.blueprintId, trigger: 'cli', ...made.request, ...extra }, noDispatch, TEST_DEFAULTS)).runId;
        c = { t, fake, deps, adapter, newRun };
      });
      beforeEach(async () => {
        fake.reset();
        await kind.reset?.(t);
      });
      const run = (runId: string) => t.db.run.findUniqueOrThrow({ where: { id: runId } });

      it('completes a run: each unit of work done once, every result stored, the same results as in process', async () => {
        const runId = await c.newRun();
        expect(await adapter.run(deps, runId)).toBe('completed');
        expect(await run(runId)).toMatchObject({ status: 'completed', error: null, ...kind.complete, providerCalls: providerCalls(fake), reservedCalls: 0 });
        expect(kind.work(fake)).toBe(kind.workOfRun);
        expect(fake.duplicateCompletedCalls()).toBe(0);
        await kind.expectComplete(c, runId);
        complete = await kind.results(c, runId);
        // Asked again, a settled run is left alone: no call, no second finish.
        const { finishedAt } = await run(runId);
        const callsBefore = providerCalls(fake);
        expect(await adapter.run(deps, runId)).toBe('completed');
        expect(providerCalls(fake)).toBe(callsBefore);
        expect((await run(runId)).finishedAt).toEqual(finishedAt);
        // The reference: the same blueprint run in process shows the same results.
        const reference = await c.newRun();
        expect(await executeRun(deps, reference)).toBe('completed');
        expect(await kind.results(c, reference)).toEqual(complete);
      });

      it('resumes after a kill: the run left running, then the same results, nothing counted twice, no completed call repeated beyond those on the wire', async () => {
        const runId = await c.newRun();
        fake.setLatency(KILL_LATENCY_MS);
        await adapter.runAndKill(deps, runId, () => kind.killWhen(fake), { oneAtATime: kind.oneAtATime });
        fake.setLatency(LATENCY_MS);
        const killed = await run(runId);
        expect(killed.status).toBe('running');
        expect(killed.doneCalls).toBeLessThan(kind.complete.doneCalls);
        const kept = await kind.stored?.(c, runId);
        if (kept) expect(kept.length).toBeGreaterThan(0); // the kill fell mid-run, not before the first result

        expect(await adapter.run(deps, runId)).toBe('completed');
        expect(await run(runId)).toMatchObject({ status: 'completed', doneCalls: kind.complete.doneCalls, doneVerdicts: kind.complete.doneVerdicts, reservedCalls: 0 });
        expect(await kind.results(c, runId)).toEqual(complete);
        // What was stored before the kill is kept as it was.
        if (kept) {
          const now = new Map(await kind.stored!(c, runId));
          for (const [id, value] of kept) expect(now.get(id)).toEqual(value);
        }
        expect(fake.duplicateCompletedCalls()).toBeLessThanOrEqual(adapter.repeatsAfterKill);
        expect(kind.work(fake)).toBeGreaterThanOrEqual(kind.workOfRun);
        expect(kind.work(fake)).toBeLessThanOrEqual(kind.workOfRun + adapter.repeatsAfterKill * kind.workPerCall);
      });

      it('stops at its call budget (budget_exceeded, never a call beyond it, nothing summarised), and a resume finishes it without repeating a call', async () => {
        const runId = await c.newRun({ budget: { maxCalls: kind.budgetCalls } });
        expect(await adapter.run(deps, runId)).toBe('budget_exceeded');
        const stopped = await run(runId);
        expect(stopped).toMatchObject({ status: 'budget_exceeded', providerCalls: kind.budgetCalls, reservedCalls: 0 });
        expect(stopped.error).toMatch(/budget/);
        expect(providerCalls(fake)).toBe(kind.budgetCalls);
        expect(stopped.doneCalls).toBeLessThan(kind.complete.doneCalls);
        await kind.expectNothingSummarised(c, runId);

        await t.db.run.update({ where: { id: runId }, data: { maxCalls: null } });
        expect(await adapter.run(deps, runId)).toBe('completed');
        expect(await run(runId)).toMatchObject({ status: 'completed', error: null, doneCalls: kind.complete.doneCalls, doneVerdicts: kind.complete.doneVerdicts, reservedCalls: 0 });
        expect(await kind.results(c, runId)).toEqual(complete);
        // what the calls before the stop returned was stored: the resume does only the rest
        expect(fake.duplicateCompletedCalls()).toBe(0);
        expect(kind.work(fake)).toBe(kind.workOfRun);
      });

      it('a model whose provider fails every call: its units fail, the other models’ results are those of a complete run', async () => {
        kind.failOneModel(fake);
        const runId = await c.newRun();
        const status = await adapter.run(deps, runId);
        expect((await run(runId)).errorCalls).toBeGreaterThan(0);
        await kind.expectOneModelFailed(c, runId, status, complete);
      });

      kind.ownTests?.(() => c);
    });
  }
}
