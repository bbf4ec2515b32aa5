/**
 * The two kinds of run as units of work, for the one set of Inngest functions that drives either
 * (jobs/functions/run-functions.ts). A kind says how a run starts, what its pending units are
 * (each with at most two concurrency keys, Inngest's limit per function), how one unit is
 * processed and which unit it leads to, and how the run finishes; the steps themselves are the
 * kind's own (runs/chat/steps.ts, runs/retrieval/steps.ts), the same the in-process runner drives.
 *
 *   chat:       generate (prompt × model, keyed by the model's provider) → judge (the same
 *               prompt × model, keyed by the judge panel's providers); a group with replies and
 *               nothing to generate (a resume, a rescore) is a judge unit alone. In one process
 *               (`fused`), one `group` unit per prompt × model generates and grades each cell as
 *               soon as its reply is stored, with the work the plan found (no read per group).
 *   retrieval:  embed (model × documents|queries × batch, keyed by the model's provider), every
 *               batch of a model → score (the model).
 *
 * The in-process scheduler (units/in-process.ts) and the Inngest functions drive the same kinds.
 */
import { afterBatchGateway } from '../calls/batch-gateway';
import { runBatchMode } from '../chat/batch-steps';
import type { FinalStatus } from '@/lib/core';
import type { RunDeps } from '../engine/deps';
import { loadRunContext, type RunContext } from '../engine/run-context';
import { finish, generateGroup, isSettled, judgeGroup, judgeProvidersOf, pendingGroupsWithWork, processGroup, start, type PendingWork } from '../chat/steps';
import { isRetrievalRun, loadRetrievalContext, type RetrievalContext } from '../retrieval/context';
import { embedBatch, finishRetrieval, isRetrievalSettled, pendingRetrieval, scoreModel, startRetrieval } from '../retrieval/steps';
import type { UnitSpec } from './unit-store';

/** What a slice holds while it processes a unit: its lease (checked by every provider call) and its deadline. */
export interface SliceExecution {
  leaseHolder: string;
  signal: AbortSignal;
}

/** A unit as the in-process scheduler holds it: what the plan found for it may travel with it (never stored). */
export interface LocalUnit extends UnitSpec {
  local?: unknown;
}

/** Told as work gets done, for a progress display. */
export interface UnitHooks {
  onCell?: () => void | Promise<void>;
}

export interface RunKind {
  name: 'chat' | 'retrieval';
  /** Nothing left to do: an execution of it does nothing. */
  settled(deps: RunDeps, runId: string): Promise<boolean>;
  /** Marks the run running and gives failures that may pass another chance. */
  start(deps: RunDeps, runId: string): Promise<void>;
  /**
   * The context of one execution (the run's settings and blueprint, with the lease and deadline
   * `exec` holds), made once and handed to every unit it processes: what a run counts in memory
   * while it executes (its sandbox time budget, its corpus read once) is kept per context. The
   * in-process scheduler opens one for the whole execution; an Inngest slice, one for its unit.
   */
  open(deps: RunDeps, runId: string, exec: SliceExecution): Promise<unknown>;
  /**
   * Work done before the units, in one process (a chat run's batch rounds: under Inngest they are
   * functions of their own, run-batch.ts). Returns why a budget stopped it, or null.
   */
  prepare?(deps: RunDeps, runId: string, opened: unknown, hooks: UnitHooks): Promise<string | null>;
  /**
   * The pending units, read once for the whole run. `fused`: for one process, which needs no
   * concurrency key per half of a unit and may keep what the plan read beside each unit.
   */
  plan(deps: RunDeps, runId: string, opts?: { fused?: boolean }): Promise<LocalUnit[]>;
  /** Processes one unit in an opened context (`open`); throws BudgetExceededError when a call was refused. */
  process(deps: RunDeps, runId: string, unit: { step: string; data: Record<string, string | number>; local?: unknown }, opened: unknown, hooks?: UnitHooks): Promise<void>;
  /** How many units one process keeps in flight per concurrency key. */
  inFlight(deps: RunDeps, key: string): number;
  /** The one decision of the run's end (`budgetStop`: why a slice saw the budget or deadline stop it). */
  finish(deps: RunDeps, runId: string, budgetStop: string | null): Promise<FinalStatus>;
}

