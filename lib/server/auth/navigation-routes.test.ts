/**
 * The sign-in routes a browser navigates to (a link on /admin/sign-in or /author, GitHub's
 * redirect back) answer a redirect to a page that says what is wrong, never a JSON error body,
 * when GitHub sign-in is not configured or GitHub sends no code back. Nothing here reaches the
 * database: each refusal comes before it.
 */
import { beforeAll, describe, expect, it } from 'vitest';

type Handler = (request: Request) => Promise<Response>;
let signIn: Handler;
let connect: Handler;
let callback: Handler;
let connectCallback: Handler;

beforeAll(async () => {
  // the configuration is read once, on first use: unset before any route reads it
  Object.assign(process.env, { GITHUB_OAUTH_CLIENT_ID: '', GITHUB_OAUTH_CLIENT_SECRET: '', ASSAY_TOKEN_KEY: '' });
  ({ GET: signIn } = (await import('@/app/api/auth/github/route')) as { GET: Handler });
  ({ GET: connect } = (await import('@/app/api/auth/github/connect/route')) as { GET: Handler });
  ({ GET: callback } = (await import('@/app/api/auth/github/callback/route')) as { GET: Handler });
  ({ GET: connectCallback } = (await import('@/app/api/auth/github/callback/connect/route')) as { GET: Handler });
}, 60_000); // the routes import the whole composition root: seconds on a busy machine

/** Where a 303 sends the browser: its path and its `error`/`connectError` message. */
function landing(res: Response): { path: string; error: string | null; connectError: string | null } {
  expect(res.status).toBe(303);
  expect(res.headers.get('content-type') ?? '').not.toContain('json');
  const to = new URL(res.headers.get('location')!, 'http://assay.test');
  return { path: to.pathname, error: to.searchParams.get('error'), connectError: to.searchParams.get('connectError') };
}

describe('sign-in routes a browser navigates to, with GitHub sign-in not configured', () => {
  it('"Sign in with GitHub" lands on the sign-in page naming the settings to set', async () => {
    expect(landing(await signIn(new Request('http://assay.test/api/auth/github')))).toEqual({
      path: '/admin/sign-in',
      error: 'GitHub sign-in is not configured: set GITHUB_OAUTH_CLIENT_ID and GITHUB_OAUTH_CLIENT_SECRET.',
      connectError: null,
    });
  });

  it('"Connect GitHub" goes back to the draft it came from, saying which setting is missing', async () => {
    const back = landing(await connect(new Request(`http://assay.test/api/auth/github/connect?returnTo=${encodeURIComponent('/author?draft=blueprints/x.yml')}`)));
    expect(back.path).toBe('/author');
    expect(back.connectError).toBe("Connecting GitHub is not configured: set ASSAY_TOKEN_KEY (openssl rand -hex 32) to encrypt authors' tokens.");
    // a return address outside the workspace is still refused, on the workspace's page
    expect(landing(await connect(new Request('http://assay.test/api/auth/github/connect?returnTo=https://evil.example'))).path).toBe('/author');
  });

  it("GitHub's redirect back without a code (cancelled on GitHub) lands on a page saying so", async () => {
    const signInBack = landing(await callback(new Request('http://assay.test/api/auth/github/callback?error=access_denied&state=s')));
    expect(signInBack.path).toBe('/admin/sign-in');
    expect(signInBack.error).toMatch(/GitHub sent no sign-in code back \(the sign-in was cancelled or refused on GitHub\); sign in again$/);
    const connectBack = landing(await connectCallback(new Request('http://assay.test/api/auth/github/callback/connect?error=access_denied&state=s')));
    expect(connectBack.path).toBe('/author');
    expect(connectBack.error).toMatch(/connecting was cancelled or refused on GitHub/);
  });
});
