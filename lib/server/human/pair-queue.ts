/**
 * The pair-comparison queue: the next pair a reviewer is offered, shown as two anonymous replies.
 * Which model's reply is shown as A is decided by a hash of the pair and the reviewer: the
 * server knows the order it showed without trusting the form to say it, each reviewer always
 * sees a pair the same way round, and across reviewers the order is as good as random, so a
 * habit of preferring the first reply shown does not favour either model.
 */
import { createHash } from 'node:crypto';
import { parseStored, ShownPairSchema, StoredTurnsSchema, type ShownPair } from '@/lib/core';
import type { Db } from '../db/client';
import { redactStored, storedTextRedactor } from '../db/queries/redact-stored';
import { SEALED_SPLIT } from '../db/queries/sealed';
import type { ReviewUser } from './grants';
import { requireReviewer } from './queue';
import { waitingIds } from './waiting';

const LOOKAHEAD = 20;

/** True when this reviewer is shown the pair's model B first (as A). */
export function shownSwapped(pairId: string, userId: string): boolean {
  return (createHash('sha256').update(`${pairId}\u0000${userId}`).digest()[0]! & 1) === 1;
}

export async function nextPair(db: Db, input: { user: ReviewUser; blueprintId: string }): Promise<ShownPair | null> {
  await requireReviewer(db, input.user, input.blueprintId);
  for (const id of await waitingIds(db, 'pairs', input.blueprintId, input.user.id, LOOKAHEAD)) {
    const shown = await shownPair(db, id, input.user.id);
    if (shown) return shown.shown;
  }
  return null;
}

/**
 * The pair as this reviewer sees it, and the model whose reply is shown as A; null when it cannot
 * be shown (gone, or its prompt sealed in the run's version: never offered, checked here again).
 */
export async function shownPair(db: Db, pairId: string, userId: string): Promise<{ shown: ShownPair; shownFirst: string } | null> {
  const pair = await db.pairItem.findUnique({ where: { id: pairId }, select: { id: true, runId: true, promptKey: true, modelA: true, modelB: true, replyAId: true, replyBId: true } });
  if (!pair) return null;
  const run = await db.run.findUnique({ where: { id: pair.runId }, select: { versionId: true, blueprint: { select: { title: true } } } });
  if (!run) return null;
  const prompt = await db.versionPrompt.findUnique({ where: { versionId_promptKey: { versionId: run.versionId, promptKey: pair.promptKey } }, select: { split: true } });
  if (!prompt || prompt.split === SEALED_SPLIT) return null;
  const replies = await db.reply.findMany({ where: { id: { in: [pair.replyAId, pair.replyBId] } }, select: { id: true, promptKey: true, modelId: true, content: true, turns: true } });
  const a = replies.find((r) => r.id === pair.replyAId);
  const b = replies.find((r) => r.id === pair.replyBId);
  if (!a || !b || a.promptKey !== pair.promptKey || b.promptKey !== pair.promptKey || a.modelId !== pair.modelA || b.modelId !== pair.modelB) return null;
  const [first, second] = shownSwapped(pair.id, userId) ? [b, a] : [a, b];
  const turns = parseStored(StoredTurnsSchema, first.turns, `replies ${first.id}.turns`);
  const shown = {
    pairId: pair.id,
    blueprintTitle: run.blueprint.title,
    // the same conversation led to both replies (drawPairs made sure); the turns end with the reply itself
    conversation: turns.slice(0, -1),
    replyA: first.content,
    replyB: second.content,
  };
  return { shown: ShownPairSchema.parse(redactStored(shown, storedTextRedactor())), shownFirst: first.modelId };
}
