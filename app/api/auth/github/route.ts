/**
 * GET ?returnTo=/author…: start signing in with GitHub (the OAuth web flow), coming back to
 * `returnTo` (default /admin). A browser comes here by a link, so a refusal lands on the sign-in page.
 */
import { z } from 'zod';
import { redirect, route, serializeCookie } from '@/lib/server/http';
import { OAUTH_STATE_COOKIE, SIGN_IN_RETURN_COOKIE, signInReturnPath, startOAuth } from '@/lib/server/auth/github-oauth';
import { oauthConfig, secureCookies } from '@/lib/server/platform';

export const dynamic = 'force-dynamic';

export const GET = route({ query: z.object({ returnTo: z.string().optional() }), response: z.never(), pageErrorsTo: '/admin/sign-in' }, async ({ query }) => {
  const { location, state } = startOAuth(oauthConfig());
  // Lax, not Strict: the browser must send them back on the redirect from GitHub (a cross-site navigation)
  const lax = { sameSite: 'Lax' as const, secure: secureCookies(), maxAgeSeconds: 600, path: '/api/auth/github' };
  return redirect(location, [serializeCookie(OAUTH_STATE_COOKIE, state, lax), serializeCookie(SIGN_IN_RETURN_COOKIE, signInReturnPath(query.returnTo), lax)]);
});
