/**
 * Sign-in with GitHub (the OAuth web flow): send the browser to GitHub with a random
 * `state` (kept in a short-lived cookie), take the `code` back, exchange it for a token,
 * read `/user`, and open a session for that login. The role comes from the users table;
 * ASSAY_MAINTAINER_LOGINS promotes the listed logins to maintainer when they sign in.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../db/client';
import { BadRequestError, NotConfiguredError, UnauthorizedError, UpstreamError } from '../http/errors';
import { enforceRateLimit, SIGN_IN_LIMIT } from './rate-limit';
import { createSession } from './sessions';

export const OAUTH_STATE_COOKIE = 'assay_oauth_state';
/** Where to go once signed in (`?returnTo=` of /api/auth/github), kept for the callback. */
export const SIGN_IN_RETURN_COOKIE = 'assay_sign_in_return';

/**
 * The page to land on after signing in: the admin area, the author workspace an author signed
 * in from (to try a draft), or the review queue a reviewer signed in from; anything else is `/admin`, since an open redirect would let any site
 * bounce users through ours. Quotes and angle brackets are refused: the path goes into HTML.
 */
export function signInReturnPath(asked: string | null | undefined): string {
  return asked && /^\/(?:admin|author|review)(?:[/?][^\\\s"'<>]*)?$/.test(asked) ? asked : '/admin';
}

export interface OAuthConfig {
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** github.com, or the fake GitHub server. */
  oauthUrl: string;
  apiUrl: string;
  publicUrl: string;
  maintainerLogins: string[];
}

/** GitHub's login rule: alphanumerics and single inner hyphens, at most 39 characters. */
const GITHUB_LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;

function configured(c: Pick<OAuthConfig, 'clientId' | 'clientSecret'>): { clientId: string; clientSecret: string } {
  if (!c.clientId || !c.clientSecret) throw new NotConfiguredError('GitHub sign-in is not configured: set GITHUB_OAUTH_CLIENT_ID and GITHUB_OAUTH_CLIENT_SECRET.');
  return { clientId: c.clientId, clientSecret: c.clientSecret };
}

/**
 * The two flows: signing in (`read:user`, no access to any repository), and connecting GitHub to
 * open pull requests, which also asks for `public_repo` (lib/server/auth/github-tokens.ts). The
 * second's callback is a sub-path of the first, which GitHub accepts for one registered callback URL.
 */
export type OAuthFlow = 'sign-in' | 'connect';
const SCOPES: Record<OAuthFlow, string> = { 'sign-in': 'read:user', connect: 'read:user public_repo' };

export function callbackUrl(c: OAuthConfig, flow: OAuthFlow = 'sign-in'): string {
  return `${c.publicUrl.replace(/\/$/, '')}/api/auth/github/callback${flow === 'connect' ? '/connect' : ''}`;
}

/** Where to send the browser, and the state to remember in a cookie. */
export function startOAuth(c: OAuthConfig, flow: OAuthFlow = 'sign-in'): { location: string; state: string } {
  const { clientId } = configured(c);
  const state = randomBytes(16).toString('base64url');
  const url = new URL('/login/oauth/authorize', c.oauthUrl);
  url.searchParams.set('client_id', clientId);
  url.searchParams.set('redirect_uri', callbackUrl(c, flow));
  url.searchParams.set('scope', SCOPES[flow]);
  url.searchParams.set('state', state);
  return { location: url.toString(), state };
}

/**
 * GitHub's token answer. An OAuth app's token has the scopes asked for and does not expire; a
 * GitHub App's user token (`ghu_…`) has `scope: ""` and, unless the app opted out, expires after
 * `expires_in` seconds (eight hours) with a `refresh_token` (`ghr_…`, six months) — docs.github.com,
 * "Generating a user access token for a GitHub App" and "Refreshing user access tokens".
 */
const TokenReply = z.union([
  z.object({ access_token: z.string().min(1), scope: z.string().optional(), expires_in: z.coerce.number().optional(), refresh_token: z.string().min(1).optional(), refresh_token_expires_in: z.coerce.number().optional() }),
  z.object({ error: z.string(), error_description: z.string().optional() }),
]);

/** What GitHub granted, as Assay stores it (lib/server/auth/github-tokens.ts). */
export interface GitHubGrant {
  token: string;
  /** Comma-separated, as GitHub reports them; empty for a GitHub App's user token. */
  scopes: string;
  /** `github-app`: a GitHub App's user token, allowed what the app's permissions and the user's access allow. */
  kind: 'oauth' | 'github-app';
  refreshToken?: string;
  expiresAt?: Date;
  refreshExpiresAt?: Date;
}

function grantOf(reply: { access_token: string; scope?: string; expires_in?: number; refresh_token?: string; refresh_token_expires_in?: number }, now: Date): GitHubGrant {
  // a GitHub App's user tokens start ghu_ (GitHub's token formats); an expiring one comes with a refresh token
  const kind = reply.refresh_token || reply.access_token.startsWith('ghu_') ? 'github-app' : 'oauth';
  const at = (seconds: number | undefined) => (seconds ? new Date(now.getTime() + seconds * 1000) : undefined);
  return { token: reply.access_token, scopes: reply.scope ?? '', kind, refreshToken: reply.refresh_token, expiresAt: at(reply.expires_in), refreshExpiresAt: at(reply.refresh_token_expires_in) };
}

/**
 * A new user token for a GitHub App's expiring one (POST /login/oauth/access_token with
 * grant_type=refresh_token): the old token and refresh token stop working. Null when GitHub no
 * longer honours the refresh token (`bad_refresh_token`: used, expired or revoked), so the author
 * connects again.
 */
export async function refreshGitHubGrant(c: Pick<OAuthConfig, 'clientId' | 'clientSecret' | 'oauthUrl'>, refreshToken: string, now: Date, fetchImpl: typeof fetch = fetch): Promise<GitHubGrant | null> {
  const { clientId, clientSecret } = configured(c);
  const res = await fetchImpl(new URL('/login/oauth/access_token', c.oauthUrl), {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: clientId, client_secret: clientSecret, grant_type: 'refresh_token', refresh_token: refreshToken }),
  });
  const reply = TokenReply.safeParse(await res.json().catch(() => null));
  if (!res.ok || !reply.success) throw new UpstreamError(`GitHub's token refresh failed (HTTP ${res.status}); try again in a moment.`);
  if ('error' in reply.data) {
    if (reply.data.error === 'bad_refresh_token') return null;
    throw new UpstreamError(`GitHub refused to renew a user token (${reply.data.error}); check GITHUB_OAUTH_CLIENT_ID and GITHUB_OAUTH_CLIENT_SECRET.`);
  }
  return grantOf(reply.data, now);
}

