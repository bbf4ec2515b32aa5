/**
 * Signing out: only from one of this site's pages. A cross-site form that posts to the
 * sign-out route (logout CSRF) is refused and the session stays. Signing out also deletes the
 * user's stored GitHub token (github-tokens.ts): opening a pull request again needs a new connect.
 */
import type { Db } from '../db/client';
import { readCookie } from '../http/responses';
import { forgetGitHubToken } from './github-tokens';
import { requireSameOrigin } from './principal';
import { endSession, SESSION_COOKIE, sessionUser } from './sessions';

export async function signOut(db: Db, request: Request, publicUrl?: string): Promise<void> {
  requireSameOrigin(request, publicUrl);
  const token = readCookie(request, SESSION_COOKIE);
  const user = await sessionUser(db, token);
  if (user) await forgetGitHubToken(db, user.id);
  await endSession(db, token);
}
