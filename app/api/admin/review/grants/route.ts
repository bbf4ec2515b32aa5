/** POST {login, scope, revoke?}: a maintainer grants (or takes away) the reviewer role on a blueprint, or on every blueprint ('*'). */
import { z } from 'zod';
import { isFormPost, route } from '@/lib/server/http';
import { ALL_BLUEPRINTS, adminNotice, checkbox, GitHubLoginSchema, grantReviewer, revokeReviewer, reviewAdminActor } from '@/lib/server/human';
import { authenticateActor, getDb } from '@/lib/server/platform';

export const dynamic = 'force-dynamic';

export const POST = route(
  {
    authenticate: authenticateActor,
    body: z.object({ login: GitHubLoginSchema, scope: z.string().trim().min(1).max(300).default(ALL_BLUEPRINTS), revoke: checkbox }),
    response: z.object({ login: z.string(), scope: z.string(), granted: z.boolean() }),
    formErrorsTo: '/admin',
  },
  async ({ principal, body, request }) => {
    const by = await reviewAdminActor(getDb(), principal);
    const where = body.scope === ALL_BLUEPRINTS ? 'every blueprint' : body.scope;
    if (body.revoke) {
      const { revoked } = await revokeReviewer(getDb(), body);
      if (isFormPost(request)) return adminNotice(revoked ? `${body.login} no longer reviews ${where}.` : `${body.login} had no grant on ${where}.`);
      return { login: body.login, scope: body.scope, granted: false };
    }
    const grant = await grantReviewer(getDb(), { login: body.login, scope: body.scope, by });
    if (isFormPost(request)) return adminNotice(`${grant.login} may review ${where}.`);
    return { login: grant.login, scope: grant.scope, granted: true };
  },
);
