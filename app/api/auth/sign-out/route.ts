/** POST: end this browser's session. */
import { z } from 'zod';
import { readCookie, redirect, route, serializeCookie } from '@/lib/server/http';
import { endSession, SESSION_COOKIE } from '@/lib/server/auth/sessions';
import { githubServices, secureCookies } from '@/lib/server/platform';

export const dynamic = 'force-dynamic';

export const POST = route({ response: z.never() }, async ({ request }) => {
  await endSession(githubServices().db, readCookie(request, SESSION_COOKIE));
  return redirect('/admin/sign-in', [serializeCookie(SESSION_COOKIE, '', { sameSite: 'Strict', secure: secureCookies(), maxAgeSeconds: 0 })]);
});
