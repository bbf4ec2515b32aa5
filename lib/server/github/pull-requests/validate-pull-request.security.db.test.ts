/**
 * Issue 11, findings 1 and 9 on the server: pull-request validation runs on every push before
 * anyone approves it, and ran on the server's thread (a 469-byte alias bomb froze it for 62 s;
 * 10,000-deep JSON threw a stack overflow and left the PR "validating" with no check). Now the
 * files are checked in a worker with time and memory limits, and every failure ends in a
 * completed check run that says what happened. Real HTTP throughout: the fake GitHub server,
 * the webhook route served on a port, a real database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeGitHub } from '@/testing/fakes/github-server';
import { hostileBlueprints } from '@/lib/core';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { inProcessJobs } from '../services';
import type { GitHubRepo } from '../port';
import { GOOD_BLUEPRINT, serveHandler, startFakeGitHub, testPolicy, testServices } from '../github.testkit';
import { webhookHandler } from '../webhooks/webhook-route';
import { validateInWorker } from './validate-in-worker';
import { validatePullRequest } from './validate-pull-request';

const { ALIAS_BOMB_469, deepJson, manyPoints, MERGE_BOMB_631 } = hostileBlueprints;
const SECRET = 'webhook-secret-for-security-tests';
let t: TestDatabase;
let fake: FakeGitHub;
let repo: GitHubRepo;
let server: { url: string; close(): Promise<void> };
const src = () => ({ owner: fake.owner, repo: fake.repo, branch: fake.branch });

beforeAll(async () => {
  [t, { fake, repo }] = await Promise.all([freshDatabase(), startFakeGitHub({ files: { 'blueprints/greet.yml': GOOD_BLUEPRINT } })]);
  const services = testServices(t.db, repo, fake);
  server = await serveHandler(webhookHandler(() => ({ db: t.db, secret: SECRET, source: src(), approvalLabel: 'assay:run', command: '/assay run', jobs: inProcessJobs(services) })));
  fake.webhook = { url: `${server.url}/api/webhooks/github`, secret: SECRET };
  // the first check starts the validation worker; the server keeps it warm for later pushes
  await fake.openPullRequest({ author: 'eve', title: 'warm-up', changes: { 'blueprints/warm.yml': GOOD_BLUEPRINT } });
});
afterAll(async () => {
  await Promise.all([t?.close(), fake?.close(), server?.close()]);
});

/** Largest gap between 10 ms ticks of this thread's event loop while `work` runs. */
async function withLagProbe<T>(work: () => Promise<T>): Promise<{ value: T; maxLagMs: number; ms: number }> {
  let maxLagMs = 0;
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    maxLagMs = Math.max(maxLagMs, now - last - 10);
    last = now;
  }, 10);
  const t0 = performance.now();
  try {
    const value = await work();
    return { value, maxLagMs, ms: performance.now() - t0 };
  } finally {
    clearInterval(probe);
  }
}

