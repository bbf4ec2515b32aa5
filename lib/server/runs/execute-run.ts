/**
 * The in-process runner: executes a run's steps (generate each cell, judge each reply,
 * summarise) with bounded concurrency, on one machine, for the CLI and the dev server.
 * It is the same step code the Inngest functions run; the database is the journal, so a
 * killed runner restarted on the same run repeats no completed call and stores nothing twice.
 */
import pLimit from 'p-limit';
import { planGenerations, type GenerationCell } from '@/lib/core';
import type { RunDeps } from './deps';
import { BudgetExceededError, RunNotFoundError } from './errors';
import { generateCell, toStored, type StoredReply } from './generate';
import { judgeReply } from './judge';
import { finishRun, type FinalStatus } from './finish-run';
import { loadRunContext, type RunContext } from './run-context';

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
}

export type { FinalStatus } from './finish-run';

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

export async function executeRun(deps: RunDeps, runId: string, opts: ExecuteOptions = {}): Promise<FinalStatus> {
  const current = await deps.db.run.findUnique({ where: { id: runId }, select: { status: true } });
  if (!current) throw new RunNotFoundError(runId);
  if (current.status === 'completed') return 'completed';
  const ctx = await startRun(deps, runId);
  const work = await pending(deps, ctx);
  const gate = pLimit(opts.inFlight ?? 64);
  let budgetStop: BudgetExceededError | null = null;
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
      if (budgetStop) return;
      try {
        await fn();
      } catch (e) {
        if (e instanceof BudgetExceededError) budgetStop = e;
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
    await deps.db.run.update({ where: { id: runId }, data: { status: 'failed', error: (e as Error).message } }).catch(() => {});
    throw e;
  }
  await report(true);
  // The end is decided from what the run stored (finish-run.ts), as under Inngest.
  return finishRun(deps, runId, { budgetStop: budgetStop ? (budgetStop as BudgetExceededError).reason : null });
}
