/**
 * Part of the composition root: what the author workspace's "open a pull request" needs — the
 * configured blueprint repository, GitHub's API, and the key that encrypts authors' tokens —
 * and who may use it (a signed-in GitHub user; the admin token has no GitHub account).
 */
import { env } from '../env';
import { getDb } from './database';
import { githubConfig } from '../github/config';
import { tokenKey } from '../auth/github-tokens';
import { refreshGitHubGrant } from '../auth/github-oauth';
import { principalOf } from '../auth/principal';
import type { SessionUser } from '../auth/sessions';
import { ForbiddenError, NotConfiguredError, UnauthorizedError } from '../http/errors';
import type { AuthoringGitHubDeps } from '../authoring/open-pull-request';

export function authoringGitHubDeps(): AuthoringGitHubDeps {
  const config = env();
  const gh = githubConfig(config);
  if (!gh) throw new NotConfiguredError('Opening pull requests needs the blueprint repository: set GITHUB_REPOSITORY (owner/repo).');
  // a GitHub App's user tokens expire after eight hours: renewed with the same OAuth client that issued them
  const client = { clientId: config.GITHUB_OAUTH_CLIENT_ID, clientSecret: config.GITHUB_OAUTH_CLIENT_SECRET, oauthUrl: config.GITHUB_OAUTH_URL };
  const refresher = client.clientId && client.clientSecret ? { refresh: (refreshToken: string, now: Date) => refreshGitHubGrant(client, refreshToken, now) } : undefined;
  return { db: getDb(), apiUrl: gh.apiUrl, source: { owner: gh.owner, repo: gh.repo, branch: gh.branch }, tokenKey: tokenKey(config.ASSAY_TOKEN_KEY), publicUrl: config.ASSAY_PUBLIC_URL, ...(refresher ? { refresher } : {}) };
}

/** ASSAY_TOKEN_KEY decoded; throws NotConfiguredError (503) when unset, before anyone is sent to GitHub. */
export function authorTokenKey(): Buffer {
  return tokenKey(env().ASSAY_TOKEN_KEY);
}

/** The signed-in user (session cookie; a state-changing request must be same-origin), or 401 saying to connect GitHub. */
export async function authenticateAuthor(request: Request): Promise<SessionUser> {
  const config = env();
  const p = await principalOf(getDb(), config.ASSAY_ADMIN_TOKEN, request, config.ASSAY_PUBLIC_URL);
  if (!p) throw new UnauthorizedError('Sign in with GitHub (Connect GitHub) to open a pull request.', { next: 'connect' });
  if (p.kind !== 'user' || p.user.githubLogin.startsWith('~')) throw new ForbiddenError('The admin token has no GitHub account: sign in with GitHub to open a pull request as yourself.', { next: 'connect' });
  return p.user;
}
