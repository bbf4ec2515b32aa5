/**
 * The repository sync at GitHub's limits, through the real Octokit adapter and the fake GitHub:
 * a truncated recursive tree is walked only under `blueprints/` and `models/`; a secondary rate
 * limit during the sync is waited out; a first sync reads its files from one archive, so it fits
 * in GitHub's 60 requests an hour for an unauthenticated client; and when that limit does stop a
 * sync, the error says so and how to lift it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FakeGitHub } from '@/testing/fakes/github-server';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { syncSource } from '../blueprints/sync-source';
import { RateLimitedError } from '../http/errors';
import { createOctokit, octokitRepo } from './octokit-repo';
import { repositoryReader } from './repository-reader';
import { GOOD_BLUEPRINT, startFakeGitHub, TEST_CALL_LIMITS } from './github.testkit';

let t: TestDatabase | undefined;
let fake: FakeGitHub | undefined;
afterEach(async () => {
  await Promise.all([t?.close(), fake?.close()]);
  t = fake = undefined;
});

const treeRequests = (gh: FakeGitHub, since: number) => gh.requests.slice(since).filter((r) => r.path.includes('/git/trees/')).map((r) => r.path.split('/').at(-1)!);

describe(`repository sync at GitHub's limits (${process.env.ASSAY_TEST_DB})`, () => {
  it('walks a truncated tree only under blueprints/ and models/', async () => {
    const files: Record<string, string> = {
      'README.md': '# configs',
      'docs/guide/a.md': 'a',
      'docs/guide/deep/b.md': 'b',
      'site/src/c.ts': 'c',
      'models/CORE.json': '["openai:gpt-4o-mini"]',
      'blueprints/nested/one.yml': GOOD_BLUEPRINT,
    };
    // enough blueprints that the blueprints/ folder's own recursive listing is truncated too
    for (const n of ['a', 'b', 'c', 'd', 'e', 'f']) files[`blueprints/${n}.yml`] = GOOD_BLUEPRINT.replace('Greetings', `Greetings ${n}`);
    let repo;
    [t, { fake, repo }] = await Promise.all([freshDatabase(), startFakeGitHub({ files, treeEntryLimit: 7 })]);
    const head = fake.head();
    const root = fake.git.listTree(head.treeSha, false)!;
    const sha = (dir: string) => root.find((e) => e.path === dir)!.sha;
    const nested = fake.git.listTree(sha('blueprints'), false)!.find((e) => e.path === 'nested')!.sha;

    const s = await syncSource({ db: t.db }, repositoryReader(repo, { owner: fake.owner, repo: fake.repo, branch: fake.branch }), { trigger: 'test' });
    expect(s).toMatchObject({ added: 7, collections: 1, invalid: 0 });
    // the whole listing (truncated), the root, blueprints/ (truncated: walked), its one sub-folder, models/; never docs/ or site/
    expect(treeRequests(fake, 0)).toEqual([head.sha, head.treeSha, sha('blueprints'), sha('blueprints'), nested, sha('models')]);
    // branch head, trees, 7 blueprints and a collection (the App's token exchange aside)
    expect(fake.requests.filter((r) => !r.path.startsWith('/app/'))).toHaveLength(1 + 6 + 8);
  });

  it('waits out a secondary rate limit during the sync and completes it', async () => {
    let repo;
    [t, { fake, repo }] = await Promise.all([freshDatabase(), startFakeGitHub({ files: { 'blueprints/a.yml': GOOD_BLUEPRINT, 'models/CORE.json': '["x:y"]' } })]);
    fake.limits.triggerSecondary({ when: (method, path) => path.includes('/git/trees/'), retryAfter: 1 });
    const s = await syncSource({ db: t.db }, repositoryReader(repo, { owner: fake.owner, repo: fake.repo, branch: fake.branch }), { trigger: 'test' });
    expect(s).toMatchObject({ added: 1, collections: 1 });
    expect(fake.requests.filter((r) => r.path.includes('/git/trees/')).map((r) => r.status)).toEqual([403, 200]);
  });

  it('makes a first sync unauthenticated within GitHub\'s 60 requests an hour: the files come in one archive', async () => {
    // no token: GitHub serves a public repository to anyone, 60 requests an hour; 80 blueprints would take 80 blob requests
    const files = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`blueprints/b${i}.yml`, GOOD_BLUEPRINT.replace('Greetings', `Greetings ${i}`)]));
    [t, fake] = await Promise.all([freshDatabase(), FakeGitHub.start({ files: { ...files, 'models/CORE.json': '["openai:gpt-4o-mini"]', 'README.md': '# configs' } })]);
    const repo = octokitRepo(createOctokit({ apiUrl: fake.url, auth: { kind: 'none' } }, TEST_CALL_LIMITS), fake.owner, fake.repo, { checkRuns: false });
    const s = await syncSource({ db: t.db }, repositoryReader(repo, { owner: fake.owner, repo: fake.repo, branch: fake.branch }), { trigger: 'test' });
    expect(s).toMatchObject({ added: 80, collections: 1, filesRead: 81, invalid: 0 });
    // branch head, tree, archive: three of the hour's 60 (the download itself is codeload's, outside the API)
    expect(fake.requests.map((r) => r.path.split('/').slice(0, 5).join('/'))).toEqual(['/repos/weval-org/configs/branches', '/repos/weval-org/configs/git', '/repos/weval-org/configs/tarball', '/_codeload/weval-org/configs/legacy.tar.gz']);
    expect(fake.limits.used(null)).toBe(3);
    // a later sync with one changed file reads that one blob, not the archive
    await fake.commit({ 'blueprints/b1.yml': GOOD_BLUEPRINT.replace('Greetings', 'Changed') });
    const again = await syncSource({ db: t.db }, repositoryReader(repo, { owner: fake.owner, repo: fake.repo, branch: fake.branch }), { trigger: 'test' });
    expect(again).toMatchObject({ changed: 1, filesRead: 1 });
    expect(fake.count('GET', /\/git\/blobs\//)).toBe(1);
    expect(fake.count('GET', /\/tarball\//)).toBe(1);
  });

  it("says when GitHub's 60 unauthenticated requests an hour stop a sync, and how to lift the limit", async () => {
    [t, fake] = await Promise.all([freshDatabase(), FakeGitHub.start({ files: { 'blueprints/a.yml': GOOD_BLUEPRINT } })]);
    const repo = octokitRepo(createOctokit({ apiUrl: fake.url, auth: { kind: 'none' } }, TEST_CALL_LIMITS), fake.owner, fake.repo, { checkRuns: false });
    // the hour's budget is spent but for one request (by other anonymous calls from this address)
    for (let i = 0; i < 59; i++) await fetch(`${fake.url}/repos/${fake.owner}/${fake.repo}/branches/main`);
    const e = await syncSource({ db: t.db }, repositoryReader(repo, { owner: fake.owner, repo: fake.repo, branch: fake.branch }), { trigger: 'test' }).then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(RateLimitedError);
    expect((e as Error).message).toMatch(/^GitHub's limit for unauthenticated requests \(60 an hour\) stopped the tree [0-9a-f]{40}; set GITHUB_TOKEN or a GitHub App for 5,000 an hour, until \d\d:\d\d:\d\d UTC \(in \d+ s\)\./);
    expect((e as RateLimitedError).retryAfterSeconds).toBeGreaterThan(3000); // the hour's reset, not waited for
    expect(await t.db.syncRecord.findFirst()).toMatchObject({ status: 'failed', error: (e as Error).message });
  });
});
