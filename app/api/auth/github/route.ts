/** GET: start signing in with GitHub (the OAuth web flow). */
import { z } from 'zod';
import { redirect, route, serializeCookie } from '@/lib/server/http';
import { OAUTH_STATE_COOKIE, startOAuth } from '@/lib/server/auth/github-oauth';
import { oauthConfig, secureCookies } from '@/lib/server/platform';

export const dynamic = 'force-dynamic';

export const GET = route({ response: z.never() }, async () => {
  const { location, state } = startOAuth(oauthConfig());
  // Lax, not Strict: the browser must send it back on the redirect from GitHub (a cross-site navigation)
  return redirect(location, [serializeCookie(OAUTH_STATE_COOKIE, state, { sameSite: 'Lax', secure: secureCookies(), maxAgeSeconds: 600, path: '/api/auth/github' })]);
});
