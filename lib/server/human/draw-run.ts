/**
 * Which run a draw (of verdicts to label, or of pairs to compare) is made from: the one asked
 * for, which must be a completed run of the blueprint, or else the blueprint's latest completed
 * run. A try-it draft run is its author's alone and is never drawn from.
 */
import { replySourceOf } from '@/lib/core';
import type { Db } from '../db/client';
import { ConflictError, NotFoundError } from '../http/errors';

export interface DrawRun {
  id: string;
  versionId: string;
  /** The run whose replies it graded: itself, or for a rescore the run it re-graded (replySourceOf). */
  replyRunId: string;
  replyVersionId: string;
}

const SELECT = { id: true, versionId: true, blueprintId: true, status: true, draft: true, trigger: true, parentRunId: true } as const;

async function withReplySource(db: Db, run: { id: string; versionId: string; trigger: string; parentRunId: string | null }): Promise<DrawRun> {
  const replyRunId = replySourceOf(run);
  if (replyRunId === run.id) return { id: run.id, versionId: run.versionId, replyRunId, replyVersionId: run.versionId };
  const source = await db.run.findUnique({ where: { id: replyRunId }, select: { versionId: true } });
  if (!source) throw new ConflictError(`Run ${run.id} re-graded run ${replyRunId}, which is gone: draw from another run.`);
  return { id: run.id, versionId: run.versionId, replyRunId, replyVersionId: source.versionId };
}

export async function runToDrawFrom(db: Db, blueprintId: string, runId?: string): Promise<DrawRun> {
  const blueprint = await db.blueprint.findUnique({ where: { id: blueprintId }, select: { id: true } });
  if (!blueprint) throw new NotFoundError(`No blueprint ${blueprintId}: check the id on the blueprint's page.`);
  if (runId !== undefined) {
    const run = await db.run.findUnique({ where: { id: runId }, select: SELECT });
    if (!run || run.blueprintId !== blueprintId) throw new NotFoundError(`Run ${runId} is not a run of blueprint ${blueprintId}.`);
    if (run.draft) throw new ConflictError(`Run ${runId} is a try-it run of an author's draft: choose a run of the published blueprint.`);
    if (run.status !== 'completed') throw new ConflictError(`Run ${runId} is ${run.status}: draw from a completed run, whose verdicts are all in.`);
    return withReplySource(db, run);
  }
  const latest = await db.run.findFirst({
    where: { blueprintId, status: 'completed', draft: false },
    orderBy: { createdAt: 'desc' },
    select: SELECT,
  });
  if (!latest) throw new ConflictError(`Blueprint ${blueprintId} has no completed run to draw from: run it first.`);
  return withReplySource(db, latest);
}
