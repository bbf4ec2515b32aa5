/** POST {action, answer?: a | b | tie, flag?}: a reviewer compares a pair of replies, skips or flags it (a form post goes back to the pairs page). */
import { z } from 'zod';
import { isFormPost, route } from '@/lib/server/http';
import { answerPair, formAnswer, queueBlueprintOf, ReviewAnswerBody, reviewerOf } from '@/lib/server/human';
import { authenticate, getDb, reviewLimits } from '@/lib/server/platform';
import { reviewHref } from '@/lib/views/review-view';

export const dynamic = 'force-dynamic';

export const POST = route(
  {
    authenticate: async (request) => reviewerOf(await authenticate(request)),
    params: z.object({ pairId: z.string().min(1).max(200) }),
    body: ReviewAnswerBody,
    response: z.object({ labelId: z.string(), pairId: z.string(), blueprintId: z.string() }),
    formErrorsTo: reviewHref.home,
  },
  async ({ principal, params, body, request }) => {
    const work = () => answerPair(getDb(), { user: principal, pairId: params.pairId, ...body }, reviewLimits());
    if (!isFormPost(request)) return work();
    const blueprintId = await queueBlueprintOf(getDb(), 'pairs', params.pairId);
    return formAnswer(blueprintId ? reviewHref.pairs(blueprintId) : reviewHref.home, work);
  },
);
