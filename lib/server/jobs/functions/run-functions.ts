/**
 * The run pipeline as Inngest functions (thin: load → step code → save, the same step code
 * the in-process runner calls):
 *  - run-start: marks the run running and fans out one event per prompt × model with work;
 *  - run-cell: generates and judges one prompt × model, with the provider as the concurrency
 *    key (the providers' rate limits are enforced across every worker), then, when it was
 *    the last, asks for the summary;
 *  - run-finish: final status, summaries, and the finished hook (PR comments).
 * A budget stop inside a cell ends that cell cleanly and finishes the run as budget_exceeded.
 */
import { inngest } from '../client';
import { rescoreRequested, runCellRequested, runCellsFinished, runRequested } from '../events';
import type { RunDeps } from '../../runs/deps';
import { BudgetExceededError } from '../../runs/errors';
import { startRun } from '../../runs/execute-run';
import { finishRun } from '../../runs/finish-run';
import { pendingGroups, processGroup } from '../../runs/cell-group';
import { loadRunContext } from '../../runs/run-context';

export interface RunFunctionOptions {
  /** Concurrent cell functions per provider across all workers. */
  providerConcurrency: number;
}

export function runFunctions(deps: () => Promise<RunDeps>, opts: RunFunctionOptions) {
  const start = inngest.createFunction(
    { id: 'run-start', triggers: [runRequested, rescoreRequested], idempotency: 'event.data.runId' },
    async ({ event, step }) => {
      const { runId } = event.data as { runId: string };
      const groups = await step.run(`plan:${runId}`, async () => {
        const d = await deps();
        return pendingGroups(d, await startRun(d, runId));
      });
      if (groups.length === 0) {
        await step.sendEvent('nothing-to-do', runCellsFinished.create({ runId }, { id: `finished-${runId}` }));
        return { runId, groups: 0 };
      }
      await step.sendEvent('fan-out', groups.map((g) => runCellRequested.create({ runId, ...g }, { id: `cell-${runId}-${g.promptKey}-${g.modelId}` })));
      return { runId, groups: groups.length };
    },
  );

  const cell = inngest.createFunction(
    {
      id: 'run-cell',
      triggers: [runCellRequested],
      concurrency: [{ key: 'event.data.provider', limit: opts.providerConcurrency, scope: 'env' }],
      retries: 5,
      // A cell that failed after every retry must not leave its run waiting forever: record why,
      // and ask for the finish, which marks the run failed with what was left undone.
      onFailure: async ({ event, error, step }) => {
        const { runId } = (event.data.event as { data: { runId: string } }).data;
        await step.run(`record-failure:${runId}`, async () => {
          const d = await deps();
          await d.db.run.update({ where: { id: runId }, data: { error: `a cell failed after its retries: ${error.message}` } });
        });
        await step.sendEvent('finish-after-failure', runCellsFinished.create({ runId }, { id: `finished-${runId}` }));
      },
    },
    async ({ event, step }) => {
      const { runId, promptKey, modelId, provider } = event.data as { runId: string; promptKey: string; modelId: string; provider: string };
      // Step ids name their cell: ids are what memoised step results are keyed by.
      const cellId = `${runId}:${promptKey}@${modelId}`;
      const outcome = await step.run(`generate-and-judge:${cellId}`, async () => {
        const d = await deps();
        try {
          return { status: 'done' as const, ...(await processGroup(d, await loadRunContext(d.db, runId), { promptKey, modelId, provider })) };
        } catch (e) {
          if (e instanceof BudgetExceededError) return { status: 'budget' as const, replies: 0 };
          throw e;
        }
      });
      const remaining = await step.run(`remaining:${cellId}`, async () => {
        const d = await deps();
        return (await pendingGroups(d, await loadRunContext(d.db, runId))).length;
      });
      if (remaining === 0 || outcome.status === 'budget') {
        // One finishing event per run (the event id deduplicates concurrent last cells).
        await step.sendEvent('all-cells-done', runCellsFinished.create({ runId }, { id: `finished-${runId}` }));
      }
      return { ...outcome, remaining };
    },
  );

  const finish = inngest.createFunction(
    { id: 'run-finish', triggers: [runCellsFinished], idempotency: 'event.data.runId' },
    async ({ event, step }) => {
      const { runId } = event.data as { runId: string };
      return step.run(`summarise:${runId}`, async () => {
        const d = await deps();
        // The same decision as the in-process runner's (finish-run.ts): what is left, what was stored.
        const status = await finishRun(d, runId);
        return { runId, status };
      });
    },
  );

  return [start, cell, finish] as const;
}
