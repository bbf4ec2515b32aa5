/**
 * The verdict-labelling queue: the next item a reviewer is offered, and the item as shown.
 * Blinded: what is shown is the conversation, the reply and the judge's own question with its
 * options; never the model, the judges or their answers. A sealed prompt is never shown: the
 * queue's SQL leaves sealed prompts out, and the item is checked again as it is built.
 */
import { judgeOptions, judgeStatement, parseStored, ShownReviewItemSchema, StoredPointsSchema, StoredTurnsSchema, type ShownReviewItem } from '@/lib/core';
import type { Db } from '../db/client';
import { redactStored, storedTextRedactor } from '../db/queries/redact-stored';
import { SEALED_SPLIT } from '../db/queries/sealed';
import { ForbiddenError } from '../http/errors';
import { mayReview, type ReviewUser } from './grants';
import { judgeQuestionOf } from './judged-point';
import { waitingIds } from './waiting';

/** Waiting items looked at per request: more than one only so an item that cannot be shown is passed over. */
const LOOKAHEAD = 20;

export function notAReviewer(blueprintId: string): ForbiddenError {
  return new ForbiddenError(`You are not a reviewer of blueprint ${blueprintId}: a maintainer can grant you the role on the admin page.`);
}

export async function requireReviewer(db: Db, user: ReviewUser, blueprintId: string): Promise<void> {
  if (!(await mayReview(db, user, blueprintId))) throw notAReviewer(blueprintId);
}

/** The next item this reviewer is offered on the blueprint (lowest position first), or null when none waits. */
export async function nextReviewItem(db: Db, input: { user: ReviewUser; blueprintId: string }): Promise<ShownReviewItem | null> {
  await requireReviewer(db, input.user, input.blueprintId);
  for (const id of await waitingIds(db, 'items', input.blueprintId, input.user.id, LOOKAHEAD)) {
    const shown = await shownReviewItem(db, id);
    if (shown) return shown;
  }
  return null;
}

/**
 * An item as a reviewer sees it, or null when it cannot be shown: it is gone, or its prompt is
 * sealed in its run's version (which the queue never offers; checked here again so no other
 * path can show one), or its point is no longer a judged one.
 */
export async function shownReviewItem(db: Db, itemId: string): Promise<ShownReviewItem | null> {
  const item = await db.reviewItem.findUnique({
    where: { id: itemId },
    select: { id: true, promptKey: true, pointIndex: true, verdictId: true, runId: true },
  });
  if (!item) return null;
  const run = await db.run.findUnique({ where: { id: item.runId }, select: { versionId: true, blueprint: { select: { title: true } } } });
  if (!run) return null;
  const prompt = await db.versionPrompt.findUnique({
    where: { versionId_promptKey: { versionId: run.versionId, promptKey: item.promptKey } },
    select: { split: true, points: true },
  });
  if (!prompt || prompt.split === SEALED_SPLIT) return null;
  const verdict = await db.verdict.findUnique({
    where: { id: item.verdictId },
    select: { promptKey: true, pointIndex: true, reply: { select: { turns: true, content: true } } },
  });
  if (!verdict || verdict.promptKey !== item.promptKey || verdict.pointIndex !== item.pointIndex) return null;
  const where = `version_prompts (${run.versionId}, ${item.promptKey}).points`;
  const question = judgeQuestionOf(parseStored(StoredPointsSchema, prompt.points, where)[item.pointIndex]);
  if (!question) return null;
  const turns = parseStored(StoredTurnsSchema, verdict.reply.turns, `replies of verdict ${item.verdictId}.turns`);
  const shown = {
    itemId: item.id,
    blueprintTitle: run.blueprint.title,
    // the turns end with the reply itself, as the judge's conversation did not (judge.ts)
    conversation: turns.slice(0, -1),
    reply: verdict.reply.content,
    question,
    statement: judgeStatement(question),
    options: judgeOptions(question),
  };
  return ShownReviewItemSchema.parse(redactStored(shown, storedTextRedactor()));
}
