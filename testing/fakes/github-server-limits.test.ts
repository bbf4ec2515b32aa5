/**
 * The fake GitHub's limits and late forks, held to GitHub's published REST description (npm
 * @octokit/openapi): every status the fake answers for them is one the operation documents, with
 * the headers GitHub's rate-limit documentation names.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGitHub } from './github-server';

type Api = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
const api = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('@octokit/openapi/generated/api.github.com.json'), 'utf8')) as Api;
const documented = (path: string, method: string) => Object.keys(api.paths[path]![method]!.responses);

let gh: FakeGitHub;
beforeAll(async () => {
  gh = await FakeGitHub.start({ files: { 'blueprints/a.yml': 'title: A\n' }, oauth: { clientId: 'c', clientSecret: 's' } });
});
afterAll(async () => {
  await gh?.close();
});

describe('the fake GitHub at its limits', () => {
  it('counts an anonymous client down from 60 an hour, then refuses with remaining 0', async () => {
    gh.limits.hourly.anonymous = 3;
    try {
      const url = `${gh.url}/repos/${gh.fullName}/branches/main`;
      const seen = [];
      for (let i = 0; i < 4; i++) {
        const res = await fetch(url);
        seen.push([res.status, res.headers.get('x-ratelimit-remaining')]);
        if (res.status === 200) expect(res.headers.get('x-ratelimit-resource')).toBe('core');
      }
      expect(seen).toEqual([[200, '2'], [200, '1'], [200, '0'], [403, '0']]);
    } finally {
      gh.limits.hourly.anonymous = 60;
    }
  });

  it('answers a triggered secondary limit with 403, retry-after and GitHub\'s message, over the control API too', async () => {
    await fetch(`${gh.url}/_fake/limits/secondary`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ path: '/git/trees/', retryAfter: 7 }) });
    const tree = await fetch(`${gh.url}/repos/${gh.fullName}/git/trees/main`);
    expect(tree.status).toBe(403);
    expect(tree.headers.get('retry-after')).toBe('7');
    expect(tree.headers.get('x-ratelimit-remaining')).not.toBe('0'); // a secondary limit leaves the hourly budget alone
    expect(((await tree.json()) as { message: string }).message).toMatch(/^You have exceeded a secondary rate limit/);
    expect((await fetch(`${gh.url}/repos/${gh.fullName}/git/trees/main`)).status).toBe(200); // once only
  });

  it("answers a new fork's Git data as an empty repository's until GitHub has copied it", async () => {
    gh.forkGit.created('amy');
    gh.forks.set('amy', { pendingPolls: 0 });
    gh.git.branches.set('amy/main', gh.head().sha);
    const ref = () => fetch(`${gh.url}/repos/amy/${gh.repo}/git/ref/heads/main`);
    const first = await ref();
    expect(first.status).toBe(409);
    expect(((await first.json()) as { message: string }).message).toBe('Git Repository is empty.');
    expect(documented('/repos/{owner}/{repo}/git/ref/{ref}', 'get')).toContain('409');
    expect(documented('/repos/{owner}/{repo}/git/refs', 'post')).toContain('409');
    expect((await ref()).status).toBe(409);
    expect((await ref()).status).toBe(200);
    // the repository itself answers at once (create-fork's 202 is the repository)
    expect(documented('/repos/{owner}/{repo}/forks', 'post')).toContain('202');
  });

  it('redirects the archive to codeload, as the REST description says', async () => {
    const res = await fetch(`${gh.url}/repos/${gh.fullName}/tarball/main`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(documented('/repos/{owner}/{repo}/tarball/{ref}', 'get')).toEqual(['302']);
    const archive = await fetch(res.headers.get('location')!);
    expect(archive.headers.get('content-type')).toBe('application/x-gzip');
    expect((await archive.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });
});