const GitHubUser = z.object({ login: z.string().regex(GITHUB_LOGIN), name: z.string().nullable().optional() });

export async function finishOAuth(
  db: Db,
  c: OAuthConfig,
  q: { code: string; state: string; expectedState: string | null; clientAddress: string },
  fetchImpl: typeof fetch = fetch,
  flow: OAuthFlow = 'sign-in',
  now: Date = new Date(),
): Promise<{ token: string; expiresAt: Date; login: string; userId: string; github: GitHubGrant }> {
  const { clientId, clientSecret } = configured(c);
  await enforceRateLimit(db, `sign-in:${q.clientAddress}`, SIGN_IN_LIMIT);
  // the state ties the callback to the browser that started the flow (no login CSRF)
  if (!q.expectedState || q.expectedState.length !== q.state.length || !timingSafeEqual(Buffer.from(q.expectedState), Buffer.from(q.state))) {
    throw new BadRequestError('The sign-in expired or was started elsewhere; start again from the sign-in page.');
  }
  const res = await fetchImpl(new URL('/login/oauth/access_token', c.oauthUrl), {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: clientId, client_secret: clientSecret, code: q.code, redirect_uri: callbackUrl(c, flow) }),
  });
  const reply = TokenReply.safeParse(await res.json().catch(() => null));
  if (!res.ok || !reply.success) throw new UpstreamError(`GitHub's token exchange failed (HTTP ${res.status}).`);
  if ('error' in reply.data) throw new UnauthorizedError(`GitHub refused the sign-in (${reply.data.error}); start again.`);
  const me = await fetchImpl(`${c.apiUrl.replace(/\/$/, '')}/user`, { headers: { authorization: `Bearer ${reply.data.access_token}`, accept: 'application/vnd.github+json', 'user-agent': 'assay' } });
  const user = GitHubUser.safeParse(await me.json().catch(() => null));
  if (!me.ok || !user.success) throw new UpstreamError(`GitHub did not say who signed in (HTTP ${me.status}).`);
  const login = user.data.login;
  const promote = c.maintainerLogins.some((l) => l.toLowerCase() === login.toLowerCase());
  // GitHub logins are case-insensitive: a user a maintainer named before they first signed in (a
  // reviewer grant) may be spelt in another case; that user is this one, now spelt as GitHub does
  const known = await db.user.findFirst({ where: { githubLogin: { equals: login, mode: 'insensitive' } }, orderBy: { createdAt: 'asc' }, select: { id: true } });
  const row = known
    ? await db.user.update({ where: { id: known.id }, data: { githubLogin: login, name: user.data.name ?? null } })
    : await db.user.upsert({
        where: { githubLogin: login },
        create: { githubLogin: login, name: user.data.name ?? null, role: promote ? 'maintainer' : 'reader' },
        update: { name: user.data.name ?? null },
      });
  // promotion only raises a reader/author; it never lowers an admin
  if (promote && (row.role === 'reader' || row.role === 'author')) await db.user.update({ where: { id: row.id }, data: { role: 'maintainer' } });
  const session = await createSession(db, row.id);
  // the GitHub token goes back to the caller, which keeps it (connect) or drops it (sign-in); never to the browser
  return { ...session, login, userId: row.id, github: grantOf(reply.data, now) };
}
