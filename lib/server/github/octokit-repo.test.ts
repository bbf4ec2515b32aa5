/**
 * The Octokit adapter of the GitHubRepo port against the fake GitHub server (real HTTP):
 * the same adapter production uses, so these are its contract tests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { FakeGitHub } from '@/testing/fakes/github-server';
import { corpusFiles } from '@/testing/fakes/github-server-corpus';
import { NotFoundError, UpstreamError } from '../http/errors';
import { createOctokit, octokitRepo } from './octokit-repo';
import { startFakeGitHub, TEST_APP_BOT, TEST_TOKEN } from './github.testkit';
import type { GitHubRepo } from './port';

let fake: FakeGitHub;
let repo: GitHubRepo;
const corpus = corpusFiles();

beforeAll(async () => {
  ({ fake, repo } = await startFakeGitHub());
});
afterAll(async () => fake?.close());

describe('octokit adapter against the fake GitHub', () => {
  // The fake's files: the Weval corpus when present, else this repository's blueprints (github-server-corpus.ts).
  it('lists every file of the repository at the head commit in one tree request, with blob SHAs', async () => {
    const head = await repo.branchHead('main');
    expect(head).toBe(fake.head().sha);
    const before = fake.requests.length;
    const files = await repo.listFiles(head);
    expect(fake.requests.length - before).toBe(1);
    expect(files.map((f) => f.path).sort()).toEqual(Object.keys(corpus).sort());
    expect(files.filter((f) => f.path.startsWith('blueprints/')).length).toBeGreaterThan(5);
    const core = files.find((f) => f.path === 'models/CORE.json')!;
    expect(await repo.readBlob(core.blobSha)).toBe(corpus['models/CORE.json']);
    const blueprint = files.find((f) => f.path.startsWith('blueprints/') && f.path.endsWith('.yml'))!;
    expect(await repo.readBlob(blueprint.blobSha)).toBe(corpus[blueprint.path]);
  });

  it('walks the trees one by one when GitHub truncates the recursive listing', async () => {
    const small = await FakeGitHub.start({ token: TEST_TOKEN, treeEntryLimit: 5, files: { 'a.txt': 'a', 'blueprints/x/y.yml': 'y', 'blueprints/z.yml': 'z', 'models/CORE.json': '[]' } });
    try {
      const r = octokitRepo(createOctokit({ apiUrl: small.url, auth: { kind: 'token', token: TEST_TOKEN } }), small.owner, small.repo);
      const files = await r.listFiles(small.head().sha);
      expect(files.map((f) => f.path).sort()).toEqual(['a.txt', 'blueprints/x/y.yml', 'blueprints/z.yml', 'models/CORE.json']);
      expect(small.count('GET', /\/git\/trees\//)).toBeGreaterThan(1);
    } finally {
      await small.close();
    }
  });

  it('pages through a pull request with more than 100 changed files', async () => {
    const changes = Object.fromEntries(Array.from({ length: 130 }, (_, i) => [`blueprints/many/b${String(i).padStart(3, '0')}.yml`, `title: B${i}\n`]));
    const { number } = await fake.openPullRequest({ author: 'alice', title: 'Many', changes });
    const files = await repo.listPullRequestFiles(number);
    expect(files).toHaveLength(130);
    expect(files.every((f) => f.status === 'added' && f.blobSha.length === 40)).toBe(true);
    const pr = await repo.getPullRequest(number);
    expect(pr).toMatchObject({ number, title: 'Many', author: 'alice', state: 'open', labels: [] });
  });

  it('sends annotations 50 per request and completes the check run with the last batch', async () => {
    const id = await repo.createCheckRun(fake.head().sha, 'Assay: blueprints');
    const annotations = Array.from({ length: 120 }, (_, i) => ({ path: 'blueprints/a.yml', startLine: i + 1, endLine: i + 1, startColumn: 3, endColumn: 3, level: 'failure' as const, title: 'x', message: `error ${i}` }));
    await repo.completeCheckRun(id, { conclusion: 'failure', title: '120 errors', summary: 's', annotations });
    const run = fake.checkRuns.find((c) => c.id === id)!;
    expect(run.status).toBe('completed');
    expect(run.conclusion).toBe('failure');
    expect(run.annotations).toHaveLength(120);
    expect(run.annotations[119]).toMatchObject({ start_line: 120, start_column: 3, annotation_level: 'failure', message: 'error 119' });
  });

  it('posts and edits comments, and reports a deleted comment as gone', async () => {
    const { number } = await fake.openPullRequest({ author: 'bob', title: 'One', changes: { 'blueprints/one.yml': 'title: One\n' } });
    const id = await repo.postComment(number, 'first');
    expect(await repo.updateComment(id, 'second')).toBe(true);
    expect(fake.commentsOn(number).map((c) => [c.body, c.user])).toEqual([['second', TEST_APP_BOT]]);
    expect(await repo.updateComment(999_999, 'x')).toBe(false);
  });

  it("reads a collaborator's role, telling maintain from write", async () => {
    fake.setPermission('mia', 'maintain');
    fake.setPermission('wes', 'write');
    expect(await repo.permissionOf('mia')).toBe('maintain');
    expect(await repo.permissionOf('wes')).toBe('write');
    expect(await repo.permissionOf('stranger')).toBe('none');
  });

  it('maps 404 to NotFoundError and refused credentials to UpstreamError', async () => {
    await expect(repo.getPullRequest(4242)).rejects.toBeInstanceOf(NotFoundError);
    const anonymous = octokitRepo(createOctokit({ apiUrl: fake.url, auth: { kind: 'token', token: 'wrong' } }), fake.owner, fake.repo);
    await expect(anonymous.branchHead('main')).rejects.toBeInstanceOf(UpstreamError);
  });
});

describe('GitHub App authentication', () => {
  it('mints an installation token with an RS256 JWT and uses it; a wrong key is refused', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const appFake = await FakeGitHub.start({ app: { appId: '123', installationId: 77, publicKeyPem }, files: { 'blueprints/a.yml': 'title: A\n' } });
    try {
      const r = octokitRepo(createOctokit({ apiUrl: appFake.url, auth: { kind: 'app', appId: '123', privateKey: privatePem, installationId: 77 } }), appFake.owner, appFake.repo);
      expect(await r.branchHead('main')).toBe(appFake.head().sha);
      await r.listFiles(appFake.head().sha);
      // one token for both calls: it is cached until shortly before it expires
      expect(appFake.count('POST', /\/app\/installations\/77\/access_tokens$/)).toBe(1);

      const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      const bad = octokitRepo(createOctokit({ apiUrl: appFake.url, auth: { kind: 'app', appId: '123', privateKey: other, installationId: 77 } }), appFake.owner, appFake.repo);
      await expect(bad.branchHead('main')).rejects.toThrow(/GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY and GITHUB_APP_INSTALLATION_ID/);
    } finally {
      await appFake.close();
    }
  });
});
