/** POST {login}: a maintainer removes every live label and pair answer of a reviewer; the figures are made again without them. */
import { z } from 'zod';
import { isFormPost, route } from '@/lib/server/http';
import { adminNotice, GitHubLoginSchema, removeReviewerLabels, reviewAdminActor } from '@/lib/server/human';
import { authenticateActor, getDb } from '@/lib/server/platform';

export const dynamic = 'force-dynamic';

export const POST = route(
  {
    authenticate: authenticateActor,
    body: z.object({ login: GitHubLoginSchema }),
    response: z.object({ labels: z.number(), pairs: z.number() }),
    formErrorsTo: '/admin',
  },
  async ({ principal, body, request }) => {
    const by = await reviewAdminActor(getDb(), principal);
    const removed = await removeReviewerLabels(getDb(), { login: body.login, by });
    if (isFormPost(request)) return adminNotice(`Removed ${removed.labels} label(s) and ${removed.pairs} pair answer(s) of ${body.login}.`);
    return removed;
  },
);
