/**
 * A run's errors grouped by message, most frequent first: failed replies (the provider's own
 * message, e.g. "set OPENAI_API_KEY …") and error verdicts (a judge that did not answer, a
 * `$js` that threw). What `assay run` prints and what a failed run records as its reason.
 *
 * The errors of sealed prompts (`split: test`) count, but their messages are not shown: a
 * judge's unreadable answer or a check's failure can quote the reply, and the run's recorded
 * reason is on its public page. They are one group under a fixed message instead.
 */
import { SEALED_SPLIT } from '@/lib/core';
import type { Db } from '../../db/client';

export interface ErrorCount {
  message: string;
  count: number;
}

export interface RunErrors {
  replies: ErrorCount[];
  verdicts: ErrorCount[];
}

export const SEALED_ERROR_MESSAGE = 'errors in sealed prompts (their messages are not shown)';

export async function runErrors(db: Db, runId: string, opts: { replyRunId?: string; take?: number } = {}): Promise<RunErrors> {
  const take = opts.take ?? 5;
  const replyRunId = opts.replyRunId ?? runId;
  const run = await db.run.findUnique({ where: { id: runId }, select: { versionId: true } });
  const sealed = run ? (await db.versionPrompt.findMany({ where: { versionId: run.versionId, split: SEALED_SPLIT }, select: { promptKey: true } })).map((p) => p.promptKey) : [];
  const open = sealed.length > 0 ? { promptKey: { notIn: sealed } } : {};
  const inSealed = { promptKey: { in: sealed } };
  const [replies, verdicts, sealedReplies, sealedVerdicts] = await Promise.all([
    db.reply.groupBy({ by: ['error'], where: { runId: replyRunId, error: { not: null }, ...open }, _count: { _all: true }, orderBy: { _count: { error: 'desc' } }, take }),
    db.verdict.groupBy({ by: ['detail'], where: { runId, status: 'error', ...open }, _count: { _all: true }, orderBy: { _count: { detail: 'desc' } }, take }),
    sealed.length > 0 ? db.reply.count({ where: { runId: replyRunId, error: { not: null }, ...inSealed } }) : 0,
    sealed.length > 0 ? db.verdict.count({ where: { runId, status: 'error', ...inSealed } }) : 0,
  ]);
  const withSealed = (list: ErrorCount[], count: number) => (count > 0 ? [...list, { message: SEALED_ERROR_MESSAGE, count }].sort((a, b) => b.count - a.count).slice(0, take) : list);
  return {
    replies: withSealed(replies.map((r) => ({ message: r.error ?? '', count: r._count._all })), sealedReplies),
    verdicts: withSealed(verdicts.map((v) => ({ message: v.detail ?? '(no reason recorded)', count: v._count._all })), sealedVerdicts),
  };
}
