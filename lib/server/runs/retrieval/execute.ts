/**
 * The in-process scheduler of a retrieval run, under executeRun's lease and deadline (the same
 * `executeRun` the CLI, the dev server and the resume at start call): the pending batches in
 * flight per provider, each model scored once its batches are in, then the finish. What is
 * pending, what a step does and how the run ends are the steps' (steps.ts), the same the
 * Inngest functions run.
 */
import pLimit, { type LimitFunction } from 'p-limit';
import type { RunDeps } from '../deps';
import { BudgetExceededError, LeaseLostError } from '../errors';
import type { FinalStatus } from '../steps';
import { storableText } from '../../db/storable-text';
import type { RetrievalContext } from './context';
import { embedBatch, finishRetrieval, pendingRetrieval, scoreModel, startRetrieval } from './steps';

/** Batches in flight at once per model provider (each holds provider calls only while calling). */
const BATCHES_IN_FLIGHT = 4;

export async function executeRetrievalLeased(
  deps: RunDeps,
  runId: string,
  opts: { inFlight?: number; onUnit?: () => void | Promise<void> },
  execution: { leaseHolder: string; signal: AbortSignal },
): Promise<FinalStatus | 'busy'> {
  const ctx: RetrievalContext = { ...(await startRetrieval(deps, runId)), ...execution };
  const pending = await pendingRetrieval(deps, ctx);
  const gates = new Map<string, LimitFunction>();
  const gateOf = (provider: string) => {
    let g = gates.get(provider);
    if (!g) gates.set(provider, (g = pLimit(opts.inFlight ?? BATCHES_IN_FLIGHT)));
    return g;
  };
  let budgetStop: BudgetExceededError | null = null;
  let leaseLost: LeaseLostError | null = null;
  let defect: unknown = null;
  const guarded = async (work: () => Promise<unknown>) => {
    if (budgetStop || leaseLost || defect) return;
    try {
      await work();
      await opts.onUnit?.();
    } catch (e) {
      if (e instanceof BudgetExceededError) budgetStop = e;
      else if (e instanceof LeaseLostError) leaseLost = e;
      else defect ??= e;
    }
  };
  const scored = new Set<string>();
  const scoreIfReady = async (modelId: string) => {
    if (scored.has(modelId)) return;
    const left = await pendingRetrieval(deps, ctx, modelId);
    if (left.embed.length === 0 && left.score.includes(modelId) && !scored.has(modelId)) {
      scored.add(modelId);
      await guarded(() => scoreModel(deps, ctx, modelId));
    }
  };
  await Promise.all([
    ...pending.embed.map((unit) =>
      gateOf(unit.provider)(async () => {
        await guarded(() => embedBatch(deps, ctx, unit));
        if (!budgetStop && !leaseLost && !defect) await scoreIfReady(unit.modelId);
      }),
    ),
    // models embedded already (a resume after the last batch) are scored at once
    ...pending.score.map((modelId) => scoreIfReady(modelId)),
  ]);
  if (defect) {
    await deps.db.run.update({ where: { id: runId }, data: { status: 'failed', error: storableText((defect as Error).message) } }).catch(() => {});
    throw defect;
  }
  if (leaseLost) return 'busy';
  return finishRetrieval(deps, runId, { budgetStop: budgetStop ? (budgetStop as BudgetExceededError).reason : null });
}
