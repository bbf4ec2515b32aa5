/**
 * Batch mode under Inngest: the batch steps (runs/chat/batch-steps.ts, the ones the in-process runner
 * loops over) as durable steps, one round per function run, chained by events
 * (jobs/batch-events.ts):
 *
 *   run-batch-round (assay/run.batch.requested, round r):
 *     collect   one step: submit the round's batches (calls no batch answers are left pending
 *               for the live fan-out, never called here);
 *     poll      `step.sleep`, then one poll step, at most MAX_POLLS_PER_ROUND times, until a
 *               batch was imported or none is open;
 *     then      nothing open: assay/run.batch.finished (the run's planner fans out what is
 *               left live, or finishes the run after a budget stop); otherwise round r + 1.
 *
 * Why a function run per round: Inngest allows 1,000 steps per function run and fails the run
 * past them, with no retry (https://www.inngest.com/docs/usage-limits/inngest, "Number of Steps
 * per Function"); a day of polling in one run took more than that. A round here takes at most
 * 2 + 2 × MAX_POLLS_PER_ROUND steps, whatever the batches' duration; a slow batch simply spans
 * several rounds, each picking up the poll backoff from the batch's stored poll count. Its
 * output stays a few bytes per step, far under the 4 MB a step may return.
 *
 * A worker holds nothing while a provider works (up to 24 h): a sleeping run uses no
 * concurrency slot. A lost worker resumes at the last completed step: the batches it submitted
 * are in the database and are polled, never submitted again. Each round's event has its own id
 * (run, execution, round), so a repeated send starts no second round (Inngest drops an event
 * id it saw in the last 24 h: https://www.inngest.com/docs/guides/handling-idempotency), and
 * one run's rounds never execute two steps at once (the concurrency key is the run).
 */
import { inngest } from '../client';
import { runBatchFinished, runBatchRequested } from '../batch-events';
import { runCancelled } from '../run-unit-events';
import type { RunDeps } from '../../runs/engine/deps';
import { collectStep, DEFAULT_BATCH_POLL_MS, noteBatchWait, pollBatches, pollDelayMs, pollsOfNewestBatch } from '../../runs/chat/batch-steps';
import { takeLease } from '../../runs/engine/lease';
import { loadRunContext } from '../../runs/engine/run-context';

/** Polls one round makes before handing over to the next round (a function run of its own). */
export const MAX_POLLS_PER_ROUND = 40;

/** The most steps one round takes: collect, the sleeps and polls, and one send. */
export const MAX_STEPS_PER_ROUND = 2 + 2 * MAX_POLLS_PER_ROUND;

/** The step tools a round uses (Inngest's `step`; `run` returns the JSON of the result). */
export interface BatchStepTools {
  run<T>(id: string, fn: () => Promise<T>): Promise<unknown>;
  sleep(id: string, ms: number): Promise<unknown>;
  sendEvent(id: string, payload: ReturnType<typeof runBatchRequested.create> | ReturnType<typeof runBatchFinished.create>): Promise<unknown>;
}

export interface BatchRoundData {
  runId: string;
  execution?: string | undefined;
  round: number;
  budgetStop?: string | undefined;
}

export type BatchRoundOutcome = { runId: string; round: number; next: 'round' | 'finished' | 'busy'; polls: number; budgetStop?: string };

type Collected = { busy: true } | { busy: false; open: number; budgetStop: string | null; /** Polls the newest open batch has had: where the backoff goes on. */ polls: number };

/** Beyond the longest wait between two polls, how long the rounds' hold on the run outlives a dead chain. */
const LEASE_MARGIN_MS = 10 * 60_000;

/**
 * The rounds hold the run's lease (runs/engine/lease.ts) from one step to the next, through the waits:
 * nothing else works on the run meanwhile (`assay run --resume` finds it busy), the sweeper
 * (sweep-runs.ts) leaves a run with a live lease alone instead of resuming a run that only waits
 * for its batches, and the collect's budget reservation checks it (batch-store.ts). A chain that
 * died lets it lapse after the longest wait and LEASE_MARGIN_MS. One holder per execution: a
 * second chain of the same execution (a repeated event the dedupe missed) shares it; another
 * execution's chain finds the run busy and stops.
 */
