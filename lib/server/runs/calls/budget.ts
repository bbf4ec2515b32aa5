/**
 * Whether a run has used up its budget (calls or cost): the same test the gateway applies before
 * each call; for a draft run, its author's day too (author-budget.ts).
 */
import type { RunDeps } from '../engine/deps';
import { authorDay, dayUsedUp } from './author-budget';

export async function budgetSpent(deps: Pick<RunDeps, 'db'>, runId: string): Promise<boolean> {
  const r = await deps.db.run.findUniqueOrThrow({ where: { id: runId }, select: { maxCalls: true, providerCalls: true, reservedCalls: true, maxCostUsd: true, costUsd: true, draft: true, createdById: true } });
  if ((r.maxCalls !== null && r.providerCalls + r.reservedCalls >= r.maxCalls) || (r.maxCostUsd !== null && r.costUsd >= r.maxCostUsd)) return true;
  if (!r.draft || !r.createdById) return false;
  const limits = await deps.db.tryItSettings.findUnique({ where: { id: 1 }, select: { dailyCalls: true, dailyCostUsd: true } });
  return !limits || dayUsedUp(await authorDay(deps.db, r.createdById), limits);
}
