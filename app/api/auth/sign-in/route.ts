/** POST (form) {token}: sign in to the admin area with the admin token. */
import { z } from 'zod';
import { redirect, route, serializeCookie } from '@/lib/server/http';
import { signInWithAdminToken } from '@/lib/server/auth/sign-in';
import { SESSION_COOKIE } from '@/lib/server/auth/sessions';
import { adminToken, githubServices, requestClientAddress, secureCookies } from '@/lib/server/platform';

export const dynamic = 'force-dynamic';

export const POST = route(
  { body: z.object({ token: z.string().min(1, 'enter the admin token') }), response: z.never(), formErrorsTo: '/admin/sign-in', maxBodyBytes: 4096 },
  async ({ body, request }) => {
    const session = await signInWithAdminToken(githubServices().db, adminToken(), body.token, requestClientAddress(request));
    return redirect('/admin', [serializeCookie(SESSION_COOKIE, session.token, { sameSite: 'Strict', secure: secureCookies(), maxAgeSeconds: (session.expiresAt.getTime() - Date.now()) / 1000 })]);
  },
);
