/**
 * A reviewer's answer on a verdict drawn for review (a label, a skip or a flag), and undoing the
 * last one. Each answer is checked against the item as it is shown now (an answer must be one of
 * its options) and stored with that showing, so what the reviewer saw is on record. Checks that
 * depend on other answers (one live answer per reviewer, no more labels than wanted) are made
 * under a lock on the item, so two reviewers answering at once cannot both take its last place.
 */
import { ReviewActionSchema, ReviewFlagSchema, type ReviewAction, type ReviewFlag } from '@/lib/core';
import type { Prisma } from '@/generated/prisma/client';
import type { Db } from '../db/client';
import { BadRequestError, ConflictError, NotFoundError } from '../http/errors';
import type { ReviewUser } from './grants';
import { enforceReviewLimits, REVIEW_LIMITS, type ReviewLimits } from './limits';
import { requireReviewer, shownReviewItem } from './queue';
import { scheduleHumanFiguresAfterAnswer } from './figures';

export interface AnswerShape<A extends string> {
  action: ReviewAction;
  answer?: A | undefined;
  flag?: string | undefined;
}

/** The action's own fields, and only those: a label needs its answer, a flag its reason. */
export function checkAnswerShape<A extends string>(input: AnswerShape<A>): { action: ReviewAction; answer: A | null; flag: ReviewFlag | null } {
  const action = ReviewActionSchema.safeParse(input.action);
  if (!action.success) throw new BadRequestError(`Unknown action "${String(input.action)}": label, skip or flag.`);
  if (action.data === 'label') {
    if (input.answer === undefined || input.answer === '') throw new BadRequestError('A label needs an answer: one of the options shown.');
    if (input.flag !== undefined) throw new BadRequestError('A label carries no flag: flag the item as its own action.');
    return { action: 'label', answer: input.answer, flag: null };
  }
  if (input.answer !== undefined) throw new BadRequestError(`A ${action.data} carries no answer: send action "label" to answer.`);
  if (action.data === 'flag') {
    const flag = ReviewFlagSchema.safeParse(input.flag);
    if (!flag.success) throw new BadRequestError(`A flag needs its reason: ${ReviewFlagSchema.options.join(' or ')}.`);
    return { action: 'flag', answer: null, flag: flag.data };
  }
  if (input.flag !== undefined) throw new BadRequestError('A skip carries no flag.');
  return { action: 'skip', answer: null, flag: null };
}

export interface ReviewItemAnswer extends AnswerShape<string> {
  user: ReviewUser;
  itemId: string;
}

export async function answerReviewItem(db: Db, input: ReviewItemAnswer, limits: ReviewLimits = REVIEW_LIMITS, now = new Date()): Promise<{ labelId: string; itemId: string; blueprintId: string }> {
  const item = await db.reviewItem.findUnique({ where: { id: input.itemId }, select: { id: true, blueprintId: true } });
  if (!item) throw new NotFoundError(`No review item ${input.itemId}.`);
  await requireReviewer(db, input.user, item.blueprintId);
  const shape = checkAnswerShape(input);
  await enforceReviewLimits(db, input.user.id, limits, now);
  const shown = await shownReviewItem(db, item.id);
  if (!shown) throw new NotFoundError(`Review item ${item.id} can no longer be shown; go on to the next one.`);
  if (shape.action === 'label' && !shown.options.some((o) => o.label === shape.answer)) {
    throw new BadRequestError(`"${shape.answer}" is not one of this question's options: ${shown.options.map((o) => o.label).join(', ')}.`);
  }
  const labelId = await db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ reviewersWanted: number }[]>`SELECT reviewers_wanted AS "reviewersWanted" FROM review_items WHERE id = ${item.id} FOR UPDATE`;
    if (!locked) throw new NotFoundError(`No review item ${item.id}.`);
    const mine = await tx.reviewLabel.count({ where: { itemId: item.id, reviewerId: input.user.id, undoneAt: null, removedAt: null } });
    if (mine > 0) throw new ConflictError('You have already answered this item; undo your last answer to change it.');
    if (shape.action === 'label') {
      const labels = await tx.reviewLabel.count({ where: { itemId: item.id, action: 'label', undoneAt: null, removedAt: null } });
      if (labels >= locked.reviewersWanted) throw new ConflictError('This item already has the labels it needs; go on to the next one.');
    }
    const row = await tx.reviewLabel.create({
      data: { itemId: item.id, reviewerId: input.user.id, action: shape.action, answer: shape.answer, flag: shape.flag, shown: shown as unknown as Prisma.InputJsonValue, createdAt: now },
      select: { id: true },
    });
    return row.id;
  });
  scheduleHumanFiguresAfterAnswer(db, [item.blueprintId]);
  return { labelId, itemId: item.id, blueprintId: item.blueprintId };
}

/**
 * Undoes this reviewer's latest live answer on the blueprint's verdicts: kept, marked undone, and
 * counted for nothing, so the item waits again (first, normally: it has the lowest position).
 */
export async function undoLastReview(db: Db, input: { user: ReviewUser; blueprintId: string }, now = new Date()): Promise<{ itemId: string } | null> {
  await requireReviewer(db, input.user, input.blueprintId);
  const last = await db.reviewLabel.findFirst({
    where: { reviewerId: input.user.id, undoneAt: null, removedAt: null, item: { blueprintId: input.blueprintId } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true, itemId: true },
  });
  if (!last) return null;
  const { count } = await db.reviewLabel.updateMany({ where: { id: last.id, undoneAt: null }, data: { undoneAt: now } });
  if (count > 0) scheduleHumanFiguresAfterAnswer(db, [input.blueprintId]);
  return { itemId: last.itemId };
}
