/**
 * The in-process runner: executes a run's steps (generate each cell, judge each reply,
 * summarise) with bounded concurrency, on one machine, for the CLI and the dev server.
 * It is the same step code the Inngest functions run; the database is the journal, so a
 * killed runner restarted on the same run repeats no completed call and stores nothing twice.
 */
import { setMaxListeners } from 'node:events';
import pLimit from 'p-limit';
import { planGenerations, type GenerationCell } from '@/lib/core';
import type { RunDeps } from './deps';
import { RETRYABLE_KINDS } from '../providers';
import { BudgetExceededError, LeaseLostError, RunNotFoundError } from './errors';
import { generateCell, toStored, type StoredReply } from './generate';
import { takeLease, type LeaseBusy } from './lease';
import { judgeReply } from './judge';
import { finishRun, type FinalStatus } from './finish-run';
import { loadRunContext, type RunContext } from './run-context';
import { storableText } from '../db/storable-text';

export interface RunProgress {
  runId: string;
  replies: { done: number; total: number };
  verdicts: { done: number; total: number };
  errors: number;
  costUsd: number;
}

export interface ExecuteOptions {
  /** Cells in flight at once (each holds a provider slot only while calling). */
  inFlight?: number;
  onProgress?: (p: RunProgress) => void;
  /** Told when another worker holds the run's lease (then nothing is done here). */
  onBusy?: (busy: LeaseBusy) => void;
}

export type { FinalStatus } from './finish-run';
/** `busy`: another worker holds the run (or took it over from us); this one did nothing more. */
export type ExecuteStatus = FinalStatus | 'busy';

export const DEFAULT_RUN_DEADLINE_MS = 6 * 60 * 60_000;

/** Marks a run running (first start or resume) and returns its context. */
export async function startRun(deps: RunDeps, runId: string): Promise<RunContext> {
  const run = await deps.db.run.findUnique({ where: { id: runId }, select: { startedAt: true } });
  if (!run) throw new RunNotFoundError(runId);
  await deps.db.run.update({ where: { id: runId }, data: { status: 'running', error: null, ...(run.startedAt ? {} : { startedAt: new Date() }) } });
  return loadRunContext(deps.db, runId);
}

/** The work still to do: cells without a reply, and replies without an attempt score. */
async function pending(deps: RunDeps, ctx: RunContext): Promise<{ generate: GenerationCell[]; judge: StoredReply[] }> {
  if (ctx.replySourceRunId !== ctx.runId) {
    // A rescore grades the parent run's stored replies; it never calls the models.
    const replies = await deps.db.reply.findMany({
      where: { runId: ctx.replySourceRunId, attemptScores: { none: { runId: ctx.runId } } },
      select: { id: true, promptKey: true, modelId: true, content: true, toolCalls: true, turns: true, error: true },
    });
    return { generate: [], judge: replies.filter((r) => ctx.prompts.has(r.promptKey)).map(toStored) };
  }
  const cells = planGenerations(ctx.blueprint, ctx.settings);
  const stored = await deps.db.reply.findMany({
    where: { runId: ctx.runId },
    select: { id: true, promptKey: true, modelId: true, systemIndex: true, temperatureIndex: true, attempt: true, content: true, toolCalls: true, turns: true, error: true, attemptScores: { where: { runId: ctx.runId }, select: { id: true } } },
  });
  const byKey = new Map(stored.map((r) => [[r.promptKey, r.modelId, r.systemIndex, r.temperatureIndex, r.attempt].join('|'), r]));
  const generate: GenerationCell[] = [];
  const judge: StoredReply[] = [];
  for (const cell of cells) {
    const r = byKey.get(cell.key);
    if (!r) generate.push(cell);
    else if (r.attemptScores.length === 0) judge.push(toStored(r));
  }
  return { generate, judge };
}

export async function readProgress(deps: RunDeps, runId: string): Promise<RunProgress> {
  const r = await deps.db.run.findUniqueOrThrow({
    where: { id: runId },
    select: { totalCalls: true, doneCalls: true, totalVerdicts: true, doneVerdicts: true, errorCalls: true, errorVerdicts: true, costUsd: true },
  });
  return {
    runId,
    replies: { done: r.doneCalls, total: r.totalCalls },
    verdicts: { done: r.doneVerdicts, total: r.totalVerdicts },
    errors: r.errorCalls + r.errorVerdicts,
    costUsd: r.costUsd,
  };
}

