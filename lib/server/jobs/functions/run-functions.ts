/**
 * The run pipeline as Inngest functions: a thin scheduler over the run's steps (runs/steps.ts,
 * the same the in-process runner drives). What is pending and how a run ends are the steps';
 * these functions only say where each step runs and under which concurrency keys:
 *  - run-start: the run's start step, for a batch-mode run its batch rounds (run-batch.ts:
 *    collect, then `step.sleep` and poll until imported), then one event per prompt × model
 *    with work;
 *  - run-cell: generates one prompt × model, keyed by the model's provider, then asks for its
 *    grading;
 *  - run-judge: grades one prompt × model, keyed by the judge panel's providers (a judge on
 *    another provider than the model's takes that provider's slot, not the model's), then,
 *    when it was the last, asks for the finish;
 *  - run-finish: the finish step (final status, summaries, the finished hook).
 * Keys are env-scoped, so every function calling a provider shares that provider's limit
 * across all workers. Inngest allows two concurrency keys per function: a panel spanning a
 * third provider is limited for that provider only by each worker's gateway.
 * A budget stop ends the slice cleanly and asks for the finish, which decides budget_exceeded.
 */
import { inngest } from '../client';
import { rescoreRequested, runCellRequested, runCellsFinished, runJudgeRequested, runRequested } from '../events';
import type { RunDeps } from '../../runs/deps';
import { BudgetExceededError } from '../../runs/errors';
import { loadRunContext } from '../../runs/run-context';
import { batchRounds } from './run-batch';
import { isRetrievalRun } from '../../runs/retrieval/context';
import { retrievalExecutionEvent } from './retrieval-functions';
import { finish, generateGroup, isSettled, judgeGroup, judgeProvidersOf, pendingGroups, start, type CellGroup } from '../../runs/steps';

export interface RunFunctionOptions {
  /** Concurrent steps per provider across all workers (generation and judging alike). */
  providerConcurrency: number;
}

/** The judge event of a group: its two concurrency keys (see runJudgeRequested). */
export function judgeEventData(runId: string, g: Pick<CellGroup, 'promptKey' | 'modelId' | 'judgeProviders'>) {
  const [first, second] = g.judgeProviders;
  const own = `slice:${runId}:${g.promptKey}@${g.modelId}`;
  return { runId, promptKey: g.promptKey, modelId: g.modelId, judgeProvider: first ?? own, judgeProvider2: second ?? own };
}

type Slice = { runId: string; promptKey: string; modelId: string; execution?: string };
const sliceId = (s: Slice) => `${s.runId}:${s.promptKey}@${s.modelId}`;
/** The execution's part of event ids (see runRequested): events of one dispatch dedupe, a resume's do not collide. */
const exec = (e: { runId: string; execution?: string }) => `${e.runId}-${e.execution ?? 'first'}`;
const finished = (e: { runId: string; execution?: string }) => runCellsFinished.create({ runId: e.runId, execution: e.execution }, { id: `finished-${exec(e)}` });

/** The event an Inngest dispatcher sends for one execution of a run (a first start or a resume). */
export function runExecutionEvent(runId: string, execution: string) {
  return runRequested.create({ runId, execution }, { id: `run-${exec({ runId, execution })}` });
}

