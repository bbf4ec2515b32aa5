/**
 * A reviewer's answer on a pair (A, B or a tie as shown; a skip or a flag), and undoing the last
 * one. The answer is stored as shown together with the model shown first, so the preferred model
 * is known without trusting the form to say which reply was which. Same limits as verdict labels
 * (one count for both), same lock on the pair while checking its places.
 */
import type { Prisma } from '@/generated/prisma/client';
import type { Db } from '../db/client';
import { BadRequestError, ConflictError, NotFoundError } from '../http/errors';
import type { ReviewUser } from './grants';
import { checkAnswerShape, type AnswerShape } from './answers';
import { enforceReviewLimits, REVIEW_LIMITS, type ReviewLimits } from './limits';
import { shownPair } from './pair-queue';
import { PairAnswerSchema, type PairAnswer } from './preference';
import { requireReviewer } from './queue';
import { scheduleHumanFiguresAfterAnswer } from './figures';

export interface PairAnswerInput extends AnswerShape<string> {
  user: ReviewUser;
  pairId: string;
}

export async function answerPair(db: Db, input: PairAnswerInput, limits: ReviewLimits = REVIEW_LIMITS, now = new Date()): Promise<{ labelId: string; pairId: string; blueprintId: string }> {
  const pair = await db.pairItem.findUnique({ where: { id: input.pairId }, select: { id: true, blueprintId: true } });
  if (!pair) throw new NotFoundError(`No pair ${input.pairId}.`);
  await requireReviewer(db, input.user, pair.blueprintId);
  const shape = checkAnswerShape(input);
  let answer: PairAnswer | null = null;
  if (shape.action === 'label') {
    const parsed = PairAnswerSchema.safeParse(shape.answer);
    if (!parsed.success) throw new BadRequestError(`"${shape.answer}" is not an answer to a pair: a (the first reply), b (the second) or tie.`);
    answer = parsed.data;
  }
  await enforceReviewLimits(db, input.user.id, limits, now);
  const shown = await shownPair(db, pair.id, input.user.id);
  if (!shown) throw new NotFoundError(`Pair ${pair.id} can no longer be shown; go on to the next one.`);
  const labelId = await db.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<{ reviewersWanted: number }[]>`SELECT reviewers_wanted AS "reviewersWanted" FROM pair_items WHERE id = ${pair.id} FOR UPDATE`;
    if (!locked) throw new NotFoundError(`No pair ${pair.id}.`);
    const mine = await tx.pairLabel.count({ where: { pairId: pair.id, reviewerId: input.user.id, undoneAt: null, removedAt: null } });
    if (mine > 0) throw new ConflictError('You have already answered this pair; undo your last answer to change it.');
    if (shape.action === 'label') {
      const labels = await tx.pairLabel.count({ where: { pairId: pair.id, action: 'label', undoneAt: null, removedAt: null } });
      if (labels >= locked.reviewersWanted) throw new ConflictError('This pair already has the answers it needs; go on to the next one.');
    }
    const row = await tx.pairLabel.create({
      data: { pairId: pair.id, reviewerId: input.user.id, action: shape.action, shownFirst: shown.shownFirst, answer, flag: shape.flag, shown: shown.shown as unknown as Prisma.InputJsonValue, createdAt: now },
      select: { id: true },
    });
    return row.id;
  });
  scheduleHumanFiguresAfterAnswer(db, [pair.blueprintId]);
  return { labelId, pairId: pair.id, blueprintId: pair.blueprintId };
}

/** Undoes this reviewer's latest live answer on the blueprint's pairs (kept, marked undone), so the pair waits again. */
export async function undoLastPair(db: Db, input: { user: ReviewUser; blueprintId: string }, now = new Date()): Promise<{ pairId: string } | null> {
  await requireReviewer(db, input.user, input.blueprintId);
  const last = await db.pairLabel.findFirst({
    where: { reviewerId: input.user.id, undoneAt: null, removedAt: null, pair: { blueprintId: input.blueprintId } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true, pairId: true },
  });
  if (!last) return null;
  const { count } = await db.pairLabel.updateMany({ where: { id: last.id, undoneAt: null }, data: { undoneAt: now } });
  if (count > 0) scheduleHumanFiguresAfterAnswer(db, [input.blueprintId]);
  return { pairId: last.pairId };
}
