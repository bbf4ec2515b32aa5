/**
 * Telling GitHub's rate limits apart from refusals. GitHub answers both with 403 (or 429), so
 * the status alone says nothing; its documentation names the signs
 * (https://docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api, "Exceeding the rate limit"):
 * a primary limit has `x-ratelimit-remaining: 0` and resets at `x-ratelimit-reset` (epoch
 * seconds); a secondary limit says so in its message ("You have exceeded a secondary rate
 * limit") and may carry `retry-after` (seconds) — without it, wait at least a minute.
 * Unauthenticated clients get 60 requests an hour (`x-ratelimit-limit: 60`).
 */
export interface GitHubRateLimit {
  kind: 'primary' | 'secondary';
  resetAt: Date;
  /** GitHub's hourly limit for this client, when it said (60 = unauthenticated). */
  limit: number | null;
}

interface ErrorLike {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | number | undefined>; data?: unknown };
}

/** A thrown Octokit error as a rate limit, or null when it is something else. */
export function rateLimitOf(e: unknown, now: Date): GitHubRateLimit | null {
  const err = (e ?? {}) as ErrorLike;
  if (err.status !== 403 && err.status !== 429) return null;
  const headers = err.response?.headers ?? {};
  const header = (name: string) => (headers[name] === undefined ? NaN : Number(headers[name]));
  const message = `${err.message ?? ''} ${(err.response?.data as { message?: string } | undefined)?.message ?? ''}`;
  const limit = Number.isFinite(header('x-ratelimit-limit')) ? header('x-ratelimit-limit') : null;
  const retryAfter = header('retry-after');
  const reset = header('x-ratelimit-reset');
  const secondary = /secondary rate limit/i.test(message);
  if (header('x-ratelimit-remaining') === 0 && !secondary) {
    return { kind: 'primary', resetAt: Number.isFinite(reset) && reset > 0 ? new Date(reset * 1000) : new Date(now.getTime() + 60_000), limit };
  }
  if (secondary || Number.isFinite(retryAfter) || err.status === 429) {
    return { kind: 'secondary', resetAt: new Date(now.getTime() + (Number.isFinite(retryAfter) ? retryAfter : 60) * 1000), limit };
  }
  return null;
}

/** "until 10:42:07 UTC (in 95 s)" */
export function untilReset(limit: GitHubRateLimit, now: Date): { seconds: number; text: string } {
  const seconds = Math.max(1, Math.ceil((limit.resetAt.getTime() - now.getTime()) / 1000));
  return { seconds, text: `until ${limit.resetAt.toISOString().slice(11, 19)} UTC (in ${seconds} s)` };
}