export function runFunctions(deps: () => Promise<RunDeps>, opts: RunFunctionOptions) {
  const limit = opts.providerConcurrency;

  // A slice that failed after every retry must not leave its run waiting forever: record why,
  // and ask for the finish, which marks the run failed with what was left undone.
  const onFailure = async ({ event, error, step }: { event: { data: { event: unknown } }; error: Error; step: { run: (id: string, fn: () => Promise<void>) => Promise<unknown>; sendEvent: (id: string, e: ReturnType<typeof finished>) => Promise<unknown> } }) => {
    const slice = (event.data.event as { data: Slice }).data;
    await step.run(`record-failure:${sliceId(slice)}`, async () => {
      const d = await deps();
      await d.db.run.update({ where: { id: slice.runId }, data: { error: `${slice.promptKey} × ${slice.modelId} failed after its retries: ${error.message}` } });
    });
    await step.sendEvent('finish-after-failure', finished(slice));
  };

  const startFn = inngest.createFunction(
    // No function-level idempotency on the run id: that would drop a resume for 24 h. Repeats
    // are dropped by the execution's event ids instead.
    { id: 'run-start', triggers: [runRequested, rescoreRequested] },
    async ({ event, step }) => {
      const { runId, execution } = event.data as { runId: string; execution?: string };
      // a retrieval run has its own functions (retrieval-functions.ts): handed over as it is
      const retrieval = await step.run(`kind:${runId}`, async () => isRetrievalRun((await deps()).db, runId));
      if (retrieval) {
        await step.sendEvent('retrieval', retrievalExecutionEvent(runId, execution));
        return { runId, retrieval: true };
      }
      let groups = await step.run(`plan:${runId}`, async () => {
        const d = await deps();
        if (await isSettled(d, runId)) return null;
        return pendingGroups(d, await start(d, runId));
      });
      if (groups === null) return { runId, groups: 0, settled: true };
      // Batch mode: the batch rounds first (run-batch.ts); what they leave fans out as in live mode.
      const batch = await step.run(`batch-mode:${runId}`, async () => {
        const d = await deps();
        return (await loadRunContext(d.db, runId)).mode === 'batch';
      });
      if (batch) {
        if ((await batchRounds(step, deps, runId)) === 'budget') {
          await step.sendEvent('budget-stop', finished({ runId, execution }));
          return { runId, groups: 0, budget: true };
        }
        groups = await step.run(`plan-after-batch:${runId}`, async () => {
          const d = await deps();
          return pendingGroups(d, await loadRunContext(d.db, runId));
        });
      }
      if (groups.length === 0) {
        await step.sendEvent('nothing-to-do', finished({ runId, execution }));
        return { runId, groups: 0 };
      }
      await step.sendEvent(
        'fan-out',
        groups.map((g) => runCellRequested.create({ runId, promptKey: g.promptKey, modelId: g.modelId, provider: g.provider, execution }, { id: `cell-${exec({ runId, execution })}-${g.promptKey}-${g.modelId}` })),
      );
      return { runId, groups: groups.length };
    },
  );

  const cellFn = inngest.createFunction(
    {
      id: 'run-cell',
      triggers: [runCellRequested],
      concurrency: [{ key: 'event.data.provider', limit, scope: 'env' }],
      retries: 5,
      onFailure,
    },
    async ({ event, step }) => {
      const slice = event.data as Slice & { provider: string };
      // Step ids name their slice: ids are what memoised step results are keyed by.
      const outcome = await step.run(`generate:${sliceId(slice)}`, async () => {
        const d = await deps();
        try {
          return { status: 'done' as const, ...(await generateGroup(d, await loadRunContext(d.db, slice.runId), slice)) };
        } catch (e) {
          if (e instanceof BudgetExceededError) return { status: 'budget' as const, cells: 0 };
          throw e;
        }
      });
      if (outcome.status === 'budget') {
        await step.sendEvent('budget-stop', finished(slice));
        return outcome;
      }
      const judgeProviders = await step.run(`judges:${sliceId(slice)}`, async () => {
        const d = await deps();
        return judgeProvidersOf(await loadRunContext(d.db, slice.runId));
      });
      await step.sendEvent('generated', runJudgeRequested.create({ ...judgeEventData(slice.runId, { ...slice, judgeProviders }), execution: slice.execution }, { id: `judge-${exec(slice)}-${slice.promptKey}-${slice.modelId}` }));
      return outcome;
    },
  );

  const judgeFn = inngest.createFunction(
    {
      id: 'run-judge',
      triggers: [runJudgeRequested],
      concurrency: [
        { key: 'event.data.judgeProvider', limit, scope: 'env' },
        { key: 'event.data.judgeProvider2', limit, scope: 'env' },
      ],
      retries: 5,
      onFailure,
    },
    async ({ event, step }) => {
      const slice = event.data as Slice;
      const outcome = await step.run(`judge:${sliceId(slice)}`, async () => {
        const d = await deps();
        try {
          return { status: 'done' as const, ...(await judgeGroup(d, await loadRunContext(d.db, slice.runId), slice)) };
        } catch (e) {
          if (e instanceof BudgetExceededError) return { status: 'budget' as const, cells: 0 };
          throw e;
        }
      });
      const remaining = await step.run(`remaining:${sliceId(slice)}`, async () => {
        const d = await deps();
        return (await pendingGroups(d, await loadRunContext(d.db, slice.runId))).length;
      });
      if (remaining === 0 || outcome.status === 'budget') {
        // One finishing event per run (the event id deduplicates concurrent last slices).
        await step.sendEvent('all-cells-done', finished(slice));
      }
      return { ...outcome, remaining };
    },
  );

  const finishFn = inngest.createFunction(
    // Concurrent last slices of one execution share the finish's event id; a resume's finish has its own.
    { id: 'run-finish', triggers: [runCellsFinished] },
    async ({ event, step }) => {
      const { runId } = event.data as { runId: string };
      return step.run(`summarise:${runId}`, async () => ({ runId, status: await finish(await deps(), runId) }));
    },
  );

  return [startFn, cellFn, judgeFn, finishFn] as const;
}
