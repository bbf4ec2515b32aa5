/**
 * Authors' GitHub tokens when sign-in is a GitHub App's: the token has no scopes (the app's
 * permissions decide), expires after eight hours and is renewed with its refresh token, so an
 * author is not sent back to "Connect GitHub" every eight hours — and is, cleanly, once GitHub
 * no longer honours the refresh token. Against the fake GitHub's App user tokens (github-server-apps.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGitHub } from '@/testing/fakes/github-server';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { finishOAuth, refreshGitHubGrant, startOAuth, type OAuthConfig } from './github-oauth';
import { gitHubTokenOf, hasGitHubConnection, storeGitHubToken, type TokenRefresher } from './github-tokens';

const KEY = Buffer.alloc(32, 7);
const EIGHT_HOURS = 8 * 3600_000;
let t: TestDatabase;
let fake: FakeGitHub;
let oauth: OAuthConfig;
let refresher: TokenRefresher;

beforeAll(async () => {
  [t, fake] = await Promise.all([freshDatabase(), FakeGitHub.start({ files: { 'README.md': 'x' }, oauth: { clientId: 'Iv1.app', clientSecret: 'app-secret', githubApp: true } })]);
  oauth = { clientId: 'Iv1.app', clientSecret: 'app-secret', oauthUrl: fake.url, apiUrl: fake.url, publicUrl: 'http://assay.test', maintainerLogins: [] };
  refresher = { refresh: (refreshToken, now) => refreshGitHubGrant(oauth, refreshToken, now) };
});
afterAll(async () => {
  await Promise.all([t?.close(), fake?.close()]);
});

async function connect(login: string) {
  const { location, state } = startOAuth(oauth, 'connect');
  fake.browserUser = login;
  const back = new URL((await fetch(location, { redirect: 'manual' })).headers.get('location')!);
  const now = new Date(fake.now());
  const s = await finishOAuth(t.db, oauth, { code: back.searchParams.get('code')!, state, expectedState: state, clientAddress: `10.1.0.${login.length}` }, fetch, 'connect', now);
  await storeGitHubToken(t.db, KEY, s.userId, s.github);
  return { ...s, now };
}
const whoIs = async (token: string | null) => (await fetch(`${fake.url}/user`, { headers: { authorization: `Bearer ${token}` } })).status;

describe(`GitHub App user tokens (${process.env.ASSAY_TEST_DB})`, () => {
  it('are kept although their scope is empty, with their expiry and refresh token', async () => {
    const s = await connect('ada');
    expect(s.github).toMatchObject({ kind: 'github-app', scopes: '', token: expect.stringMatching(/^ghu_/), refreshToken: expect.stringMatching(/^ghr_/) });
    expect(s.github.expiresAt!.getTime() - s.now.getTime()).toBe(EIGHT_HOURS);
    expect(await hasGitHubConnection(t.db, s.userId, s.now)).toBe(true);
    const token = await gitHubTokenOf(t.db, KEY, s.userId, refresher, s.now);
    expect(token).toBe(s.github.token);
    expect(await whoIs(token)).toBe(200);
    const row = await t.db.gitHubToken.findUniqueOrThrow({ where: { userId: s.userId } });
    expect(row.refreshCiphertext).not.toContain('ghr_'); // encrypted like the token
  });

  it('are renewed with the refresh token once they expire, instead of asking the author to connect again', async () => {
    const s = await connect('bea');
    fake.clockOffsetMs += EIGHT_HOURS;
    const later = new Date(fake.now());
    expect(await whoIs(s.github.token)).toBe(401); // GitHub no longer takes it
    expect(await hasGitHubConnection(t.db, s.userId, later)).toBe(true);
    const renewed = await gitHubTokenOf(t.db, KEY, s.userId, refresher, later);
    expect(renewed).toMatch(/^ghu_/);
    expect(renewed).not.toBe(s.github.token);
    expect(await whoIs(renewed)).toBe(200);
    expect((await t.db.gitHubToken.findUniqueOrThrow({ where: { userId: s.userId } })).expiresAt!.getTime()).toBe(later.getTime() + EIGHT_HOURS);
    // the next call uses the stored renewal without asking GitHub again
    expect(await gitHubTokenOf(t.db, KEY, s.userId, refresher, later)).toBe(renewed);
  });

  it('are forgotten when GitHub refuses the refresh token, so the author connects again cleanly', async () => {
    const s = await connect('cy');
    // renewed elsewhere (GitHub retires the refresh token once used), then the stored copy expires
    await refreshGitHubGrant(oauth, s.github.refreshToken!, new Date(fake.now()));
    fake.clockOffsetMs += EIGHT_HOURS;
    const later = new Date(fake.now());
    expect(await gitHubTokenOf(t.db, KEY, s.userId, refresher, later)).toBeNull();
    expect(await t.db.gitHubToken.findUnique({ where: { userId: s.userId } })).toBeNull();
    expect(await hasGitHubConnection(t.db, s.userId, later)).toBe(false);
  });

  it('without a way to renew them, count as gone once expired', async () => {
    const s = await connect('dov');
    const later = new Date(s.now.getTime() + EIGHT_HOURS + 1000);
    expect(await gitHubTokenOf(t.db, KEY, s.userId, undefined, later)).toBeNull();
    expect(await t.db.gitHubToken.findUnique({ where: { userId: s.userId } })).toBeNull();
  });
});
