/**
 * The in-process runner, on one machine, for the CLI and the dev server: it holds the run's
 * lease, enforces the per-execution deadline and reports progress; the units, their order and
 * the finish are the run kind's (units/kinds.ts, the kinds the Inngest functions drive too),
 * scheduled by units/in-process.ts. The database is the journal, so a killed runner restarted
 * on the same run repeats no completed call and stores nothing twice.
 */
import { setMaxListeners } from 'node:events';
import type { RunDeps } from './deps';
import { BudgetExceededError, LeaseLostError } from './errors';
import { takeLease, type LeaseBusy } from './lease';
import type { FinalStatus } from '../chat/steps';
import { liveVerdictCounts } from '../../db/verdict-counts';
import { kindOf, type RunKind } from '../units/kinds';
import { runUnitsInProcess } from '../units/in-process';

export interface RunProgress {
  runId: string;
  replies: { done: number; total: number };
  verdicts: { done: number; total: number };
  errors: number;
  costUsd: number;
}

export interface ExecuteOptions {
  /** Units in flight at once per provider (default: the run kind's; for a chat run twice the provider's slots, at least 16 prompt × model groups; each call holds a provider slot only while calling). */
  inFlight?: number;
  onProgress?: (p: RunProgress) => void;
  /** Told when another worker holds the run's lease (then nothing is done here). */
  onBusy?: (busy: LeaseBusy) => void;
}

export type { FinalStatus } from '../chat/steps';
/** `busy`: another worker holds the run (or took it over from us); this one did nothing more. */
export type ExecuteStatus = FinalStatus | 'busy';

export const DEFAULT_RUN_DEADLINE_MS = 6 * 60 * 60_000;

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
  const kind = await kindOf(deps, runId);
  if (await kind.settled(deps, runId)) return 'completed';

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
    return await executeLeased(deps, runId, kind, opts, { leaseHolder: lease.holder, signal: stop.signal });
  } finally {
    clearTimeout(deadline);
    await lease.release().catch(() => {});
  }
}

async function executeLeased(deps: RunDeps, runId: string, kind: RunKind, opts: ExecuteOptions, execution: { leaseHolder: string; signal: AbortSignal }): Promise<ExecuteStatus> {
  let lastReport = 0;
  const report = async (final = false) => {
    if (!opts.onProgress) return;
    const now = Date.now();
    if (!final && now - lastReport < 200) return;
    lastReport = now;
    opts.onProgress(await readProgress(deps, runId));
  };
  return runUnitsInProcess(deps, runId, kind, execution, { ...(opts.inFlight ? { inFlight: opts.inFlight } : {}), report });
}
