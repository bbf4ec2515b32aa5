/** GET ?code&state: GitHub sends the browser back here; open a session for the GitHub login and go where sign-in started from. */
import { z } from 'zod';
import { AppError, readCookie, redirect, route, serializeCookie } from '@/lib/server/http';
import { finishOAuth, OAUTH_STATE_COOKIE, SIGN_IN_RETURN_COOKIE, signInReturnPath } from '@/lib/server/auth/github-oauth';
import { SESSION_COOKIE } from '@/lib/server/auth/sessions';
import { githubServices, oauthConfig, requestClientAddress, secureCookies } from '@/lib/server/platform';

export const dynamic = 'force-dynamic';

const NO_CODE = 'GitHub sent no sign-in code back (the sign-in was cancelled or refused on GitHub); sign in again';

export const GET = route(
  // GitHub sends no code when the user cancels or the app refuses: the reader lands on the sign-in page, told why
  { query: z.object({ code: z.string({ error: NO_CODE }).min(1, NO_CODE), state: z.string({ error: NO_CODE }).min(1, NO_CODE) }), response: z.never(), pageErrorsTo: '/admin/sign-in' },
  async ({ query, request }) => {
    const secure = secureCookies();
    const clear = [OAUTH_STATE_COOKIE, SIGN_IN_RETURN_COOKIE].map((name) => serializeCookie(name, '', { sameSite: 'Lax', secure, maxAgeSeconds: 0, path: '/api/auth/github' }));
    const back = signInReturnPath(readCookie(request, SIGN_IN_RETURN_COOKIE));
    const toAuthor = back.startsWith('/author');
    try {
      const session = await finishOAuth(githubServices().db, oauthConfig(), {
        code: query.code,
        state: query.state,
        expectedState: readCookie(request, OAUTH_STATE_COOKIE),
        clientAddress: requestClientAddress(request),
      });
      const cookie = serializeCookie(SESSION_COOKIE, session.token, { sameSite: 'Strict', secure, maxAgeSeconds: (session.expiresAt.getTime() - Date.now()) / 1000 });
      // A page of our own moves on (to /admin, or the draft sign-in started from): a Strict cookie is
      // not sent on a navigation that a cross-site redirect (from GitHub) started, but it is on one this page starts.
      const href = back.replace(/&/g, '&amp;');
      const html = `<!doctype html><meta http-equiv="refresh" content="0;url=${href}"><title>Signed in</title><p>Signed in as ${session.login}. <a href="${href}">${toAuthor ? 'Back to your draft' : 'Continue to the admin area'}</a>.</p>`;
      const headers = new Headers({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      headers.append('Set-Cookie', cookie);
      for (const c of clear) headers.append('Set-Cookie', c);
      return new Response(html, { status: 200, headers });
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      // an author who started from a draft goes back to it (the workspace shows the message); anyone else to the sign-in page
      const to = toAuthor ? `${back}${back.includes('?') ? '&' : '?'}error=` : '/admin/sign-in?error=';
      return redirect(`${to}${encodeURIComponent(e.message)}`, clear);
    }
  },
);
