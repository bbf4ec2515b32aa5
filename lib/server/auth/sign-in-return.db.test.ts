/**
 * Signing in with GitHub from the author workspace ("Try it") comes back to the draft it started
 * from, not to the admin area (where an author is only told the area is not for them); without
 * `returnTo`, or with an address outside Assay's admin and author pages, it goes to /admin.
 * Through the routes themselves, against the fake GitHub's OAuth pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGitHub } from '@/testing/fakes/github-server';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';

type Handler = (request: Request) => Promise<Response>;
let t: TestDatabase;
let fake: FakeGitHub;
let start: Handler;
let callback: Handler;

beforeAll(async () => {
  [t, fake] = await Promise.all([freshDatabase(), FakeGitHub.start({ files: { 'README.md': 'x' }, oauth: { clientId: 'client-1', clientSecret: 'secret-1' } })]);
  // the configuration is read once, on first use: set before any route reads it
  Object.assign(process.env, { DATABASE_URL: t.url, GITHUB_OAUTH_CLIENT_ID: 'client-1', GITHUB_OAUTH_CLIENT_SECRET: 'secret-1', GITHUB_OAUTH_URL: fake.url, GITHUB_API_URL: fake.url, ASSAY_PUBLIC_URL: 'http://assay.test' });
  ({ GET: start } = (await import('@/app/api/auth/github/route')) as { GET: Handler });
  ({ GET: callback } = (await import('@/app/api/auth/github/callback/route')) as { GET: Handler });
});
afterAll(async () => {
  await Promise.all([t?.close(), fake?.close()]);
});

/** The browser's trip: start, GitHub's page as `login`, back to the callback with the cookies the start set; the page it lands on. */
async function signInFrom(startUrl: string, login: string): Promise<{ html: string; cookies: string[] }> {
  const started = await start(new Request(startUrl));
  expect(started.status).toBe(303);
  const cookies = started.headers.getSetCookie().map((c) => c.split(';')[0]!);
  fake.browserUser = login;
  const atGitHub = await fetch(started.headers.get('location')!, { redirect: 'manual' });
  const back = atGitHub.headers.get('location')!;
  expect(new URL(back).pathname).toBe('/api/auth/github/callback');
  const landed = await callback(new Request(back, { headers: { cookie: cookies.join('; '), 'x-assay-peer': '198.51.100.7' } }));
  expect(landed.status).toBe(200);
  return { html: await landed.text(), cookies: landed.headers.getSetCookie() };
}

describe(`signing in comes back where it started (${process.env.ASSAY_TEST_DB})`, () => {
  it("from the author workspace: back to the same example, the return cookie cleared", async () => {
    const { html, cookies } = await signInFrom(`http://assay.test/api/auth/github?returnTo=${encodeURIComponent('/author?example=pasta.yml&x=1')}`, 'ana');
    expect(html).toContain('<meta http-equiv="refresh" content="0;url=/author?example=pasta.yml&amp;x=1">');
    expect(html).toContain('Signed in as ana. <a href="/author?example=pasta.yml&amp;x=1">Back to your draft</a>.');
    expect(cookies.some((c) => c.startsWith('assay_session='))).toBe(true);
    expect(cookies.some((c) => /^assay_sign_in_return=;.*Max-Age=0/.test(c))).toBe(true);
  });

  it('from anywhere else (no returnTo, or another site): the admin area', async () => {
    expect((await signInFrom('http://assay.test/api/auth/github', 'bo')).html).toContain('content="0;url=/admin"');
    const evil = await signInFrom(`http://assay.test/api/auth/github?returnTo=${encodeURIComponent('//evil.example/author')}`, 'cy');
    expect(evil.html).toContain('<a href="/admin">Continue to the admin area</a>');
    const quoted = await signInFrom(`http://assay.test/api/auth/github?returnTo=${encodeURIComponent('/author?x="><script>')}`, 'di');
    expect(quoted.html).toContain('content="0;url=/admin"');
  });
});
