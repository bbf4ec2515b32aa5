/** POST {action, answer?, flag?}: a reviewer labels, skips or flags a verdict drawn for review (a form post goes back to the review page). */
import { z } from 'zod';
import { isFormPost, route } from '@/lib/server/http';
import { answerReviewItem, formAnswer, queueBlueprintOf, ReviewAnswerBody, reviewerOf } from '@/lib/server/human';
import { authenticate, getDb, reviewLimits } from '@/lib/server/platform';
import { reviewHref } from '@/lib/views/review-view';

export const dynamic = 'force-dynamic';

export const POST = route(
  {
    authenticate: async (request) => reviewerOf(await authenticate(request)),
    params: z.object({ itemId: z.string().min(1).max(200) }),
    body: ReviewAnswerBody,
    response: z.object({ labelId: z.string(), itemId: z.string(), blueprintId: z.string() }),
    formErrorsTo: reviewHref.home,
  },
  async ({ principal, params, body, request }) => {
    const work = () => answerReviewItem(getDb(), { user: principal, itemId: params.itemId, ...body }, reviewLimits());
    if (!isFormPost(request)) return work();
    const blueprintId = await queueBlueprintOf(getDb(), 'items', params.itemId);
    return formAnswer(blueprintId ? reviewHref.items(blueprintId) : reviewHref.home, work);
  },
);
