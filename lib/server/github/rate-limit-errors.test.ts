/**
 * GitHub's 403s told apart as its rate-limit documentation describes them: a primary limit
 * (x-ratelimit-remaining 0, reset at x-ratelimit-reset), a secondary one (its message, retry-after,
 * or a minute without one), and a refusal that is neither (a missing scope), which stays a refusal.
 */
import { describe, expect, it } from 'vitest';
import { rateLimitOf, untilReset } from './rate-limit-errors';

const now = new Date('2026-12-06T10:00:00Z');
const err = (status: number, headers: Record<string, string>, message = 'Forbidden') => ({ status, message, response: { headers, data: { message } } });

describe('rateLimitOf', () => {
  it('reads a primary limit from x-ratelimit-remaining 0 and its reset', () => {
    const reset = now.getTime() / 1000 + 600;
    expect(rateLimitOf(err(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset), 'x-ratelimit-limit': '60' }, 'API rate limit exceeded for 1.2.3.4.'), now)).toEqual({ kind: 'primary', resetAt: new Date(reset * 1000), limit: 60 });
  });

  it('reads a secondary limit from its message and retry-after, even with budget left and a scopes header', () => {
    const e = err(403, { 'x-ratelimit-remaining': '4990', 'retry-after': '30', 'x-accepted-oauth-scopes': 'repo' }, 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.');
    expect(rateLimitOf(e, now)).toEqual({ kind: 'secondary', resetAt: new Date(now.getTime() + 30_000), limit: null });
    // without retry-after GitHub asks for at least a minute
    expect(rateLimitOf(err(429, {}, 'You have exceeded a secondary rate limit.'), now)?.resetAt).toEqual(new Date(now.getTime() + 60_000));
  });

  it('leaves a refusal that is no rate limit alone', () => {
    expect(rateLimitOf(err(403, { 'x-ratelimit-remaining': '4990', 'x-accepted-oauth-scopes': 'public_repo, repo' }, 'Resource not accessible by integration'), now)).toBeNull();
    expect(rateLimitOf(err(404, { 'x-ratelimit-remaining': '0' }), now)).toBeNull();
    expect(rateLimitOf(new Error('socket hang up'), now)).toBeNull();
  });

  it('says until when, in UTC and seconds', () => {
    expect(untilReset({ kind: 'secondary', resetAt: new Date(now.getTime() + 95_000), limit: null }, now)).toEqual({ seconds: 95, text: 'until 10:01:35 UTC (in 95 s)' });
  });
});
