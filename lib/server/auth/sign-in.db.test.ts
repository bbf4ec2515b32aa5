/**
 * Signing in: with the admin token (sessions stored as hashes, rate-limited), and with GitHub
 * through the OAuth web flow of the fake GitHub server; then who may act.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGitHub } from '@/testing/fakes/github-server';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { BadRequestError, ForbiddenError, RateLimitedError, UnauthorizedError } from '../http/errors';
import { finishOAuth, startOAuth, type OAuthConfig } from './github-oauth';
import { principalOf, requireActor } from './principal';
import { SESSION_COOKIE, endSession, hashToken, sessionUser } from './sessions';
import { ADMIN_USER_LOGIN, signInWithAdminToken } from './sign-in';

const ADMIN_TOKEN = 'an-admin-token-of-at-least-24-chars';
let t: TestDatabase;
let fake: FakeGitHub;
let oauth: OAuthConfig;

beforeAll(async () => {
  [t, fake] = await Promise.all([freshDatabase(), FakeGitHub.start({ files: { 'README.md': 'x' }, oauth: { clientId: 'client-1', clientSecret: 'secret-1' } })]);
  oauth = { clientId: 'client-1', clientSecret: 'secret-1', oauthUrl: fake.url, apiUrl: fake.url, publicUrl: 'http://assay.test', maintainerLogins: ['Maria'] };
});
afterAll(async () => {
  await Promise.all([t?.close(), fake?.close()]);
});

const cookieRequest = (token: string, init: RequestInit = {}) => new Request('http://assay.test/api/admin/sync', { ...init, headers: { cookie: `${SESSION_COOKIE}=${token}`, ...(init.headers as Record<string, string>) } });

/** The browser's part of the flow: follow the authorize URL as `login`, return the code GitHub sends back. */
async function authorizeAs(login: string, location: string): Promise<{ code: string; state: string }> {
  fake.browserUser = login;
  const res = await fetch(location, { redirect: 'manual' });
  const back = new URL(res.headers.get('location')!);
  expect(back.origin + back.pathname).toBe('http://assay.test/api/auth/github/callback');
  return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! };
}

describe(`admin-token sign-in and sessions (${process.env.ASSAY_TEST_DB})`, () => {
  it('opens a session for the built-in admin, storing only the token hash', async () => {
    const s = await signInWithAdminToken(t.db, ADMIN_TOKEN, ADMIN_TOKEN, '198.51.100.1');
    expect(await t.db.session.findUnique({ where: { tokenHash: s.token } })).toBeNull();
    expect(await t.db.session.findUnique({ where: { tokenHash: hashToken(s.token) } })).not.toBeNull();
    expect(await sessionUser(t.db, s.token)).toMatchObject({ githubLogin: ADMIN_USER_LOGIN, role: 'admin' });
    const p = await principalOf(t.db, ADMIN_TOKEN, cookieRequest(s.token, { method: 'POST' }));
    expect(requireActor(p)).toMatchObject({ kind: 'user' });
    await endSession(t.db, s.token);
    expect(await sessionUser(t.db, s.token)).toBeNull();
  });

  it('refuses a wrong token, and after ten attempts refuses even the right one for a while', async () => {
    await expect(signInWithAdminToken(t.db, ADMIN_TOKEN, 'guess', '198.51.100.2')).rejects.toBeInstanceOf(UnauthorizedError);
    for (let i = 0; i < 9; i++) await signInWithAdminToken(t.db, ADMIN_TOKEN, 'guess', '198.51.100.2').catch(() => {});
    await expect(signInWithAdminToken(t.db, ADMIN_TOKEN, ADMIN_TOKEN, '198.51.100.2')).rejects.toBeInstanceOf(RateLimitedError);
    // another client is not affected
    await expect(signInWithAdminToken(t.db, ADMIN_TOKEN, ADMIN_TOKEN, '198.51.100.3')).resolves.toMatchObject({ token: expect.any(String) });
    await expect(signInWithAdminToken(t.db, undefined, 'anything', '198.51.100.4')).rejects.toThrow(/set ASSAY_ADMIN_TOKEN/);
  });

  it('treats an expired session as none', async () => {
    const user = await t.db.user.create({ data: { githubLogin: 'old-timer', role: 'maintainer' } });
    await t.db.session.create({ data: { tokenHash: hashToken('expired'), userId: user.id, expiresAt: new Date(Date.now() - 1000) } });
    expect(await sessionUser(t.db, 'expired')).toBeNull();
  });
});