/**
 * Prompt × model groups in flight in one process per provider: twice the provider's slots, at
 * least 16. A group between two calls (storing a reply, grading its deterministic points) holds
 * no slot, and with only as many groups as slots those slots would idle meanwhile (16 groups for
 * 20 slots kept 9–10 in flight).
 */
const GROUPS_IN_FLIGHT = 16;
/** Embedding batches in flight in one process per provider (each holds provider calls only while calling). */
const BATCHES_IN_FLIGHT = 4;

/** A unit's key: its step and identity as JSON (unambiguous whatever a prompt key holds; PostgreSQL text holds no NUL). */
const keyOf = (...parts: (string | number)[]) => JSON.stringify(parts);

export const chatKind: RunKind = {
  name: 'chat',
  settled: (deps, runId) => isSettled(deps, runId),
  start: async (deps, runId) => void (await start(deps, runId)),
  open: async (deps, runId, exec): Promise<RunContext> => ({ ...(await loadRunContext(deps.db, runId)), ...exec }),
  async prepare(deps, runId, opened, hooks) {
    const ctx = opened as RunContext;
    if (ctx.mode !== 'batch') return null;
    // the batch rounds first (the same steps, calls answered by provider batches); what they leave goes on live
    return runBatchMode(deps, ctx, { onCell: hooks.onCell, onPoll: hooks.onCell, signal: ctx.signal });
  },
  async plan(deps, runId, opts = {}) {
    const ctx = await loadRunContext(deps.db, runId);
    if (opts.fused) {
      return (await pendingGroupsWithWork(deps, ctx)).map(({ group, work }): LocalUnit => ({
        key: keyOf('group', group.promptKey, group.modelId),
        step: 'group',
        data: { promptKey: group.promptKey, modelId: group.modelId },
        keys: [group.provider],
        local: work,
      }));
    }
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
  async process(deps, runId, unit, opened, hooks = {}) {
    const ctx = opened as RunContext;
    const group = { promptKey: String(unit.data.promptKey), modelId: String(unit.data.modelId) };
    // after batch rounds a unit's calls a batch already answered are answered by their lines (batch-gateway.ts)
    const d = ctx.mode === 'batch' ? { ...deps, gateway: afterBatchGateway(deps.db, deps.gateway) } : deps;
    const opts = { ...(hooks.onCell ? { onCell: hooks.onCell } : {}) };
    if (unit.step === 'generate') await generateGroup(d, ctx, group, opts);
    else if (unit.step === 'judge') await judgeGroup(d, ctx, group, opts);
    else if (unit.step === 'group') await processGroup(d, ctx, group, { ...opts, ...(unit.local ? { work: unit.local as PendingWork } : {}) });
    else throw new Error(`run ${runId}: a chat run has no "${unit.step}" unit`);
  },
  inFlight: (deps, key) => Math.max(GROUPS_IN_FLIGHT, 2 * deps.gateway.maxSlots(key)),
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
  open: async (deps, runId, exec): Promise<RetrievalContext> => ({ ...(await loadRetrievalContext(deps.db, runId)), ...exec }),
  async process(deps, runId, unit, opened) {
    const ctx = opened as RetrievalContext;
    const modelId = String(unit.data.modelId);
    if (unit.step === 'embed') {
      await embedBatch(deps, ctx, { modelId, kind: unit.data.kind as 'document' | 'query', batchIndex: Number(unit.data.batchIndex) });
    } else if (unit.step === 'score') {
      // a model with a failed batch is not scored (the one rule of what is left: pendingRetrieval)
      if ((await pendingRetrieval(deps, ctx, modelId)).score.includes(modelId)) await scoreModel(deps, ctx, modelId);
    } else throw new Error(`run ${runId}: a retrieval run has no "${unit.step}" unit`);
  },
  inFlight: () => BATCHES_IN_FLIGHT,
  finish: (deps, runId, budgetStop) => finishRetrieval(deps, runId, { budgetStop }),
};

export async function kindOf(deps: Pick<RunDeps, 'db'>, runId: string): Promise<RunKind> {
  return (await isRetrievalRun(deps.db, runId)) ? retrievalKind : chatKind;
}

/** The kind a unit belongs to, from its step (a slice needs no query to know it). */
export function kindOfUnit(step: string): RunKind {
  if (step === 'generate' || step === 'judge' || step === 'group') return chatKind;
  if (step === 'embed' || step === 'score') return retrievalKind;
  throw new Error(`no kind of run has a "${step}" unit`);
}
