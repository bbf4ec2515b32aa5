/**
 * The in-process runner: a thin scheduler over the run's steps (steps.ts), on one machine, for
 * the CLI and the dev server. It holds the run's lease, bounds the groups in flight, reports
 * progress and enforces the per-execution deadline; what is pending, what a group does and how
 * the run ends are the steps' (the same the Inngest functions run). The database is the journal,
 * so a killed runner restarted on the same run repeats no completed call and stores nothing twice.
 */
import { setMaxListeners } from 'node:events';
import pLimit, { type LimitFunction } from 'p-limit';
import { runBatchMode } from './batch-steps';
import type { RunDeps } from './deps';
import { BudgetExceededError, LeaseLostError } from './errors';
import { takeLease, type LeaseBusy } from './lease';
import type { RunContext } from './run-context';
import { finish, isSettled, pendingGroupsWithWork, processGroup, start, type FinalStatus } from './steps';
import { storableText } from '../db/storable-text';
import { liveVerdictCounts } from '../db/verdict-counts';
import { isRetrievalRun } from './retrieval/context';
import { executeRetrievalLeased } from './retrieval/execute';

export interface RunProgress {
  runId: string;
  replies: { done: number; total: number };
  verdicts: { done: number; total: number };
  errors: number;
  costUsd: number;
}

export interface ExecuteOptions {
  /** Prompt × model groups in flight at once per model provider (default: twice the provider's slots, at least 16; each call holds a provider slot only while calling). */
  inFlight?: number;
  onProgress?: (p: RunProgress) => void;
  /** Told when another worker holds the run's lease (then nothing is done here). */
  onBusy?: (busy: LeaseBusy) => void;
}

export type { FinalStatus } from './steps';
/** `busy`: another worker holds the run (or took it over from us); this one did nothing more. */
export type ExecuteStatus = FinalStatus | 'busy';

export const DEFAULT_RUN_DEADLINE_MS = 6 * 60 * 60_000;
const DEFAULT_GROUPS_IN_FLIGHT = 16;

export async function readProgress(deps: RunDeps, runId: string): Promise<RunProgress> {
  const r = await deps.db.run.findUniqueOrThrow({
    where: { id: runId },
    select: { totalCalls: true, doneCalls: true, totalVerdicts: true, errorCalls: true, costUsd: true },
  });
  const { doneVerdicts, errorVerdicts } = (await liveVerdictCounts(deps.db, [runId])).get(runId) ?? { doneVerdicts: 0, errorVerdicts: 0 };
  return {
    runId,
    replies: { done: r.doneCalls, total: r.totalCalls },
    verdicts: { done: doneVerdicts, total: r.totalVerdicts },
    errors: r.errorCalls + errorVerdicts,
    costUsd: r.costUsd,
  };
}

export async function executeRun(deps: RunDeps, runId: string, opts: ExecuteOptions = {}): Promise<ExecuteStatus> {
  if (await isSettled(deps, runId)) return 'completed';

  // Only the lease holder works on the run: a second resumer (process or app instance) stops here.
  const taken = await takeLease(deps.db, runId, { ttlMs: deps.runLimits?.leaseMs });
  if (!taken.ok) {
    opts.onBusy?.(taken);
    return 'busy';
  }
  const { lease } = taken;
  const stop = new AbortController();
  setMaxListeners(0, stop.signal); // every call in flight listens to it
  lease.keepAlive(() => stop.abort(new LeaseLostError(runId)));
  const deadlineMs = deps.runLimits?.deadlineMs ?? DEFAULT_RUN_DEADLINE_MS;
  const deadline = setTimeout(() => stop.abort(new BudgetExceededError(runId, `the run’s deadline (${Math.round(deadlineMs / 1000)} s for one execution) passed; resume it to go on`)), deadlineMs);
  deadline.unref?.();
  try {
    return await executeLeased(deps, runId, opts, { leaseHolder: lease.holder, signal: stop.signal });
  } finally {
    clearTimeout(deadline);
    await lease.release().catch(() => {});
  }
}

async function executeLeased(deps: RunDeps, runId: string, opts: ExecuteOptions, execution: { leaseHolder: string; signal: AbortSignal }): Promise<ExecuteStatus> {
  if (await isRetrievalRun(deps.db, runId)) {
    // a retrieval run's own steps under the same lease and deadline (runs/retrieval/execute.ts)
    const report = opts.onProgress ? async () => opts.onProgress!(await readProgress(deps, runId)) : undefined;
    return executeRetrievalLeased(deps, runId, { ...(opts.inFlight ? { inFlight: opts.inFlight } : {}), ...(report ? { onUnit: report } : {}) }, execution);
  }
  // Per execution, never cached: the lease this worker holds and the deadline's signal.
  const ctx: RunContext = { ...(await start(deps, runId)), ...execution };
  // One gate per model provider: groups waiting on a rate-limited provider (a 429 with a long
  // retry-after) hold only that provider's places, never those of the other providers' groups.
  const gates = new Map<string, LimitFunction>();
  const gateOf = (provider: string) => {
    let g = gates.get(provider);
    // Twice the provider's slots at least: a group between two calls (storing a reply, grading
    // its deterministic points) holds no slot, and with only as many groups as slots those
    // slots would idle meanwhile (16 groups for 20 slots kept 9–10 in flight).
    if (!g) gates.set(provider, (g = pLimit(opts.inFlight ?? Math.max(DEFAULT_GROUPS_IN_FLIGHT, 2 * deps.gateway.maxSlots(provider)))));
    return g;
  };
  let budgetStop: BudgetExceededError | null = null;
  let leaseLost: LeaseLostError | null = null;
  let lastReport = 0;
  const report = async (force = false) => {
    if (!opts.onProgress) return;
    const now = Date.now();
    if (!force && now - lastReport < 200) return;
    lastReport = now;
    opts.onProgress(await readProgress(deps, runId));
  };

  let defect: unknown = null;
  // Batch mode: the batch rounds first (the same steps, calls answered by provider batches);
  // what they leave (nothing, or what a budget stop left) goes on below as in live mode.
  if (ctx.mode === 'batch') {
    try {
      const stop = await runBatchMode(deps, ctx, { onCell: () => report(), onPoll: () => report(), signal: execution.signal });
      if (stop) budgetStop = new BudgetExceededError(runId, stop);
    } catch (e) {
      if (e instanceof BudgetExceededError) budgetStop = e;
      else if (e instanceof LeaseLostError) leaseLost = e;
      else defect = e;
    }
  }
  const groups = budgetStop || leaseLost || defect ? [] : await pendingGroupsWithWork(deps, ctx);
  await Promise.all(
    groups.map(({ group, work }) =>
      gateOf(group.provider)(async () => {
        // A stop seen in one group stops the groups not yet started; the others end their calls.
        if (budgetStop || leaseLost || defect) return;
        try {
          await processGroup(deps, ctx, group, { onCell: () => report(), work });
        } catch (e) {
          if (e instanceof BudgetExceededError) budgetStop = e;
          else if (e instanceof LeaseLostError) leaseLost = e;
          else defect ??= e;
        }
      }),
    ),
  );
  if (defect) {
    // A defect or a lost database: the run stays resumable; record why it stopped.
    await deps.db.run.update({ where: { id: runId }, data: { status: 'failed', error: storableText((defect as Error).message) } }).catch(() => {});
    throw defect;
  }
  // Another worker has the run now: it finishes it; this one must not touch its status.
  if (leaseLost) return 'busy';
  await report(true);
  return finish(deps, runId, { budgetStop: budgetStop ? (budgetStop as BudgetExceededError).reason : null });
}
