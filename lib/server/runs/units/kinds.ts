/**
 * The two kinds of run as units of work, for the one set of Inngest functions that drives either
 * (jobs/functions/run-functions.ts). A kind says how a run starts, what its pending units are
 * (each with at most two concurrency keys, Inngest's limit per function), how one unit is
 * processed and which unit it leads to, and how the run finishes; the steps themselves are the
 * kind's own (runs/steps.ts, runs/retrieval/steps.ts), the same the in-process runner drives.
 *
 *   chat:       generate (prompt × model, keyed by the model's provider) → judge (the same
 *               prompt × model, keyed by the judge panel's providers); a group with replies and
 *               nothing to generate (a resume, a rescore) is a judge unit alone.
 *   retrieval:  embed (model × documents|queries × batch, keyed by the model's provider), every
 *               batch of a model → score (the model).
 */
import { afterBatchGateway } from '../batch-gateway';
import type { FinalStatus } from '@/lib/core';
import type { RunDeps } from '../deps';
import { loadRunContext } from '../run-context';
import { finish, generateGroup, isSettled, judgeGroup, judgeProvidersOf, pendingGroupsWithWork, start } from '../steps';
import { isRetrievalRun, loadRetrievalContext } from '../retrieval/context';
import { embedBatch, finishRetrieval, isRetrievalSettled, pendingRetrieval, scoreModel, startRetrieval } from '../retrieval/steps';
import type { UnitSpec } from './unit-store';

/** What a slice holds while it processes a unit: its lease (checked by every provider call) and its deadline. */
export interface SliceExecution {
  leaseHolder: string;
  signal: AbortSignal;
}

export interface RunKind {
  name: 'chat' | 'retrieval';
  /** Nothing left to do: an execution of it does nothing. */
  settled(deps: RunDeps, runId: string): Promise<boolean>;
  /** Marks the run running and gives failures that may pass another chance. */
  start(deps: RunDeps, runId: string): Promise<void>;
  /** The pending units, read once for the whole run. */
  plan(deps: RunDeps, runId: string): Promise<UnitSpec[]>;
  /** Processes one unit; throws BudgetExceededError when a call was refused. */
  process(deps: RunDeps, runId: string, unit: { step: string; data: Record<string, string | number> }, exec: SliceExecution): Promise<void>;
  /** The one decision of the run's end (`budgetStop`: why a slice saw the budget or deadline stop it). */
  finish(deps: RunDeps, runId: string, budgetStop: string | null): Promise<FinalStatus>;
}

/** A unit's key: its step and identity as JSON (unambiguous whatever a prompt key holds; PostgreSQL text holds no NUL). */
const keyOf = (...parts: (string | number)[]) => JSON.stringify(parts);

export const chatKind: RunKind = {
  name: 'chat',
  settled: (deps, runId) => isSettled(deps, runId),
  start: async (deps, runId) => void (await start(deps, runId)),
  async plan(deps, runId) {
    const ctx = await loadRunContext(deps.db, runId);
    const judges = judgeProvidersOf(ctx);
    // the panel's first two providers are the keys; a third is limited only by each worker's gateway
    const judgeKeys = (judges.length >= 2 ? [judges[0]!, judges[1]!] : [judges[0] ?? 'judges']) as UnitSpec['keys'];
    return (await pendingGroupsWithWork(deps, ctx)).flatMap(({ group, work }): UnitSpec[] => {
      const data = { promptKey: group.promptKey, modelId: group.modelId };
      const judge: UnitSpec = { key: keyOf('judge', group.promptKey, group.modelId), step: 'judge', data, keys: judgeKeys };
      if (work.generate.length === 0) return [judge];
      return [{ key: keyOf('generate', group.promptKey, group.modelId), step: 'generate', data, keys: [group.provider], then: judge.key }, judge];
    });
  },
  async process(deps, runId, unit, exec) {
    const ctx = { ...(await loadRunContext(deps.db, runId)), ...exec };
    const group = { promptKey: String(unit.data.promptKey), modelId: String(unit.data.modelId) };
    // after batch rounds a unit's calls a batch already answered are answered by their lines (batch-gateway.ts)
    const d = ctx.mode === 'batch' ? { ...deps, gateway: afterBatchGateway(deps.db, deps.gateway) } : deps;
    if (unit.step === 'generate') await generateGroup(d, ctx, group);
    else if (unit.step === 'judge') await judgeGroup(d, ctx, group);
    else throw new Error(`run ${runId}: a chat run has no "${unit.step}" unit`);
  },
  finish: (deps, runId, budgetStop) => finish(deps, runId, { budgetStop }),
};

export const retrievalKind: RunKind = {
  name: 'retrieval',
  settled: (deps, runId) => isRetrievalSettled(deps, runId),
  start: async (deps, runId) => void (await startRetrieval(deps, runId)),
  async plan(deps, runId) {
    const ctx = await loadRetrievalContext(deps.db, runId);
    const pending = await pendingRetrieval(deps, ctx);
    const waiting = new Set(pending.embed.map((u) => u.modelId));
    const score = (modelId: string): UnitSpec => ({ key: keyOf('score', modelId), step: 'score', data: { modelId }, keys: [`score:${runId}`] });
    return [
      ...pending.embed.map((u): UnitSpec => ({
        key: keyOf('embed', u.modelId, u.kind, u.batchIndex),
        step: 'embed',
        data: { modelId: u.modelId, kind: u.kind, batchIndex: u.batchIndex },
        keys: [u.provider],
        then: score(u.modelId).key,
      })),
      // every model that waits for batches, and every model embedded but not scored yet
      ...[...new Set([...waiting, ...pending.score])].map(score),
    ];
  },
  async process(deps, runId, unit, exec) {
    const ctx = { ...(await loadRetrievalContext(deps.db, runId)), ...exec };
    const modelId = String(unit.data.modelId);
    if (unit.step === 'embed') {
      await embedBatch(deps, ctx, { modelId, kind: unit.data.kind as 'document' | 'query', batchIndex: Number(unit.data.batchIndex) });
    } else if (unit.step === 'score') {
      // a model with a failed batch is not scored (the one rule of what is left: pendingRetrieval)
      if ((await pendingRetrieval(deps, ctx, modelId)).score.includes(modelId)) await scoreModel(deps, ctx, modelId);
    } else throw new Error(`run ${runId}: a retrieval run has no "${unit.step}" unit`);
  },
  finish: (deps, runId, budgetStop) => finishRetrieval(deps, runId, { budgetStop }),
};

export async function kindOf(deps: Pick<RunDeps, 'db'>, runId: string): Promise<RunKind> {
  return (await isRetrievalRun(deps.db, runId)) ? retrievalKind : chatKind;
}

/** The kind a unit belongs to, from its step (a slice needs no query to know it). */
export function kindOfUnit(step: string): RunKind {
  if (step === 'generate' || step === 'judge') return chatKind;
  if (step === 'embed' || step === 'score') return retrievalKind;
  throw new Error(`no kind of run has a "${step}" unit`);
}
