/** Issue 11, Low: sign-out ignored Origin, so any site could sign a maintainer out (logout CSRF). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { ForbiddenError } from '../http/errors';
import { SESSION_COOKIE, sessionUser } from './sessions';
import { signInWithAdminToken } from './sign-in';
import { signOut } from './sign-out';

const ADMIN_TOKEN = 'an-admin-token-of-at-least-24-chars';
let t: TestDatabase;
beforeAll(async () => {
  t = await freshDatabase();
});
afterAll(async () => t?.close());

const request = (token: string, headers: Record<string, string>) =>
  new Request('http://assay.test/api/auth/sign-out', { method: 'POST', headers: { cookie: `${SESSION_COOKIE}=${token}`, ...headers } });

describe(`sign-out checks where the request came from (${process.env.ASSAY_TEST_DB})`, () => {
  it('refuses a cross-site sign-out and keeps the session; signs out from our own pages', async () => {
    const s = await signInWithAdminToken(t.db, ADMIN_TOKEN, ADMIN_TOKEN, '198.51.100.40');
    await expect(signOut(t.db, request(s.token, { origin: 'https://evil.example' }), 'https://assay.example.org')).rejects.toBeInstanceOf(ForbiddenError);
    await expect(signOut(t.db, request(s.token, { 'sec-fetch-site': 'cross-site' }))).rejects.toBeInstanceOf(ForbiddenError);
    await expect(signOut(t.db, request(s.token, { origin: 'null' }))).rejects.toBeInstanceOf(ForbiddenError);
    expect(await sessionUser(t.db, s.token)).not.toBeNull();

    await signOut(t.db, request(s.token, { origin: 'https://assay.example.org' }), 'https://assay.example.org');
    expect(await sessionUser(t.db, s.token)).toBeNull();
    const again = await signInWithAdminToken(t.db, ADMIN_TOKEN, ADMIN_TOKEN, '198.51.100.40');
    await signOut(t.db, request(again.token, { origin: 'http://assay.test', 'sec-fetch-site': 'same-origin' }));
    expect(await sessionUser(t.db, again.token)).toBeNull();
  });
});
