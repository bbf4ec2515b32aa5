/**
 * The in-process scheduler of any kind of run (the CLI, the dev server, the resume at start),
 * under executeRun's lease and deadline. The kind says what the units are, how one is processed
 * and how the run ends (units/kinds.ts, the same kinds the Inngest functions drive); this file
 * only orders them: every unit whose predecessors are done runs, at most `kind.inFlight` per
 * concurrency key, so units waiting on a rate-limited provider hold only that provider's places.
 *
 * One path for every kind when something stops the run: a budget or deadline stop, or a lost
 * lease, lets the units in flight end their calls and starts no other; a defect (a bug, a lost
 * database) is recorded on the run, which stays resumable, and rethrown.
 */
import pLimit, { type LimitFunction } from 'p-limit';
import type { FinalStatus } from '@/lib/core';
import type { RunDeps } from '../engine/deps';
import { BudgetExceededError, LeaseLostError } from '../engine/errors';
import { storableText } from '../../db/storable-text';
import type { LocalUnit, RunKind, SliceExecution } from './kinds';

export interface InProcessOptions {
  /** Units in flight per concurrency key, for every kind (default: the kind's own). */
  inFlight?: number;
  /** Told as work gets done (`final`: once, before the finish). */
  report?: (final?: boolean) => void | Promise<void>;
}

export async function runUnitsInProcess(deps: RunDeps, runId: string, kind: RunKind, exec: SliceExecution, opts: InProcessOptions = {}): Promise<FinalStatus | 'busy'> {
  let budgetStop: string | null = null;
  let leaseLost = false;
  let defect: unknown = null;
  const stopped = () => budgetStop !== null || leaseLost || defect !== null;
  const caught = (e: unknown) => {
    if (e instanceof BudgetExceededError) budgetStop ??= e.reason;
    else if (e instanceof LeaseLostError) leaseLost = true;
    else defect ??= e;
  };
  const hooks = opts.report ? { onCell: () => opts.report!() } : {};

  await kind.start(deps, runId);
  // one context for the whole execution: what the run counts in memory (its sandbox budget) spans every unit
  const opened = await kind.open(deps, runId, exec);
  if (kind.prepare) {
    try {
      budgetStop = await kind.prepare(deps, runId, opened, hooks);
    } catch (e) {
      caught(e);
    }
  }
  const units = stopped() ? [] : await kind.plan(deps, runId, { fused: true });
  // a unit waits for every unit that leads to it (`then`)
  const waits = new Map<string, number>();
  for (const u of units) if (u.then) waits.set(u.then, (waits.get(u.then) ?? 0) + 1);
  const byKey = new Map(units.map((u) => [u.key, u]));
  const gates = new Map<string, LimitFunction>();
  const gateOf = (key: string) => {
    let g = gates.get(key);
    if (!g) gates.set(key, (g = pLimit(opts.inFlight ?? kind.inFlight(deps, key))));
    return g;
  };
  const runUnit = async (unit: LocalUnit): Promise<void> => {
    let done = false;
    await gateOf(unit.keys[0])(async () => {
      if (stopped()) return;
      try {
        await kind.process(deps, runId, unit, opened, hooks);
        done = true;
        await opts.report?.();
      } catch (e) {
        caught(e);
      }
    });
    if (!done || !unit.then || stopped()) return;
    const left = waits.get(unit.then)! - 1;
    waits.set(unit.then, left);
    if (left === 0) await runUnit(byKey.get(unit.then)!);
  };
  await Promise.all(units.filter((u) => !waits.get(u.key)).map(runUnit));

  if (defect) {
    await deps.db.run.update({ where: { id: runId }, data: { status: 'failed', error: storableText((defect as Error).message) } }).catch(() => {});
    throw defect;
  }
  // another worker has the run now: it finishes it; this one must not touch its status
  if (leaseLost) return 'busy';
  await opts.report?.(true);
  return kind.finish(deps, runId, budgetStop);
}
