import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { RateLimitedError } from '../http/errors';
import { enforceRateLimit, hitRateLimit } from './rate-limit';

let t: TestDatabase;
beforeAll(async () => {
  t = await freshDatabase();
});
afterAll(async () => t?.close());

const rule = { limit: 3, windowSeconds: 60 };
const at = (s: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, s));

describe(`rate limits in PostgreSQL (${process.env.ASSAY_TEST_DB})`, () => {
  it('allows the limit within a window, refuses past it with the seconds left, and starts again in the next window', async () => {
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await hitRateLimit(t.db, 'k1', rule, at(10)));
    expect(results.map((r) => [r.allowed, r.count])).toEqual([[true, 1], [true, 2], [true, 3], [false, 4]]);
    expect(results[3]!.retryAfterSeconds).toBe(50);
    await expect(enforceRateLimit(t.db, 'k1', rule, at(30))).rejects.toBeInstanceOf(RateLimitedError);
    expect(await hitRateLimit(t.db, 'k1', rule, at(61))).toMatchObject({ allowed: true, count: 1 });
    // the finished window of that key is gone
    expect(await t.db.rateLimit.count({ where: { key: 'k1' } })).toBe(1);
  });

  it('counts concurrent hits exactly (one atomic upsert each), keeping keys apart', async () => {
    const counts = await Promise.all(Array.from({ length: 12 }, () => hitRateLimit(t.db, 'k2', { limit: 100, windowSeconds: 60 }, at(5)).then((r) => r.count)));
    expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(await hitRateLimit(t.db, 'other', rule, at(5))).toMatchObject({ count: 1 });
  });
});