describe(`untrusted pull-request files (${process.env.ASSAY_TEST_DB})`, () => {
  it('rejects the 469-byte alias bomb in under a second at the alias, while the server answers other requests', async () => {
    // opened without a delivery, so the validation is timed alone (on today's code it took 62 s)
    const webhook = fake.webhook;
    fake.webhook = undefined;
    const pr = await fake.openPullRequest({ author: 'eve', title: 'laughs', changes: { 'blueprints/bomb.yml': ALIAS_BOMB_469 } });
    fake.webhook = webhook;
    const validating = withLagProbe(() => validatePullRequest(t.db, repo, src(), testPolicy, { number: pr.number, headSha: pr.headSha, author: 'eve', title: 'laughs' }));
    // meanwhile, other requests to the webhook route's server: answered (an unsigned delivery is refused at once)
    const others = await Promise.all(
      Array.from({ length: 5 }, async (_, i) => {
        await new Promise((r) => setTimeout(r, i * 40));
        const t0 = performance.now();
        const res = await fetch(fake.webhook!.url, { method: 'POST', body: '{}', headers: { 'x-github-event': 'ping', 'x-github-delivery': `other-${i}` } });
        return { status: res.status, ms: performance.now() - t0 };
      }),
    );
    const { value: v, maxLagMs, ms } = await validating;
    // the check itself, in the (warm) worker, alone: the pull request's GitHub and database calls are the rest
    const t0 = performance.now();
    const [file] = await validateInWorker([{ path: 'blueprints/bomb.yml', blobSha: 'x', text: ALIAS_BOMB_469 }]);
    const workerMs = performance.now() - t0;
    console.log(`alias bomb: checked in the worker in ${workerMs.toFixed(0)} ms; the whole PR validation (GitHub and database calls included) ${ms.toFixed(0)} ms; event-loop lag max ${maxLagMs.toFixed(0)} ms; other requests answered in ${others.map((o) => o.ms.toFixed(0)).join(', ')} ms`);
    expect(file).toMatchObject({ valid: false, errors: [expect.objectContaining({ line: 7, col: 8 })] });
    expect(workerMs).toBeLessThan(1000);
    expect(v.state).toBe('invalid');
    expect(ms).toBeLessThan(5000);
    expect(maxLagMs).toBeLessThan(1000);
    for (const o of others) {
      expect(o.status).toBe(401);
      expect(o.ms).toBeLessThan(1000);
    }
    const [check] = fake.checkRunsFor(pr.headSha);
    expect(check).toMatchObject({ status: 'completed', conclusion: 'failure', output: expect.objectContaining({ title: '1 error in 1 file' }) });
    expect(check!.output.summary).toContain('blueprints/bomb.yml:7:8: the file expands to more than 100,000 values (lists, mappings and scalars) while expanding the alias `*e`');
    expect(check!.annotations).toEqual([expect.objectContaining({ path: 'blueprints/bomb.yml', start_line: 7, start_column: 8, annotation_level: 'failure' })]);
    expect((await t.db.pullRequest.findFirstOrThrow({ where: { headSha: pr.headSha } })).state).toBe('invalid');
  });

  it('rejects the 631-byte merge-key bomb, 10,000-deep JSON and 200,000 points, each at a position, in one check', async () => {
    const pr = await fake.openPullRequest({
      author: 'eve',
      title: 'hostile',
      changes: { 'blueprints/merge.yml': MERGE_BOMB_631, 'blueprints/deep.json': deepJson(10_000), 'blueprints/points.yml': manyPoints(200_000), 'blueprints/fine.yml': GOOD_BLUEPRINT },
    });
    const [check] = fake.checkRunsFor(pr.headSha);
    expect(check).toMatchObject({ status: 'completed', conclusion: 'failure', output: expect.objectContaining({ title: '3 errors in 3 files' }) });
    expect(check!.output.summary).toMatch(/blueprints\/merge\.yml:7:\d+: the file expands to more than 100,000 values .* while expanding the alias `\*m4`/);
    expect(check!.output.summary).toContain('blueprints/deep.json:1:98: lists and mappings are nested more than 64 deep here');
    expect(check!.output.summary).toMatch(/blueprints\/points\.yml:3:\d+: the file has more than 100,000 values/);
    const row = await t.db.pullRequest.findFirstOrThrow({ where: { headSha: pr.headSha } });
    expect(row.state).toBe('invalid');
  });

  it('a file whose check runs past the time limit fails the check with "validation stopped after …"', async () => {
    const pr = await fake.openPullRequest({ author: 'eve', title: 'slow', changes: { 'blueprints/slow.yml': manyPoints(90_000), 'blueprints/fine.yml': GOOD_BLUEPRINT } });
    // a limit no check meets (the worker's start-up alone takes longer), so the timeout path runs
    await validatePullRequest(t.db, repo, src(), testPolicy, { number: pr.number, headSha: pr.headSha, author: 'eve', title: 'slow' }, { timeoutMs: 1, memoryMb: 256 }).catch(() => undefined);
    const checks = fake.checkRunsFor(pr.headSha);
    // the webhook's own validation (normal limits) came first; this head is not validated twice
    expect(checks).toHaveLength(1);
    // a file the warm pool cannot check within 5 ms (its time counts from when a worker receives it)
    const other = await fake.openPullRequest({ author: 'eve', title: 'slow again', changes: { 'blueprints/slow2.yml': manyPoints(90_000) } });
    await t.db.pullRequest.deleteMany({ where: { headSha: other.headSha } });
    const v = await validatePullRequest(t.db, repo, src(), testPolicy, { number: other.number, headSha: other.headSha, author: 'eve', title: 'slow again' }, { timeoutMs: 5, memoryMb: 256 });
    expect(v.state).toBe('invalid');
    const last = fake.checkRunsFor(other.headSha).at(-1)!;
    expect(last).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(last.output.summary).toContain('blueprints/slow2.yml:1:1: validation stopped after 5 ms: the file took too long to check');
  });

  it('a file whose check runs out of memory fails the check saying so, and the next file is still checked', async () => {
    const pr = await fake.openPullRequest({ author: 'eve', title: 'big', changes: { 'blueprints/a-big.yml': manyPoints(99_000), 'blueprints/b-fine.yml': GOOD_BLUEPRINT } });
    await t.db.pullRequest.deleteMany({ where: { headSha: pr.headSha } });
    const v = await validatePullRequest(t.db, repo, src(), testPolicy, { number: pr.number, headSha: pr.headSha, author: 'eve', title: 'big' }, { timeoutMs: 30_000, memoryMb: 24 });
    expect(v.validation.files.map((f) => [f.path, f.valid, f.errors[0]?.message])).toEqual([
      ['blueprints/a-big.yml', false, 'validation stopped: checking this file needed more than 24 MB of memory'],
      ['blueprints/b-fine.yml', true, undefined],
    ]);
    expect(fake.checkRunsFor(pr.headSha).at(-1)).toMatchObject({ status: 'completed', conclusion: 'failure' });
  });

  it('when GitHub fails mid-validation, the check run is concluded as failed (not left in progress) and a retry completes it', async () => {
    const pr = await fake.openPullRequest({ author: 'eve', title: 'vanishing', changes: { 'blueprints/gone.yml': GOOD_BLUEPRINT.replace('Greetings', 'Gone') } });
    await t.db.pullRequest.deleteMany({ where: { headSha: pr.headSha } });
    const blob = [...fake.git.blobs.entries()].find(([, b]) => b.toString().includes('title: Gone'))!;
    fake.git.blobs.delete(blob[0]);
    await expect(validatePullRequest(t.db, repo, src(), testPolicy, { number: pr.number, headSha: pr.headSha, author: 'eve', title: 'vanishing' })).rejects.toThrow();
    const [, check] = fake.checkRunsFor(pr.headSha);
    expect(check).toMatchObject({ status: 'completed', conclusion: 'failure', output: expect.objectContaining({ title: 'Validation could not finish' }) });
    expect(check!.output.summary).toContain('was not found (HTTP 404)');
    expect((await t.db.pullRequest.findFirstOrThrow({ where: { headSha: pr.headSha } })).state).toBe('invalid');
    // GitHub recovers; the retry (a job runner's, or a new delivery) completes the same check run
    fake.git.blobs.set(blob[0], blob[1]);
    const v = await validatePullRequest(t.db, repo, src(), testPolicy, { number: pr.number, headSha: pr.headSha, author: 'eve', title: 'vanishing' });
    expect(v.state).toBe('awaiting_approval');
    expect(fake.checkRunsFor(pr.headSha)).toHaveLength(2);
    expect(fake.checkRunsFor(pr.headSha)[1]).toMatchObject({ id: check!.id, conclusion: 'success' });
  });
});
