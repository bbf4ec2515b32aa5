/**
 * Batch mode under Inngest: the batch steps (runs/batch-steps.ts, the ones the in-process
 * runner loops over) as durable steps, with `step.sleep` between polls, so a worker holds
 * nothing while a provider works on a batch (up to 24 h) and a lost worker resumes at the
 * last completed step: the batches it submitted are in the database and are polled, never
 * submitted again.
 */
import type { RunDeps } from '../../runs/deps';
import { collectStep, DEFAULT_BATCH_POLL_MS, pollBatches, pollDelayMs } from '../../runs/batch-steps';
import { loadRunContext } from '../../runs/run-context';

/** The two step tools used here (Inngest's `step`, whose `run` returns the JSON of the result). */
export interface BatchStepTools {
  run<T>(id: string, fn: () => Promise<T>): Promise<unknown>;
  sleep(id: string, ms: number): Promise<unknown>;
}

interface Collected {
  open: number;
  budget: boolean;
}

/** Collect and poll until nothing waits for a batch; `budget` when the budget stopped a submission. */
export async function batchRounds(step: BatchStepTools, deps: () => Promise<RunDeps>, runId: string): Promise<'done' | 'budget'> {
  const base = (await deps()).batchPollMs ?? DEFAULT_BATCH_POLL_MS;
  let stopped = false;
  for (let round = 0; ; round++) {
    const c = (await step.run(`batch-collect:${runId}:${round}`, async (): Promise<Collected> => {
      const d = await deps();
      const r = await collectStep(d, await loadRunContext(d.db, runId));
      return { open: r.open, budget: r.budgetStop !== null };
    })) as Collected;
    stopped ||= c.budget;
    // batches submitted before a budget stop are still waited for: their lines are paid for
    if (c.open === 0) return stopped ? 'budget' : 'done';
    for (let n = 0; ; n++) {
      // Inngest's durable waits resolve to whole seconds.
      await step.sleep(`batch-wait:${runId}:${round}:${n}`, Math.max(1000, pollDelayMs(base, n)));
      const p = (await step.run(`batch-poll:${runId}:${round}:${n}`, async () => {
        const d = await deps();
        return pollBatches(d, await loadRunContext(d.db, runId));
      })) as { open: number; imported: number };
      if (p.imported > 0 || p.open === 0) break;
    }
  }
}
