/**
 * `npm run fake-github`: the fake GitHub as a standalone server, for demos and for specs that
 * drive it over HTTP (`/_fake/*`). Configured by environment:
 *
 *   FAKE_GITHUB_PORT (default 3200), FAKE_GITHUB_TOKEN, FAKE_GITHUB_OWNER/REPO/BRANCH,
 *   FAKE_GITHUB_WEBHOOK_URL + FAKE_GITHUB_WEBHOOK_SECRET (deliver webhooks there),
 *   FAKE_GITHUB_OAUTH_CLIENT_ID + FAKE_GITHUB_OAUTH_CLIENT_SECRET (the OAuth sign-in flow),
 *   FAKE_GITHUB_WRITERS (comma-separated logins with write permission),
 *   FAKE_GITHUB_APP_ID + FAKE_GITHUB_APP_INSTALLATION_ID + FAKE_GITHUB_APP_PUBLIC_KEY (PEM): a GitHub App,
 *   the only identity the fake lets make check runs (as GitHub does; a token gets comment-only mode),
 *   FAKE_GITHUB_OAUTH_GITHUB_APP=1: the OAuth client is a GitHub App's (user tokens without scopes, expiring).
 */
import { FakeGitHub } from './github-server';

const e = process.env;
const gh = await FakeGitHub.start({
  port: Number(e.FAKE_GITHUB_PORT ?? 3200),
  token: e.FAKE_GITHUB_TOKEN || undefined,
  owner: e.FAKE_GITHUB_OWNER || undefined,
  repo: e.FAKE_GITHUB_REPO || undefined,
  branch: e.FAKE_GITHUB_BRANCH || undefined,
  webhook: e.FAKE_GITHUB_WEBHOOK_URL ? { url: e.FAKE_GITHUB_WEBHOOK_URL, secret: e.FAKE_GITHUB_WEBHOOK_SECRET ?? '' } : undefined,
  oauth: e.FAKE_GITHUB_OAUTH_CLIENT_ID ? { clientId: e.FAKE_GITHUB_OAUTH_CLIENT_ID, clientSecret: e.FAKE_GITHUB_OAUTH_CLIENT_SECRET ?? '', githubApp: e.FAKE_GITHUB_OAUTH_GITHUB_APP === '1' } : undefined,
  app: e.FAKE_GITHUB_APP_ID && e.FAKE_GITHUB_APP_INSTALLATION_ID && e.FAKE_GITHUB_APP_PUBLIC_KEY ? { appId: e.FAKE_GITHUB_APP_ID, installationId: Number(e.FAKE_GITHUB_APP_INSTALLATION_ID), publicKeyPem: e.FAKE_GITHUB_APP_PUBLIC_KEY.replace(/\\n/g, '\n') } : undefined,
});
for (const login of (e.FAKE_GITHUB_WRITERS ?? '').split(',').filter(Boolean)) gh.setPermission(login.trim(), 'write');
console.log(`fake GitHub for ${gh.fullName}@${gh.branch} (head ${gh.head().sha.slice(0, 7)}) at ${gh.url}`);
console.log(`  GITHUB_API_URL=${gh.url} GITHUB_REPOSITORY=${gh.fullName} GITHUB_BRANCH=${gh.branch}`);
const stop = () => void gh.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
