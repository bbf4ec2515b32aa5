/**
 * Signing out: only from one of this site's pages. A cross-site form that posts to the
 * sign-out route (logout CSRF) is refused and the session stays.
 */
import type { Db } from '../db/client';
import { readCookie } from '../http/responses';
import { requireSameOrigin } from './principal';
import { endSession, SESSION_COOKIE } from './sessions';

export async function signOut(db: Db, request: Request, publicUrl?: string): Promise<void> {
  requireSameOrigin(request, publicUrl);
  await endSession(db, readCookie(request, SESSION_COOKIE));
}
