/**
 * GET ?returnTo=/author…: connect GitHub to open pull requests — the OAuth web flow asking for
 * `public_repo` on top of `read:user` (only here, only when an author wants a pull request).
 */
import { z } from 'zod';
import { AppError, redirect, route, serializeCookie } from '@/lib/server/http';
import { OAUTH_STATE_COOKIE, startOAuth } from '@/lib/server/auth/github-oauth';
import { authorTokenKey } from '@/lib/server/compose/authoring';
import { oauthConfig, secureCookies } from '@/lib/server/platform';

export const dynamic = 'force-dynamic';

/** Where to come back to; read by callback/connect. */
const CONNECT_RETURN_COOKIE = 'assay_connect_return';

export const GET = route(
  // only back to the author workspace: an open redirect would let any site bounce users through ours
  // a browser comes here by a link: a refusal (connecting not configured) goes back to the workspace, which shows it
  { query: z.object({ returnTo: z.string().regex(/^\/author(?:[/?][^\\\s]*)?$/, 'must be a path under /author').default('/author') }), response: z.never(), pageErrorsTo: '/author' },
  async ({ query }) => {
    let started: ReturnType<typeof startOAuth>;
    try {
      authorTokenKey(); // refused before the trip to GitHub when tokens cannot be stored
      started = startOAuth(oauthConfig(), 'connect');
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      const sep = query.returnTo.includes('?') ? '&' : '?';
      return redirect(`${query.returnTo}${sep}connectError=${encodeURIComponent(e.message)}`);
    }
    const { location, state } = started;
    const lax = { sameSite: 'Lax' as const, secure: secureCookies(), maxAgeSeconds: 600, path: '/api/auth/github' };
    return redirect(location, [serializeCookie(OAUTH_STATE_COOKIE, state, lax), serializeCookie(CONNECT_RETURN_COOKIE, query.returnTo, lax)]);
  },
);
