/**
 * Removing a reviewer's labels (a maintainer found them careless or in bad faith): every live
 * verdict label and pair answer of theirs is marked removed, by whom and when, and counts for
 * nothing from then on; the rows are kept, so the removal can be seen and checked. The figures of
 * every blueprint they had labelled are made again without them.
 */
import type { Db } from '../db/client';
import { NotFoundError } from '../http/errors';
import { scheduleHumanFigures } from './figures';

/** `labels`: the reviewer's answers on verdicts removed (labels, skips and flags); `pairs`: their answers on pairs. */
export async function removeReviewerLabels(db: Db, input: { login: string; by: string }, now = new Date()): Promise<{ labels: number; pairs: number }> {
  const user = await db.user.findFirst({ where: { githubLogin: { equals: input.login.trim(), mode: 'insensitive' } }, select: { id: true }, orderBy: { createdAt: 'asc' } });
  if (!user) throw new NotFoundError(`No user ${input.login}.`);
  const live = { reviewerId: user.id, undoneAt: null, removedAt: null };
  const [items, pairs] = await Promise.all([
    db.reviewLabel.findMany({ where: live, distinct: ['itemId'], select: { item: { select: { blueprintId: true } } } }),
    db.pairLabel.findMany({ where: live, distinct: ['pairId'], select: { pair: { select: { blueprintId: true } } } }),
  ]);
  const [labels, pairLabels] = await db.$transaction([
    db.reviewLabel.updateMany({ where: live, data: { removedAt: now, removedBy: input.by } }),
    db.pairLabel.updateMany({ where: live, data: { removedAt: now, removedBy: input.by } }),
  ]);
  const affected = [...new Set([...items.map((l) => l.item.blueprintId), ...pairs.map((l) => l.pair.blueprintId)])];
  if (affected.length > 0) await scheduleHumanFigures(db, affected);
  return { labels: labels.count, pairs: pairLabels.count };
}
