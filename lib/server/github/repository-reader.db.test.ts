/**
 * The sync use case over the GitHub repository reader, through the real Octokit adapter and
 * the fake GitHub over HTTP: the shared behaviour suite, then what is particular to a
 * repository against the whole Weval corpus: a full sync stores all 196 blueprints with their
 * commit and blob SHAs, read from one archive of the repository; an incremental sync after one
 * changed file fetches exactly that one blob. That part needs the corpus (ASSAY_WEVAL_CORPUS,
 * testing/outside-data.ts) and skips without it; the shared suite runs either way.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeGitHub } from '@/testing/fakes/github-server';
import { needsCorpus, WEVAL_CORPUS } from '@/testing/outside-data';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { syncSource } from '../blueprints/sync-source';
import { syncSourceSuite } from '../blueprints/sync-source.testkit';
import type { GitHubRepo } from './port';
import { repositoryReader } from './repository-reader';
import { GOOD_BLUEPRINT, startFakeGitHub } from './github.testkit';

syncSourceSuite({
  name: 'GitHub repository',
  knowsContent: true,
  async start(files) {
    const { fake, repo } = await startFakeGitHub({ repo: 'suite', files });
    return {
      reader: repositoryReader(repo, { owner: fake.owner, repo: fake.repo, branch: fake.branch }),
      async change(changes) {
        await fake.commit(changes, 'Change the suite files');
      },
      storedPath: (path) => path,
      close: () => fake.close(),
    };
  },
});

let t: TestDatabase;
let fake: FakeGitHub;
let repo: GitHubRepo;
const src = () => ({ owner: fake.owner, repo: fake.repo, branch: fake.branch });
const blobFetches = () => fake.count('GET', /\/git\/blobs\//);
const sync = (gh: GitHubRepo, opts: { trigger: string }) => syncSource({ db: t.db }, repositoryReader(gh, src()), opts);

beforeAll(async () => {
  [t, { fake, repo }] = await Promise.all([freshDatabase(), startFakeGitHub()]);
});
afterAll(async () => {
  await Promise.all([t?.close(), fake?.close()]);
});

describe.skipIf(!WEVAL_CORPUS)(needsCorpus(`GitHub repository sync of the whole Weval corpus (${process.env.ASSAY_TEST_DB})`), () => {
  // 196 blueprints stored one transaction at a time: ~20 s alone, several times that on a shared, loaded machine
  it('syncs the whole corpus: 196 blueprints, each version with its commit SHA and blob SHA, and the model collections', { timeout: 240_000 }, async () => {
    const head = fake.head().sha;
    const s = await sync(repo, { trigger: 'test' });
    expect(s).toMatchObject({ revision: head, added: 196, changed: 0, unchanged: 0, removed: 0, collections: 8, upToDate: false });
    expect(s.filesRead).toBe(196 + 8);
    // read from one archive of the repository, not 204 blob requests: the whole sync is a handful of API requests
    expect(blobFetches()).toBe(0);
    expect(fake.count('GET', /\/tarball\//)).toBe(1);
    const apiRequests = fake.requests.filter((r) => !r.path.startsWith('/_codeload/') && !r.path.startsWith('/app/'));
    expect(apiRequests.map((r) => r.path.split('/')[4])).toEqual(['branches', 'git', 'tarball']); // branch head, tree, archive
    expect(await t.db.blueprint.count({ where: { removedAt: null } })).toBe(196);
    // every invalid blueprint is stored too, with its errors at file:line:col
    expect(s.invalid).toBe(await t.db.blueprintVersion.count({ where: { valid: false } }));
    for (const e of s.errors) expect(e).toMatch(/^blueprints\/.+\.yml:\d+:\d+: /);

    const versions = await t.db.blueprintVersion.findMany({ select: { sourceCommit: true, blobSha: true, path: true } });
    expect(versions).toHaveLength(196);
    expect(versions.every((v) => v.sourceCommit === head && /^[0-9a-f]{40}$/.test(v.blobSha ?? ''))).toBe(true);
    const tree = new Map(fake.head().files);
    expect(versions.every((v) => tree.get(v.path) === v.blobSha)).toBe(true);

    // ids as Weval gives them: the path under blueprints/ with / → __
    const nested = versions.find((v) => v.path.split('/').length > 2)!;
    const id = nested.path.slice('blueprints/'.length).replace(/\.yml$/, '').replace(/\//g, '__');
    expect(await t.db.blueprint.findUnique({ where: { id }, select: { path: true } })).toEqual({ path: nested.path });

    const core = await t.db.modelCollection.findFirst({ where: { name: 'CORE' } });
    expect(core).toMatchObject({ commitSha: head, blobSha: tree.get('models/CORE.json') });
    expect(Array.isArray(core?.models) && core.models.length).toBeGreaterThan(10);
    const source = await t.db.blueprintSource.findUniqueOrThrow({ where: { key: `github:${fake.owner}/${fake.repo}@main` } });
    expect(source).toMatchObject({ kind: 'github', lastSyncedSha: head, lastSyncError: null });
    expect(await t.db.syncRecord.findFirst({ orderBy: { startedAt: 'desc' } })).toMatchObject({ status: 'completed', blobsFetched: 204, added: 196, commitSha: head });
  });

  it('does nothing more than read the branch head when the head was synced already', async () => {
    const before = fake.requests.length;
    const s = await sync(repo, { trigger: 'cron' });
    expect(s.upToDate).toBe(true);
    expect(fake.requests.slice(before).map((r) => r.path)).toEqual([`/repos/${fake.owner}/${fake.repo}/branches/main`]);
  });

  it('after one changed file, fetches exactly one blob and stores one new version at the new commit', async () => {
    const path = [...fake.head().files.keys()].find((p) => p.startsWith('blueprints/') && p.endsWith('.yml'))!;
    const id = path.slice('blueprints/'.length).replace(/\.yml$/, '').replace(/\//g, '__');
    const { sha } = await fake.commit({ [path]: GOOD_BLUEPRINT }, 'Rewrite one blueprint');
    const fetchedBefore = blobFetches();
    const versionsBefore = await t.db.blueprintVersion.count();

    const s = await sync(repo, { trigger: 'webhook' });
    expect(blobFetches() - fetchedBefore).toBe(1);
    expect(s).toMatchObject({ revision: sha, added: 0, changed: 1, unchanged: 195, removed: 0, filesRead: 1, collections: 8 });
    expect(await t.db.blueprintVersion.count()).toBe(versionsBefore + 1);
    const b = await t.db.blueprint.findUniqueOrThrow({ where: { id }, select: { title: true, latestVersion: { select: { sourceCommit: true, blobSha: true, valid: true } } } });
    expect(b).toEqual({ title: 'Greetings', latestVersion: { sourceCommit: sha, blobSha: fake.head().files.get(path), valid: true } });
  });

  it('marks a deleted blueprint removed (keeping its versions), picks up an added one, and refreshes a changed collection', async () => {
    const [gone] = [...fake.head().files.keys()].filter((p) => p.startsWith('blueprints/') && p.endsWith('.yml')).slice(-1);
    const goneId = gone!.slice('blueprints/'.length).replace(/\.yml$/, '').replace(/\//g, '__');
    await fake.commit({ [gone!]: null, 'blueprints/new/hello.yml': GOOD_BLUEPRINT, 'models/QUICK.json': '["openai:gpt-4o-mini"]' }, 'Shuffle');
    const fetchedBefore = blobFetches();
    const s = await sync(repo, { trigger: 'webhook' });
    expect(s).toMatchObject({ added: 1, changed: 0, removed: 1, filesRead: 2 });
    expect(blobFetches() - fetchedBefore).toBe(2);
    expect(await t.db.blueprint.findUnique({ where: { id: goneId }, select: { removedAt: true, _count: { select: { versions: true } } } })).toMatchObject({ removedAt: expect.any(Date), _count: { versions: 1 } });
    expect(await t.db.blueprint.findUnique({ where: { id: 'new__hello' }, select: { title: true } })).toEqual({ title: 'Greetings' });
    expect((await t.db.modelCollection.findFirst({ where: { name: 'QUICK' } }))?.models).toEqual(['openai:gpt-4o-mini']);
  });

  it('records a failed sync with its error and leaves the stored blueprints as they were', async () => {
    const broken = { ...repo, listFiles: async () => { throw new Error('GitHub is down'); } };
    await fake.commit({ 'README.md': 'changed' }, 'Docs');
    await expect(sync(broken, { trigger: 'cron' })).rejects.toThrow('GitHub is down');
    expect(await t.db.syncRecord.findFirst({ orderBy: { startedAt: 'desc' } })).toMatchObject({ status: 'failed', error: 'GitHub is down' });
    expect((await t.db.blueprintSource.findFirstOrThrow({ where: { key: `github:${fake.owner}/${fake.repo}@main` } })).lastSyncError).toBe('GitHub is down');
    expect(await t.db.blueprint.count({ where: { removedAt: null } })).toBe(196);
    // the next sync repairs it, fetching nothing (README.md is not a blueprint)
    const s = await sync(repo, { trigger: 'cron' });
    expect(s).toMatchObject({ upToDate: false, filesRead: 0, unchanged: 196 });
  });
});
