/**
 * Sign-in sessions: a random 256-bit token in an httpOnly, SameSite=Strict cookie; only its
 * SHA-256 is stored (sessions.token_hash), so a leaked database does not sign anyone in.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/client';
import type { Role } from '@/generated/prisma/client';

export const SESSION_COOKIE = 'assay_session';
export const SESSION_DAYS = 7;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function createSession(db: Db, userId: string, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + SESSION_DAYS * 86_400_000);
  await db.session.create({ data: { tokenHash: hashToken(token), userId, expiresAt } });
  return { token, expiresAt };
}

export interface SessionUser {
  id: string;
  githubLogin: string;
  role: Role;
}

export async function sessionUser(db: Db, token: string | null | undefined, now = new Date()): Promise<SessionUser | null> {
  if (!token) return null;
  const s = await db.session.findUnique({ where: { tokenHash: hashToken(token) }, select: { expiresAt: true, user: { select: { id: true, githubLogin: true, role: true } } } });
  if (!s || s.expiresAt <= now) return null;
  return s.user;
}

export async function endSession(db: Db, token: string | null | undefined): Promise<void> {
  if (token) await db.session.deleteMany({ where: { tokenHash: hashToken(token) } });
}
