/** GET ?code&state: GitHub sends the browser back from "connect GitHub"; keep the token (encrypted), sign in, return to /author. */
import { z } from 'zod';
import { AppError, readCookie, redirect, route, serializeCookie } from '@/lib/server/http';
import { finishOAuth, OAUTH_STATE_COOKIE } from '@/lib/server/auth/github-oauth';
import { storeGitHubToken } from '@/lib/server/auth/github-tokens';
import { SESSION_COOKIE } from '@/lib/server/auth/sessions';
import { authorTokenKey } from '@/lib/server/compose/authoring';
import { githubServices, oauthConfig, requestClientAddress, secureCookies } from '@/lib/server/platform';

export const dynamic = 'force-dynamic';

const RETURN_COOKIE = 'assay_connect_return';
const AUTHOR_PATH = /^\/author(?:[/?][^\\\s"'<>]*)?$/;
const NO_CODE = 'GitHub sent no code back (connecting was cancelled or refused on GitHub); connect again';

export const GET = route(
  // GitHub sends no code when the author cancels: back to the workspace, told why (its draft is kept in the browser)
  { query: z.object({ code: z.string({ error: NO_CODE }).min(1, NO_CODE), state: z.string({ error: NO_CODE }).min(1, NO_CODE) }), response: z.never(), pageErrorsTo: '/author' },
  async ({ query, request }) => {
    const secure = secureCookies();
    const clear = [OAUTH_STATE_COOKIE, RETURN_COOKIE].map((name) => serializeCookie(name, '', { sameSite: 'Lax', secure, maxAgeSeconds: 0, path: '/api/auth/github' }));
    const asked = readCookie(request, RETURN_COOKIE) ?? '/author';
    const back = AUTHOR_PATH.test(asked) ? asked : '/author';
    try {
      const db = githubServices().db;
      const session = await finishOAuth(db, oauthConfig(), { code: query.code, state: query.state, expectedState: readCookie(request, OAUTH_STATE_COOKIE), clientAddress: requestClientAddress(request) }, fetch, 'connect');
      await storeGitHubToken(db, authorTokenKey(), session.userId, session.github);
      const cookie = serializeCookie(SESSION_COOKIE, session.token, { sameSite: 'Strict', secure, maxAgeSeconds: (session.expiresAt.getTime() - Date.now()) / 1000 });
      // as in the sign-in callback: a page of our own moves on, so the Strict session cookie is sent
      const href = back.replace(/&/g, '&amp;');
      const html = `<!doctype html><meta http-equiv="refresh" content="0;url=${href}"><title>GitHub connected</title><p>GitHub connected for ${session.login}. <a href="${href}">Back to your draft</a>.</p>`;
      const headers = new Headers({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      headers.append('Set-Cookie', cookie);
      for (const c of clear) headers.append('Set-Cookie', c);
      return new Response(html, { status: 200, headers });
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      const sep = back.includes('?') ? '&' : '?';
      return redirect(`${back}${sep}connectError=${encodeURIComponent(e.message)}`, clear);
    }
  },
);