async function holdRun(d: RunDeps, data: BatchRoundData, base: number) {
  const holder = `inngest-batch-rounds/${exec(data)}`;
  const taken = await takeLease(d.db, data.runId, { holder, ttlMs: pollDelayMs(base, Number.MAX_SAFE_INTEGER) + LEASE_MARGIN_MS });
  return taken.ok ? taken.lease : null;
}

/** The execution's part of event ids: a resume's events never collide with the last execution's. */
const exec = (d: { runId: string; execution?: string | undefined }) => `${d.runId}-${d.execution ?? 'first'}`;

/** The event that starts a run's batch rounds (round 0); the run's planner sends it. */
export function batchRoundsEvent(runId: string, execution?: string) {
  return runBatchRequested.create({ runId, execution, round: 0 }, { id: `batch-round-${exec({ runId, execution })}-0` });
}

/** One round (see the header). */
export async function batchRound(step: BatchStepTools, deps: () => Promise<RunDeps>, data: BatchRoundData): Promise<BatchRoundOutcome> {
  const { runId, execution, round } = data;
  const base = (await deps()).batchPollMs ?? DEFAULT_BATCH_POLL_MS;
  const c = (await step.run(`batch-collect:${runId}:${round}`, async (): Promise<Collected> => {
    const d = await deps();
    const lease = await holdRun(d, data, base);
    if (!lease) return { busy: true };
    const r = await collectStep(d, { ...(await loadRunContext(d.db, runId)), leaseHolder: lease.holder }, {}, { leaveLive: true });
    // nothing waits for a batch: the run goes back to the planner, free
    if (r.open === 0) await lease.release();
    const polls = await pollsOfNewestBatch(d, runId);
    // why the run waits, for its progress page (none open clears it)
    await noteBatchWait(d, runId, Math.max(1000, pollDelayMs(base, polls)));
    return { busy: false, open: r.open, budgetStop: r.budgetStop, polls };
  })) as Collected;
  if (c.busy) return { runId, round, next: 'busy', polls: 0 };
  // batches submitted before a budget stop are still waited for: their lines are paid for
  const budgetStop = data.budgetStop ?? c.budgetStop ?? undefined;
  const stop = budgetStop === undefined ? {} : { budgetStop };
  if (c.open === 0) {
    await step.sendEvent('batch-finished', runBatchFinished.create({ runId, execution, ...stop }, { id: `batch-finished-${exec(data)}` }));
    return { runId, round, next: 'finished', polls: 0, ...stop };
  }
  let polls = 0;
  while (polls < MAX_POLLS_PER_ROUND) {
    // Inngest's durable waits resolve to whole seconds.
    await step.sleep(`batch-wait:${runId}:${round}:${polls}`, Math.max(1000, pollDelayMs(base, c.polls + polls)));
    const p = (await step.run(`batch-poll:${runId}:${round}:${polls}`, async () => {
      const d = await deps();
      // renewed for the next wait; lost (a dead chain's lease lapsed and another took the run): stop
      if (!(await holdRun(d, data, base))) return { busy: true as const };
      const p = await pollBatches(d, await loadRunContext(d.db, runId));
      await noteBatchWait(d, runId, Math.max(1000, pollDelayMs(base, c.polls + polls + 1)));
      return { busy: false as const, ...p };
    })) as { busy: true } | { busy: false; open: number; imported: number };
    polls++;
    if (p.busy) return { runId, round, next: 'busy', polls };
    if (p.imported > 0 || p.open === 0) break;
  }
  await step.sendEvent('next-round', runBatchRequested.create({ runId, execution, round: round + 1, ...stop }, { id: `batch-round-${exec(data)}-${round + 1}` }));
  return { runId, round, next: 'round', polls, ...stop };
}

/** The Inngest functions of batch mode. */
export function batchFunctions(deps: () => Promise<RunDeps>) {
  const roundFn = inngest.createFunction(
    {
      id: 'run-batch-round',
      triggers: [runBatchRequested],
      // One step of a run's rounds at a time: two rounds of one run never collect at once.
      concurrency: [{ key: 'event.data.runId', limit: 1 }],
      // a cancelled run stops polling (its batches are left to expire at the provider)
      cancelOn: [{ event: runCancelled, match: 'data.runId' }],
      retries: 5,
    },
    async ({ event, step }) => batchRound(step as unknown as BatchStepTools, deps, event.data),
  );
  return [roundFn] as const;
}
