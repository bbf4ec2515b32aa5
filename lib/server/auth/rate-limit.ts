/**
 * Fixed-window rate limits kept in PostgreSQL (rate_limits), so every app instance counts
 * the same requests: one INSERT … ON CONFLICT DO UPDATE … RETURNING per hit, atomic under
 * concurrency. A row counts only inside its own window (the key includes the window's start),
 * and each row carries its window's end: whenever a window starts, every expired row of every
 * key is deleted, so clients that rotate keys cannot grow the table without bound.
 */
import type { Db } from '../db/client';
import { RateLimitedError } from '../http/errors';

export interface RateLimit {
  /** Requests allowed per window. */
  limit: number;
  windowSeconds: number;
}

/** Sign-in attempts per client address: slow enough to make guessing an admin token hopeless. */
export const SIGN_IN_LIMIT: RateLimit = { limit: 10, windowSeconds: 15 * 60 };
/** State-changing admin actions per signed-in principal. */
export const ADMIN_ACTION_LIMIT: RateLimit = { limit: 60, windowSeconds: 60 };

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

export async function hitRateLimit(db: Db, key: string, rule: RateLimit, now = new Date()): Promise<RateLimitResult> {
  const windowMs = rule.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const expiresAt = new Date(windowStart.getTime() + windowMs);
  const rows = await db.$queryRaw<{ count: number }[]>`
    INSERT INTO rate_limits (key, window_start, count, expires_at) VALUES (${key}, ${windowStart}, 1, ${expiresAt})
    ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1
    RETURNING count`;
  const count = Number(rows[0]?.count ?? 1);
  if (count === 1) await deleteExpiredRateLimits(db, now);
  const retryAfterSeconds = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000));
  return { allowed: count <= rule.limit, count, retryAfterSeconds };
}

/** Counts the hit and throws RateLimitedError (HTTP 429 with Retry-After) past the limit. */
export async function enforceRateLimit(db: Db, key: string, rule: RateLimit, now = new Date()): Promise<void> {
  const r = await hitRateLimit(db, key, rule, now);
  if (!r.allowed) throw new RateLimitedError(r.retryAfterSeconds);
}

/** Deletes the rows of every key whose window ended before `now` (an index range scan on expires_at). */
export async function deleteExpiredRateLimits(db: Db, now = new Date()): Promise<number> {
  return (await db.rateLimit.deleteMany({ where: { expiresAt: { lte: now } } })).count;
}
