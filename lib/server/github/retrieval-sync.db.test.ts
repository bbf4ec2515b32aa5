/**
 * A retrieval blueprint synced from GitHub (the real Octokit adapter against the fake GitHub
 * server): the corpus, queries and qrels beside it are fetched with it and linked to its
 * version; a commit that changes only a data file gives new data and so a new run identity;
 * a broken data file is reported at its own path:line:col and leaves the version without data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeGitHub } from '@/testing/fakes/github-server';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { syncSource } from '../blueprints/sync-source';
import { requestRun } from '../runs/request-run';
import { noDispatch, TEST_DEFAULTS } from '../runs/runs.testkit';
import { RETRIEVAL_BLUEPRINT, RETRIEVAL_SIZES, retrievalFiles } from '../runs/retrieval/retrieval.testkit';
import { repositoryReader } from './repository-reader';
import { startFakeGitHub } from './github.testkit';
import type { GitHubRepo } from './port';

let t: TestDatabase;
let fake: FakeGitHub;
let repo: GitHubRepo;

const inRepo = (files: Record<string, string>) => Object.fromEntries(Object.entries(files).map(([p, text]) => [`blueprints/${p}`, text]));
const BLUEPRINT_ID = 'retrieval__suite';

beforeAll(async () => {
  t = await freshDatabase();
  ({ fake, repo } = await startFakeGitHub({ repo: 'retrieval', files: { 'blueprints/retrieval/suite.yml': RETRIEVAL_BLUEPRINT, ...inRepo(retrievalFiles()) } }));
});
afterAll(async () => {
  await Promise.all([t?.close(), fake?.close()]);
});

const sync = () => syncSource({ db: t.db }, repositoryReader(repo, { owner: fake.owner, repo: fake.repo, branch: fake.branch }), { trigger: 'test' });
const link = async () => {
  const b = await t.db.blueprint.findUniqueOrThrow({ where: { id: BLUEPRINT_ID }, select: { latestVersionId: true } });
  return t.db.retrievalVersionData.findUniqueOrThrow({ where: { versionId: b.latestVersionId! }, include: { dataset: true } });
};
const identity = async () => (await requestRun(t.db, { blueprintId: BLUEPRINT_ID, trigger: 'cli' }, noDispatch, TEST_DEFAULTS)).identityHash;

describe(`GitHub sync of a retrieval blueprint (${process.env.ASSAY_TEST_DB})`, () => {
  let first: string;

  it('fetches the three files beside the blueprint and links their data to its version', async () => {
    const s = await sync();
    expect(s).toMatchObject({ added: 1, invalid: 0, errors: [] });
    const l = await link();
    expect(l.issues).toEqual([]);
    expect(l.dataset).toMatchObject({ docCount: RETRIEVAL_SIZES.documents, queryCount: RETRIEVAL_SIZES.queries });
    // the data files were fetched as blobs at the synced commit
    expect(fake.count('GET', /\/git\/blobs\//)).toBe(4);
    first = await identity();
  });

  it('a commit that changes only the corpus gives the same version new data, and a new run identity', async () => {
    const corpus = retrievalFiles()['retrieval/data/corpus.jsonl']!.replace('Volcanoes erupt', 'Volcanoes often erupt');
    await fake.commit({ 'blueprints/retrieval/data/corpus.jsonl': corpus }, 'Reword a note');
    const before = await link();
    const s = await sync();
    expect(s).toMatchObject({ changed: 0, unchanged: 1, errors: [] });
    const after = await link();
    expect(after.versionId).toBe(before.versionId);
    expect(after.dataset!.contentHash).not.toBe(before.dataset!.contentHash);
    expect(await identity()).not.toBe(first);
  });

  it('a malformed qrels line is reported at the qrels file’s path:line:col and the version has no data to run', async () => {
    const qrels = `${retrievalFiles()['retrieval/data/qrels.jsonl']}{"query_id": "q1", "doc_id": \n`;
    await fake.commit({ 'blueprints/retrieval/data/qrels.jsonl': qrels }, 'Break the qrels');
    const s = await sync();
    expect(s.errors).toHaveLength(1);
    expect(s.errors[0]).toMatch(/^blueprints\/retrieval\/data\/qrels\.jsonl:14:\d+: /);
    expect((await link()).datasetId).toBeNull();
    await expect(identity()).rejects.toThrow(/has no data to run on:\nblueprints\/retrieval\/data\/qrels\.jsonl:14:/);
  });
});
