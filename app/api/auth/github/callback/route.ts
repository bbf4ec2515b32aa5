/** GET ?code&state: GitHub sends the browser back here; open a session for the GitHub login. */
import { z } from 'zod';
import { AppError, readCookie, redirect, route, serializeCookie } from '@/lib/server/http';
import { finishOAuth, OAUTH_STATE_COOKIE } from '@/lib/server/auth/github-oauth';
import { SESSION_COOKIE } from '@/lib/server/auth/sessions';
import { githubServices, oauthConfig, requestClientAddress, secureCookies } from '@/lib/server/platform';

export const dynamic = 'force-dynamic';

export const GET = route(
  { query: z.object({ code: z.string().min(1), state: z.string().min(1) }), response: z.never() },
  async ({ query, request }) => {
    const secure = secureCookies();
    const clearState = serializeCookie(OAUTH_STATE_COOKIE, '', { sameSite: 'Lax', secure, maxAgeSeconds: 0, path: '/api/auth/github' });
    try {
      const session = await finishOAuth(githubServices().db, oauthConfig(), {
        code: query.code,
        state: query.state,
        expectedState: readCookie(request, OAUTH_STATE_COOKIE),
        clientAddress: requestClientAddress(request),
      });
      const cookie = serializeCookie(SESSION_COOKIE, session.token, { sameSite: 'Strict', secure, maxAgeSeconds: (session.expiresAt.getTime() - Date.now()) / 1000 });
      // A page of our own moves on to /admin: a Strict cookie is not sent on a navigation that a
      // cross-site redirect (from GitHub) started, but it is on one this page starts.
      const html = `<!doctype html><meta http-equiv="refresh" content="0;url=/admin"><title>Signed in</title><p>Signed in as ${session.login}. <a href="/admin">Continue to the admin area</a>.</p>`;
      const headers = new Headers({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      headers.append('Set-Cookie', cookie);
      headers.append('Set-Cookie', clearState);
      return new Response(html, { status: 200, headers });
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      return redirect(`/admin/sign-in?error=${encodeURIComponent(e.message)}`, [clearState]);
    }
  },
);
