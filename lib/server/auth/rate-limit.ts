/**
 * Fixed-window rate limits kept in PostgreSQL (rate_limits), so every app instance counts
 * the same requests: one INSERT … ON CONFLICT DO UPDATE … RETURNING per hit, atomic under
 * concurrency. Old windows of the same key are deleted as new ones start.
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
  const rows = await db.$queryRaw<{ count: number }[]>`
    INSERT INTO rate_limits (key, window_start, count) VALUES (${key}, ${windowStart}, 1)
    ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1
    RETURNING count`;
  const count = Number(rows[0]?.count ?? 1);
  if (count === 1) await db.rateLimit.deleteMany({ where: { key, windowStart: { lt: windowStart } } });
  const retryAfterSeconds = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000));
  return { allowed: count <= rule.limit, count, retryAfterSeconds };
}

/** Counts the hit and throws RateLimitedError (HTTP 429 with Retry-After) past the limit. */
export async function enforceRateLimit(db: Db, key: string, rule: RateLimit, now = new Date()): Promise<void> {
  const r = await hitRateLimit(db, key, rule, now);
  if (!r.allowed) throw new RateLimitedError(r.retryAfterSeconds);
}

/** The client's address as the proxy in front reports it (the first X-Forwarded-For hop), for per-client keys. */
export function clientAddress(headers: Headers): string {
  return headers.get('x-forwarded-for')?.split(',')[0]?.trim() || headers.get('x-real-ip') || 'local';
}
