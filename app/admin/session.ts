/** The signed-in user of a page request (the session cookie), for the admin pages. */
import { cookies } from 'next/headers';
import { getDb } from '@/lib/server/compose/database';
import { SESSION_COOKIE, sessionUser, type SessionUser } from '@/lib/server/auth/sessions';

export async function currentUser(): Promise<SessionUser | null> {
  const token = (await cookies()).get(SESSION_COOKIE)?.value;
  return sessionUser(getDb(), token);
}
