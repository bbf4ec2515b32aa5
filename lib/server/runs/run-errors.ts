/**
 * A run's errors grouped by message, most frequent first: failed replies (the provider's own
 * message, e.g. "set OPENAI_API_KEY …") and error verdicts (a judge that did not answer, a
 * `$js` that threw). What `assay run` prints and what a failed run records as its reason.
 */
import type { Db } from '../db/client';

export interface ErrorCount {
  message: string;
  count: number;
}

export interface RunErrors {
  replies: ErrorCount[];
  verdicts: ErrorCount[];
}

export async function runErrors(db: Db, runId: string, opts: { replyRunId?: string; take?: number } = {}): Promise<RunErrors> {
  const take = opts.take ?? 5;
  const [replies, verdicts] = await Promise.all([
    db.reply.groupBy({ by: ['error'], where: { runId: opts.replyRunId ?? runId, error: { not: null } }, _count: { _all: true }, orderBy: { _count: { error: 'desc' } }, take }),
    db.verdict.groupBy({ by: ['detail'], where: { runId, status: 'error' }, _count: { _all: true }, orderBy: { _count: { detail: 'desc' } }, take }),
  ]);
  return {
    replies: replies.map((r) => ({ message: r.error ?? '', count: r._count._all })),
    verdicts: verdicts.map((v) => ({ message: v.detail ?? '(no reason recorded)', count: v._count._all })),
  };
}
