/** Whether a run has used up its budget (calls or cost): the same test the gateway applies before each call. */
import type { RunDeps } from './deps';

export async function budgetSpent(deps: Pick<RunDeps, 'db'>, runId: string): Promise<boolean> {
  const r = await deps.db.run.findUniqueOrThrow({ where: { id: runId }, select: { maxCalls: true, providerCalls: true, reservedCalls: true, maxCostUsd: true, costUsd: true } });
  return (r.maxCalls !== null && r.providerCalls + r.reservedCalls >= r.maxCalls) || (r.maxCostUsd !== null && r.costUsd >= r.maxCostUsd);
}
