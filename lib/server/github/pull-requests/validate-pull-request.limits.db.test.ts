/**
 * Pull-request validation at GitHub's limits, against the fake GitHub over HTTP: a file over
 * the size limit is refused from the tree listing's size without its blob being downloaded
 * (the fake counts blob downloads), and a secondary rate limit in the middle of the validation
 * is waited out (its retry-after) and the validation completes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLUEPRINT_LIMITS } from '@/lib/core';
import type { FakeGitHub } from '@/testing/fakes/github-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import type { GitHubRepo } from '../port';
import { GOOD_BLUEPRINT, startFakeGitHub, testPolicy } from '../github.testkit';
import { validatePullRequest } from './validate-pull-request';

let t: TestDatabase;
let fake: FakeGitHub;
let repo: GitHubRepo;
const src = () => ({ owner: fake.owner, repo: fake.repo, branch: fake.branch });
const blobDownloads = () => fake.requests.filter((r) => r.method === 'GET' && /\/git\/blobs\//.test(r.path)).map((r) => r.path.split('/').at(-1));

async function open(author: string, changes: Record<string, string | null>) {
  const pr = await fake.openPullRequest({ author, title: 'Add blueprints', changes });
  return { ...pr, v: await validatePullRequest(t.db, repo, src(), testPolicy, { number: pr.number, headSha: pr.headSha, author, title: 'Add blueprints' }) };
}

beforeAll(async () => {
  [t, { fake, repo }] = await Promise.all([freshDatabase(), startFakeGitHub({ files: { 'blueprints/greet.yml': GOOD_BLUEPRINT, 'README.md': '# configs' } })]);
});
afterAll(async () => {
  await Promise.all([t?.close(), fake?.close()]);
});

describe(`pull-request validation at GitHub's limits (${process.env.ASSAY_TEST_DB})`, () => {
  it('refuses a file over the size limit without downloading it, and still checks the others', async () => {
    const huge = `title: Huge\n---\n- prompt: "${'x'.repeat(BLUEPRINT_LIMITS.maxFileBytes)}"\n`;
    const { headSha, v } = await open('stranger', { 'blueprints/huge.yml': huge, 'blueprints/small.yml': GOOD_BLUEPRINT.replace('Greetings', 'Small') });
    const files = fake.git.commits.get(headSha)!.files;
    expect(blobDownloads()).toEqual([files.get('blueprints/small.yml')]); // the huge one was never fetched
    const byPath = new Map(v.validation.files.map((f) => [f.path, f]));
    expect(byPath.get('blueprints/small.yml')).toMatchObject({ valid: true });
    expect(byPath.get('blueprints/huge.yml')).toMatchObject({ valid: false, blobSha: files.get('blueprints/huge.yml') });
    expect(byPath.get('blueprints/huge.yml')!.errors[0]!.message).toBe(
      `the file is ${Buffer.byteLength(huge).toLocaleString('en-US')} bytes, over the limit of ${BLUEPRINT_LIMITS.maxFileBytes.toLocaleString('en-US')} bytes; it was not read`,
    );
    expect(v.state).toBe('invalid');
  });

  it('waits out a secondary rate limit in the middle of the validation, and completes it', async () => {
    // GitHub refuses the blob download once, with retry-after: 1 (a secondary limit, the budget not spent)
    fake.limits.triggerSecondary({ when: (method, path) => method === 'GET' && /\/git\/blobs\//.test(path), retryAfter: 1 });
    const started = Date.now();
    const { number, v } = await open('eve', { 'blueprints/eve.yml': GOOD_BLUEPRINT.replace('Greetings', 'Eve') });
    expect(fake.limits.secondaryRefusals).toHaveLength(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000); // retry-after was honoured, not hammered
    expect(v).toMatchObject({ state: 'awaiting_approval' });
    expect(fake.commentsOn(number)).toHaveLength(1);
  });
});