/**
 * Replies that failed for a reason that may pass (a 5xx, a rate limit, a timeout, a truncated
 * or HTML body) are given another chance when a run is resumed: the reply, its verdicts and its
 * attempt score are removed with the run's counters, so the cell is generated again.
 */
export async function forgetTransientReplies(deps: Pick<RunDeps, 'db'>, runId: string): Promise<number> {
  const kinds = [...RETRYABLE_KINDS];
  const [r] = await deps.db.$queryRaw<{ n: number }[]>`
    WITH gone AS (
      SELECT id FROM replies WHERE run_id = ${runId} AND error IS NOT NULL AND error_kind = ANY(${kinds}::text[])
    ), v AS (
      DELETE FROM verdicts WHERE run_id = ${runId} AND reply_id IN (SELECT id FROM gone) RETURNING status
    ), a AS (
      DELETE FROM attempt_scores WHERE run_id = ${runId} AND reply_id IN (SELECT id FROM gone) RETURNING 1
    ), d AS (
      DELETE FROM replies WHERE id IN (SELECT id FROM gone) RETURNING 1
    ), u AS (
      UPDATE runs SET done_calls = done_calls - (SELECT count(*) FROM d)::int, error_calls = error_calls - (SELECT count(*) FROM d)::int,
                      done_verdicts = done_verdicts - (SELECT count(*) FROM v)::int,
                      error_verdicts = error_verdicts - (SELECT count(*) FROM v WHERE status = 'error')::int
      WHERE id = ${runId} RETURNING 1
    )
    SELECT (SELECT count(*) FROM d)::int AS n, (SELECT count(*) FROM a)::int AS a, (SELECT count(*) FROM u)::int AS u`;
  return r?.n ?? 0;
}

async function hasTransientReplies(deps: RunDeps, runId: string): Promise<boolean> {
  const n = await deps.db.reply.count({ where: { runId, error: { not: null }, errorKind: { in: [...RETRYABLE_KINDS] } } });
  return n > 0;
}

export async function executeRun(deps: RunDeps, runId: string, opts: ExecuteOptions = {}): Promise<ExecuteStatus> {
  const current = await deps.db.run.findUnique({ where: { id: runId }, select: { status: true, trigger: true } });
  if (!current) throw new RunNotFoundError(runId);
  if (current.status === 'completed' && (current.trigger === 'rescore' || !(await hasTransientReplies(deps, runId)))) return 'completed';

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
  const base = await startRun(deps, runId);
  if (base.replySourceRunId === runId) await forgetTransientReplies(deps, runId);
  // Per execution, never cached: the lease this worker holds and the deadline's signal.
  const ctx: RunContext = { ...base, ...execution };
  const work = await pending(deps, ctx);
  const gate = pLimit(opts.inFlight ?? 64);
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

  const step = async (fn: () => Promise<void>) =>
    gate(async () => {
      if (budgetStop || leaseLost) return;
      try {
        await fn();
      } catch (e) {
        if (e instanceof BudgetExceededError) budgetStop = e;
        else if (e instanceof LeaseLostError) leaseLost = e;
        else throw e;
      }
      await report();
    });

  try {
    await Promise.all([
      ...work.judge.map((reply) => step(async () => void (await judgeReply(deps, ctx, reply, { fresh: true })))),
      ...work.generate.map((cell) =>
        step(async () => {
          const reply = await generateCell(deps, ctx, cell, { fresh: true });
          await judgeReply(deps, ctx, reply, { fresh: true });
        }),
      ),
    ]);
  } catch (e) {
    // A defect or a lost database: the run stays resumable; record why it stopped.
    await deps.db.run.update({ where: { id: runId }, data: { status: 'failed', error: storableText((e as Error).message) } }).catch(() => {});
    throw e;
  }
  // Another worker has the run now: it finishes it; this one must not touch its status.
  if (leaseLost) return 'busy';
  await report(true);
  // The end is decided from what the run stored (finish-run.ts), as under Inngest.
  return finishRun(deps, runId, { budgetStop: budgetStop ? (budgetStop as BudgetExceededError).reason : null });
}
