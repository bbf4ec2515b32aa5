/**
 * Issue 11, finding 7: sign-in limits trusted the client's X-Forwarded-For (40 of 40 rotating
 * attempts passed, one row per value, forever). Over real HTTP (a Node server with the
 * peer-address stamp that instrumentation.ts installs in the Next server), against a real
 * database: forwarded headers count only from configured proxies, and rows expire.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { AppError } from '../http/errors';
import { clientAddress, installPeerAddressHeader, parseTrustedProxies, UNKNOWN_CLIENT, type TrustedProxies } from '../http/client-address';
import { parseEnv } from '../env';
import { hitRateLimit, SIGN_IN_LIMIT } from './rate-limit';
import { signInWithAdminToken } from './sign-in';

const ADMIN_TOKEN = 'an-admin-token-of-at-least-24-chars';
let t: TestDatabase;
let server: Server;
let base: string;
let proxies: TrustedProxies = parseTrustedProxies(undefined);

beforeAll(async () => {
  t = await freshDatabase();
  installPeerAddressHeader();
  // the sign-in use case behind a real socket, keyed the way the route keys it
  server = createServer((req, res) => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    signInWithAdminToken(t.db, ADMIN_TOKEN, 'a wrong guess', clientAddress(headers, proxies)).then(
      () => res.writeHead(200).end(),
      (e: unknown) => res.writeHead(e instanceof AppError ? e.status : 500).end(),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  base = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
});
afterAll(async () => {
  await new Promise((r) => server?.close(r));
  await t?.close();
});

const attempt = (xff: string) => fetch(`${base}/api/auth/sign-in`, { method: 'POST', headers: { 'x-forwarded-for': xff, 'x-real-ip': xff, 'x-assay-peer': xff } }).then((r) => r.status);

describe(`sign-in limits and forwarded addresses (${process.env.ASSAY_TEST_DB})`, () => {
  it('counts 40 attempts with rotating X-Forwarded-For from an untrusted peer against one limit', async () => {
    proxies = parseTrustedProxies(undefined);
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push(await attempt(`203.0.113.${i + 1}`));
    expect(statuses.filter((s) => s === 401)).toHaveLength(SIGN_IN_LIMIT.limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40 - SIGN_IN_LIMIT.limit);
    // one row, for the real peer, not one per forged value
    expect(await t.db.rateLimit.findMany({ select: { key: true } })).toEqual([{ key: 'sign-in:127.0.0.1' }]);
  });

  it('believes X-Forwarded-For from a configured proxy, but only up to the first untrusted hop', async () => {
    proxies = parseTrustedProxies('127.0.0.0/8, 10.0.0.0/8');
    expect(await attempt('198.51.100.20')).toBe(401);
    expect(await t.db.rateLimit.count({ where: { key: 'sign-in:198.51.100.20' } })).toBe(1);
    // the client prepends a forged hop; the proxies' own hops are skipped: the client is 198.51.100.21
    for (let i = 0; i < 12; i++) await attempt(`192.0.2.${i}, 198.51.100.21, 10.1.2.3`);
    expect(await t.db.rateLimit.findFirst({ where: { key: 'sign-in:198.51.100.21' }, select: { count: true } })).toEqual({ count: 12 });
    expect(await t.db.rateLimit.count({ where: { key: { startsWith: 'sign-in:192.0.2.' } } })).toBe(0);
  });

  it('reads the address from the stamped peer only, and a header without the stamp as unknown', () => {
    const none = parseTrustedProxies(undefined);
    expect(clientAddress(new Headers({ 'x-assay-peer': '::ffff:198.51.100.9', 'x-forwarded-for': '1.2.3.4' }), none)).toBe('198.51.100.9');
    expect(clientAddress(new Headers({ 'x-forwarded-for': '1.2.3.4' }), none)).toBe(UNKNOWN_CLIENT);
    expect(clientAddress(new Headers({ 'x-assay-peer': '10.0.0.5', 'x-forwarded-for': 'not-an-ip' }), parseTrustedProxies('10.0.0.0/8'))).toBe(UNKNOWN_CLIENT);
    expect(clientAddress(new Headers({ 'x-assay-peer': '10.0.0.5', 'x-forwarded-for': '2001:db8::1' }), parseTrustedProxies('10.0.0.0/8'))).toBe('2001:db8::1');
  });

  it('refuses a malformed ASSAY_TRUSTED_PROXIES at start-up, naming the entry', () => {
    expect(() => parseEnv({ ASSAY_TRUSTED_PROXIES: '10.0.0.0/8, 10.0.0.300' })).toThrow(/ASSAY_TRUSTED_PROXIES: "10\.0\.0\.300" is not an IP address/);
    expect(() => parseEnv({ ASSAY_TRUSTED_PROXIES: '10.0.0.0/33' })).toThrow(/ASSAY_TRUSTED_PROXIES: "10\.0\.0\.0\/33": the prefix length/);
    expect(parseEnv({ ASSAY_TRUSTED_PROXIES: '10.0.0.0/8,::1' }).ASSAY_TRUSTED_PROXIES).toBe('10.0.0.0/8,::1');
  });
});

describe(`rate-limit rows expire (${process.env.ASSAY_TEST_DB})`, () => {
  const rule = { limit: 3, windowSeconds: 60 };
  const at = (s: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, s));

  it('ignores a row past its window: a full old window does not limit the next one', async () => {
    for (let i = 0; i < 5; i++) await hitRateLimit(t.db, 'exp-1', rule, at(1));
    expect((await hitRateLimit(t.db, 'exp-1', rule, at(59))).allowed).toBe(false);
    expect(await hitRateLimit(t.db, 'exp-1', rule, at(60))).toMatchObject({ allowed: true, count: 1 });
  });

  it('deletes the expired rows of every key, not only the key being hit', async () => {
    for (let i = 0; i < 40; i++) await hitRateLimit(t.db, `rotating-${i}`, rule, at(2));
    expect(await t.db.rateLimit.count({ where: { key: { startsWith: 'rotating-' } } })).toBe(40);
    // still inside their window: kept
    await hitRateLimit(t.db, 'someone-else', rule, at(30));
    expect(await t.db.rateLimit.count({ where: { key: { startsWith: 'rotating-' } } })).toBe(40);
    // the next window starts for anyone: all 40 are gone
    await hitRateLimit(t.db, 'someone-else', rule, at(61));
    expect(await t.db.rateLimit.count({ where: { key: { startsWith: 'rotating-' } } })).toBe(0);
    expect(await t.db.rateLimit.count({ where: { expiresAt: { lte: at(61) } } })).toBe(0);
  });
});
