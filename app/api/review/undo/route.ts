/** POST {blueprintId, kind: verdicts | pairs}: a reviewer undoes their latest answer, which is then offered again. */
import { z } from 'zod';
import { isFormPost, route } from '@/lib/server/http';
import { BlueprintIdField, formAnswer, ReviewQueueKindSchema, reviewerOf, undoLastPair, undoLastReview } from '@/lib/server/human';
import { authenticate, getDb } from '@/lib/server/platform';
import { reviewHref } from '@/lib/views/review-view';

export const dynamic = 'force-dynamic';

export const POST = route(
  {
    authenticate: async (request) => reviewerOf(await authenticate(request)),
    body: z.object({ blueprintId: BlueprintIdField, kind: ReviewQueueKindSchema }),
    response: z.object({ undone: z.string().nullable() }),
    formErrorsTo: reviewHref.home,
  },
  async ({ principal, body, request }) => {
    const input = { user: principal, blueprintId: body.blueprintId };
    const work = async () => ({ undone: body.kind === 'pairs' ? ((await undoLastPair(getDb(), input))?.pairId ?? null) : ((await undoLastReview(getDb(), input))?.itemId ?? null) });
    if (!isFormPost(request)) return work();
    return formAnswer(body.kind === 'pairs' ? reviewHref.pairs(body.blueprintId) : reviewHref.items(body.blueprintId), work);
  },
);