describe(`who may act (${process.env.ASSAY_TEST_DB})`, () => {
  it('accepts the bearer admin token and rejects any other bearer', async () => {
    const bearer = (token: string) => new Request('http://assay.test/api/admin/runs', { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(await principalOf(t.db, ADMIN_TOKEN, bearer(ADMIN_TOKEN))).toEqual({ kind: 'admin-token' });
    await expect(principalOf(t.db, ADMIN_TOKEN, bearer('nope'))).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(principalOf(t.db, undefined, bearer('anything'))).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('needs someone (401), and someone with the maintainer role (403)', async () => {
    expect(() => requireActor(null)).toThrow(UnauthorizedError);
    const reader = await t.db.user.create({ data: { githubLogin: 'reader-rick', role: 'reader' } });
    await t.db.session.create({ data: { tokenHash: hashToken('reader-token'), userId: reader.id, expiresAt: new Date(Date.now() + 60_000) } });
    expect(() => requireActor({ kind: 'user', user: { id: reader.id, githubLogin: 'reader-rick', role: 'reader' } })).toThrow(ForbiddenError);
  });

  it('refuses a cookie-authenticated state change coming from another site', async () => {
    const s = await signInWithAdminToken(t.db, ADMIN_TOKEN, ADMIN_TOKEN, '198.51.100.5');
    await expect(principalOf(t.db, ADMIN_TOKEN, cookieRequest(s.token, { method: 'POST', headers: { origin: 'https://evil.example' } }))).rejects.toBeInstanceOf(ForbiddenError);
    expect(await principalOf(t.db, ADMIN_TOKEN, cookieRequest(s.token, { method: 'POST', headers: { origin: 'http://assay.test' } }))).toMatchObject({ kind: 'user' });
  });
});

describe(`sign-in with GitHub against the fake OAuth server (${process.env.ASSAY_TEST_DB})`, () => {
  it('signs in a listed login as maintainer, and anyone else as a reader who may not act', async () => {
    const start = startOAuth(oauth);
    expect(new URL(start.location).searchParams.get('redirect_uri')).toBe('http://assay.test/api/auth/github/callback');
    const { code, state } = await authorizeAs('maria', start.location);
    const s = await finishOAuth(t.db, oauth, { code, state, expectedState: start.state, clientAddress: '203.0.113.1' });
    expect(s.login).toBe('maria');
    expect(await sessionUser(t.db, s.token)).toMatchObject({ githubLogin: 'maria', role: 'maintainer' });

    const other = startOAuth(oauth);
    const r = await authorizeAs('randy', other.location);
    const rs = await finishOAuth(t.db, oauth, { ...r, expectedState: other.state, clientAddress: '203.0.113.1' });
    const randy = await sessionUser(t.db, rs.token);
    expect(randy).toMatchObject({ githubLogin: 'randy', role: 'reader' });
    expect(() => requireActor({ kind: 'user', user: randy! })).toThrow(ForbiddenError);
  });

  it('is the user a maintainer named before their first sign-in, whatever the case of the name (GitHub logins ignore case)', async () => {
    const named = await t.db.user.create({ data: { githubLogin: 'Rosa', role: 'reader' } });
    const start = startOAuth(oauth);
    const r = await authorizeAs('rosa', start.location);
    const s = await finishOAuth(t.db, oauth, { ...r, expectedState: start.state, clientAddress: '203.0.113.1' });
    expect(await sessionUser(t.db, s.token)).toMatchObject({ id: named.id, githubLogin: 'rosa' });
    expect(await t.db.user.count({ where: { githubLogin: { equals: 'rosa', mode: 'insensitive' } } })).toBe(1);
  });

  it('keeps the role from the users table: an admin promoted there stays admin', async () => {
    await t.db.user.update({ where: { githubLogin: 'randy' }, data: { role: 'admin' } });
    const start = startOAuth(oauth);
    const r = await authorizeAs('randy', start.location);
    const s = await finishOAuth(t.db, oauth, { ...r, expectedState: start.state, clientAddress: '203.0.113.1' });
    expect((await sessionUser(t.db, s.token))?.role).toBe('admin');
  });

  it('rejects a callback whose state does not match, and a code used twice', async () => {
    const start = startOAuth(oauth);
    const r = await authorizeAs('maria', start.location);
    await expect(finishOAuth(t.db, oauth, { ...r, expectedState: 'another-state-xxxxxxx', clientAddress: '203.0.113.2' })).rejects.toBeInstanceOf(BadRequestError);
    await expect(finishOAuth(t.db, oauth, { ...r, expectedState: null, clientAddress: '203.0.113.2' })).rejects.toBeInstanceOf(BadRequestError);
    await finishOAuth(t.db, oauth, { ...r, expectedState: start.state, clientAddress: '203.0.113.2' });
    await expect(finishOAuth(t.db, oauth, { ...r, expectedState: start.state, clientAddress: '203.0.113.2' })).rejects.toThrow(/GitHub refused the sign-in \(bad_verification_code\)/);
  });

  it('says how to configure it when it is not', () => {
    expect(() => startOAuth({ ...oauth, clientId: undefined })).toThrow(/GITHUB_OAUTH_CLIENT_ID/);
  });
});
