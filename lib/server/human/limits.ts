/**
 * How much one reviewer may answer: a per-minute rate (a script clicking through the queue is
 * stopped within a minute) and a daily cap (tired labels are poor labels, and a cap bounds what
 * one person can tilt). Verdict labels and pair preferences share both counts.
 */
import type { Db } from '../db/client';
import { RateLimitedError } from '../http/errors';
import { hitRateLimit } from '../auth/rate-limit';

export interface ReviewLimits {
  perMinute: number;
  perDay: number;
}

export const REVIEW_LIMITS: ReviewLimits = { perMinute: 60, perDay: 400 };

const DAY_MS = 24 * 60 * 60 * 1000;

export function startOfUtcDay(now: Date): Date {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
}

/**
 * Counts this answer against the reviewer's minute and refuses it past either limit. The daily
 * count is every answer given today, undone ones too: undoing and answering again is two answers'
 * work, and not counting it would let the cap be stepped around.
 */
export async function enforceReviewLimits(db: Db, userId: string, limits: ReviewLimits, now: Date): Promise<void> {
  const minute = await hitRateLimit(db, `review:${userId}`, { limit: limits.perMinute, windowSeconds: 60 }, now);
  if (!minute.allowed) throw new RateLimitedError(minute.retryAfterSeconds, `You have answered ${limits.perMinute} times this minute, the most a minute allows; try again in ${minute.retryAfterSeconds} s.`);
  const since = startOfUtcDay(now);
  const [labels, pairs] = await Promise.all([
    db.reviewLabel.count({ where: { reviewerId: userId, createdAt: { gte: since } } }),
    db.pairLabel.count({ where: { reviewerId: userId, createdAt: { gte: since } } }),
  ]);
  if (labels + pairs >= limits.perDay) {
    const seconds = Math.max(1, Math.ceil((since.getTime() + DAY_MS - now.getTime()) / 1000));
    const h = Math.floor(seconds / 3600);
    const m = Math.ceil((seconds % 3600) / 60);
    throw new RateLimitedError(seconds, `You have given ${labels + pairs} answers today, the daily limit of ${limits.perDay}; it resets at midnight UTC, in ${h} h ${m} min. Thank you for your work.`);
  }
}
