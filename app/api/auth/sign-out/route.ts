/** POST: end this browser's session (only from this site's own pages: the Origin is checked). */
import { z } from 'zod';
import { redirect, route, serializeCookie } from '@/lib/server/http';
import { SESSION_COOKIE } from '@/lib/server/auth/sessions';
import { signOut } from '@/lib/server/auth/sign-out';
import { githubServices, publicUrl, secureCookies } from '@/lib/server/platform';

export const dynamic = 'force-dynamic';

// the admin page's button is a form: a refusal goes back to it, said in a banner
export const POST = route({ response: z.never(), formErrorsTo: '/admin' }, async ({ request }) => {
  await signOut(githubServices().db, request, publicUrl());
  return redirect('/admin/sign-in', [serializeCookie(SESSION_COOKIE, '', { sameSite: 'Strict', secure: secureCookies(), maxAgeSeconds: 0 })]);
});
