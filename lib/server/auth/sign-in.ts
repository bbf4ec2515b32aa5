/**
 * Signing in to the admin area with the admin token: rate-limited per client address,
 * constant-time compared, and turned into a session of the built-in `~admin` user (a name
 * GitHub logins cannot take, so no GitHub account can become it).
 */
import type { Db } from '../db/client';
import { UnauthorizedError } from '../http/errors';
import { isAdminToken } from './principal';
import { enforceRateLimit, SIGN_IN_LIMIT } from './rate-limit';
import { createSession } from './sessions';

export const ADMIN_USER_LOGIN = '~admin';

export async function signInWithAdminToken(db: Db, configured: string | undefined, presented: string, clientAddress: string): Promise<{ token: string; expiresAt: Date }> {
  await enforceRateLimit(db, `sign-in:${clientAddress}`, SIGN_IN_LIMIT);
  if (!configured) throw new UnauthorizedError('Admin-token sign-in is disabled: set ASSAY_ADMIN_TOKEN, or sign in with GitHub.');
  if (!isAdminToken(presented, configured)) throw new UnauthorizedError('That is not the admin token.');
  const user = await db.user.upsert({
    where: { githubLogin: ADMIN_USER_LOGIN },
    create: { githubLogin: ADMIN_USER_LOGIN, name: 'Admin (token)', role: 'admin' },
    update: { role: 'admin' },
  });
  return createSession(db, user.id);
}
