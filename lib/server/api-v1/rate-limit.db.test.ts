/**
 * The public API's per-client limit, counted in the database: past API_V1_LIMIT requests in a
 * window a client gets a 429 in the documented error shape, with a Retry-After that says when its
 * window opens again; another client is not held back by it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { installPeerAddressHeader, PEER_HEADER } from '../http/client-address';
import { contractOf, getV1, type V1Answer } from './api-v1.testkit';
import { API_V1_LIMIT } from './v1-route';

let t: TestDatabase;

beforeAll(async () => {
  t = await freshDatabase();
  process.env.DATABASE_URL = t.url;
});
afterAll(async () => {
  await t?.close();
});

describe(`/api/v1 rate limit (${process.env.ASSAY_TEST_DB})`, () => {
  it('answers 429 with Retry-After once a client is past its limit, in the documented shape', async () => {
    const check = contractOf((await getV1('/api/v1/openapi.json')).body as Parameters<typeof contractOf>[0]);
    let ok = 1;
    let limited: V1Answer | null = null;
    // a window may end during the loop and start the count again: then the 429 comes a window later
    for (let i = 0; i < 2 * API_V1_LIMIT.limit + 2 && !limited; i++) {
      const a = await getV1('/api/v1/leaderboard');
      if (a.status === 429) limited = a;
      else {
        expect(a.status).toBe(200);
        ok++;
      }
    }
    expect(limited).not.toBeNull();
    expect(ok).toBeGreaterThanOrEqual(API_V1_LIMIT.limit);
    const retryAfter = Number(limited!.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= API_V1_LIMIT.windowSeconds).toBe(true);
    expect(limited!.headers.get('cache-control')).toBe('no-store');
    expect(limited!.body).toMatchObject({ error: { code: 'rate_limited' } });
    expect(check(limited!)).toEqual([]);
    // the count is the database's, under one key per client
    const rows = await t.db.rateLimit.findMany({ where: { key: { startsWith: 'api-v1:' } } });
    expect(rows.some((r) => r.count > API_V1_LIMIT.limit)).toBe(true);

    // another client (its address as the server stamps it from the socket) is counted apart
    installPeerAddressHeader();
    expect((await getV1('/api/v1/leaderboard', { [PEER_HEADER]: '203.0.113.9' })).status).toBe(200);
  });
});
