/**
 * docs/github.md against the code: the permissions it tells a maintainer to give the GitHub App
 * are exactly those of the calls Assay makes (every `octokit.rest.*` call in the adapters is in
 * app-permissions.ts, and each is an operation of GitHub's REST description, npm @octokit/openapi),
 * the webhook events are those the receiver acts on, and the variables it names are the ones the
 * configuration reads and its errors ask for.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvSchema, parseEnv } from '../env';
import { startOAuth } from '../auth/github-oauth';
import { tokenKey } from '../auth/github-tokens';
import { AUTHOR_CALLS, INSTALLATION_CALLS, permissionsOf, WEBHOOK_EVENTS } from './app-permissions';
import { githubAuth } from './config';

const root = join(__dirname, '../../..');
const doc = readFileSync(join(root, 'docs/github.md'), 'utf8');
const source = (path: string) => readFileSync(join(root, path), 'utf8');

/** The `name: access` items between `<!-- marker -->` and `<!-- /marker -->`. */
function listed(marker: string): string[] {
  const start = doc.indexOf(`<!-- ${marker} -->`);
  const end = doc.indexOf(`<!-- /${marker} -->`);
  expect(start, `docs/github.md has a <!-- ${marker} --> list`).toBeGreaterThan(-1);
  return [...doc.slice(start, end).matchAll(/^\s*- `([^`]+)`/gm)].map((m) => m[1]!).sort();
}

/** `octokit.rest.group.method` and `octokit.paginate(octokit.rest.group.method` calls in a file, as `group.method`. */
const callsIn = (text: string) => new Set([...text.matchAll(/octokit\.rest\.(\w+)\.(\w+)/g)].map((m) => `${m[1]}.${m[2]}`));

describe('docs/github.md against the code', () => {
  it('asks for exactly the permissions of the installation token\'s calls', () => {
    expect(listed('installation-permissions')).toEqual(permissionsOf(INSTALLATION_CALLS));
    expect([...callsIn(source('lib/server/github/octokit-repo.ts'))].sort()).toEqual(Object.keys(INSTALLATION_CALLS).sort());
  });

  it('asks for exactly the permissions of the authors\' calls', () => {
    expect(listed('author-permissions')).toEqual(permissionsOf(AUTHOR_CALLS));
    const authoring = readdirSync(join(root, 'lib/server/authoring')).filter((f) => f.endsWith('.ts') && !f.includes('.test.'));
    const calls = new Set(authoring.flatMap((f) => [...callsIn(source(`lib/server/authoring/${f}`))]));
    expect([...calls].sort()).toEqual(Object.keys(AUTHOR_CALLS).sort());
  });

  it('names every call by an operation of GitHub\'s REST description that a GitHub App may use', () => {
    const require = createRequire(import.meta.url);
    const api = JSON.parse(readFileSync(require.resolve('@octokit/openapi/generated/api.github.com.json'), 'utf8')) as { paths: Record<string, Record<string, { operationId?: string; 'x-github'?: { enabledForGitHubApps?: boolean } }>> };
    const operations = new Map(Object.values(api.paths).flatMap((methods) => Object.values(methods).map((o) => [o.operationId, o] as const)));
    const kebab = (call: string) => call.replace('.', '/').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    for (const call of Object.keys(INSTALLATION_CALLS)) expect(operations.get(kebab(call))?.['x-github']?.enabledForGitHubApps, call).toBe(true);
    // `/user` is for a user's token only (GitHub: not for an installation), which is how authors call it
    for (const call of Object.keys(AUTHOR_CALLS)) expect(operations.has(kebab(call)), call).toBe(true);
  });

  it('subscribes to the webhook events the receiver acts on', () => {
    expect(listed('webhook-events')).toEqual([...WEBHOOK_EVENTS].sort());
    const receiver = source('lib/server/github/webhooks/receive-webhook.ts');
    const handled = [...receiver.matchAll(/event === '(\w+)'/g)].map((m) => m[1]!).filter((e) => e !== 'ping');
    expect(handled.sort()).toEqual([...WEBHOOK_EVENTS].sort());
  });

  it('names every GitHub variable the configuration reads, and no other', () => {
    const read = Object.keys(EnvSchema.shape).filter((k) => k.startsWith('GITHUB_')).sort();
    const named = [...new Set([...doc.matchAll(/\bGITHUB_[A-Z_]+\b/g)].map((m) => m[0]))].sort();
    expect(named).toEqual(read);
    for (const k of ['ASSAY_PUBLIC_URL', 'ASSAY_TOKEN_KEY', 'ASSAY_MAINTAINER_LOGINS', 'ASSAY_PR_APPROVAL_LABEL']) expect(doc).toContain(`\`${k}\``);
  });

  it('names every variable the configuration errors ask for', () => {
    const messages: string[] = [];
    const attempt = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        messages.push((e as Error).message);
      }
    };
    attempt(() => githubAuth(parseEnv({ GITHUB_APP_ID: '1' })));
    attempt(() => startOAuth({ clientId: undefined, clientSecret: undefined, oauthUrl: 'https://github.com', apiUrl: 'https://api.github.com', publicUrl: 'http://x', maintainerLogins: [] }));
    attempt(() => tokenKey(undefined));
    expect(messages).toHaveLength(3);
    const asked = [...new Set(messages.flatMap((m) => [...m.matchAll(/\b(?:GITHUB|ASSAY)_[A-Z_]+\b/g)].map((x) => x[0])))];
    expect(asked.length).toBeGreaterThanOrEqual(6); // the three App variables, the two OAuth ones, the token key
    for (const name of asked) expect(doc, name).toContain(name);
  });
});
