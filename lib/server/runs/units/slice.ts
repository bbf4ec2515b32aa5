/**
 * One slice of a run under Inngest: one unit processed under its own lease, inside one step.
 *
 * Inngest may execute a step again while its first invocation still runs (a request cut between
 * Inngest and the worker is retried: https://www.inngest.com/docs/guides/handling-idempotency),
 * so the step is not the unit of exclusion: the unit's lease is. It is taken with the database's
 * clock (as the run's lease in ../engine/lease.ts), renewed while the slice works, and every provider
 * call re-checks it in the statement that reserves the call (call-ledger.ts), so a second
 * invocation of the same slice waits for the first and then finds the unit settled, making no
 * provider call. The execution's deadline (run_plans.deadline_at) stops the slice's calls as the
 * in-process runner's deadline does.
 */
import { setMaxListeners } from 'node:events';
import type { RunDeps } from '../engine/deps';
import { BudgetExceededError, LeaseLostError } from '../engine/errors';
import { DEFAULT_RUN_DEADLINE_MS } from '../engine/execute-run';
import { DEFAULT_LEASE_MS, newHolderId } from '../engine/lease';
import { kindOfUnit } from './kinds';
import { releaseUnit, renewUnit, settleUnit, takeUnit } from './unit-store';

export type SliceOutcome = { status: 'done' | 'settled' | 'gone' } | { status: 'budget'; budgetStop: string };

/** Another invocation of the same slice still holds the unit after waiting its lease out: Inngest retries the step later. */
export class UnitBusyError extends Error {
  override name = 'UnitBusyError';
  constructor(readonly unitId: string) {
    super(`unit ${unitId} is held by another invocation of its slice; retry once it has settled or its lease lapsed`);
  }
}

const deadlineReason = (ms: number) => `the run’s deadline (${Math.round(ms / 1000)} s for one execution) passed; resume it to go on`;

export async function runSlice(deps: RunDeps, unitId: string, opts: { pollMs?: number } = {}): Promise<SliceOutcome> {
  const db = deps.db;
  const ttlMs = deps.runLimits?.leaseMs ?? DEFAULT_LEASE_MS;
  const holder = newHolderId();
  let taken = await takeUnit(db, unitId, holder, ttlMs);
  // a first invocation still at work: wait for it (its lease lapses within ttlMs if it died)
  const waitUntil = Date.now() + ttlMs + 1000;
  while (taken === 'busy' && Date.now() < waitUntil) {
    await new Promise((r) => setTimeout(r, opts.pollMs ?? 25));
    taken = await takeUnit(db, unitId, holder, ttlMs);
  }
  if (taken === 'busy') throw new UnitBusyError(unitId);
  if (taken === 'settled' || taken === 'gone') return { status: taken };
  const unit = taken;

  const deadlineMs = deps.runLimits?.deadlineMs ?? DEFAULT_RUN_DEADLINE_MS;
  const left = unit.deadlineLeftMs;
  if (left !== null && left <= 0) {
    await releaseUnit(db, unitId, holder);
    return { status: 'budget', budgetStop: deadlineReason(deadlineMs) };
  }
  const stop = new AbortController();
  setMaxListeners(0, stop.signal); // every call in flight listens to it
  const deadline = left === null ? null : setTimeout(() => stop.abort(new BudgetExceededError(unit.runId, deadlineReason(deadlineMs))), left);
  const beat = setInterval(() => {
    renewUnit(db, unitId, holder, ttlMs).then(
      (ok) => void (ok || stop.abort(new LeaseLostError(unit.runId))),
      () => {}, // a missed renewal is retried at the next beat; the expiry is the safety net
    );
  }, Math.max(50, Math.floor(ttlMs / 3)));
  let settled = false;
  try {
    const kind = kindOfUnit(unit.step);
    await kind.process(deps, unit.runId, unit, await kind.open(deps, unit.runId, { leaseHolder: holder, signal: stop.signal }));
    await settleUnit(db, unitId); // which also lets the lease go
    settled = true;
    return { status: 'done' };
  } catch (e) {
    if (e instanceof BudgetExceededError) return { status: 'budget', budgetStop: e.reason };
    throw e;
  } finally {
    if (deadline) clearTimeout(deadline);
    clearInterval(beat);
    if (!settled) await releaseUnit(db, unitId, holder).catch(() => {});
  }
}
