/**
 * In-process GitHub jobs through the outbox, against the fake GitHub: a validation that fails
 * (GitHub's secondary rate limit asks for a wait longer than a job waits) is kept, retried when
 * due, and completes the pull request's check; a job whose process stopped mid-run (its lease
 * lapsed) is picked up by the next process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeGitHub } from '@/testing/fakes/github-server';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import type { GitHubRepo } from './port';
import { defaultBackoffMs, durableJobs, runDueGitHubJobs } from './job-outbox';
import { inProcessJobs } from './services';
import { GOOD_BLUEPRINT, startFakeGitHub, TEST_APP_BOT, testServices } from './github.testkit';

let t: TestDatabase;
let fake: FakeGitHub;
let repo: GitHubRepo;

beforeAll(async () => {
  [t, { fake, repo }] = await Promise.all([freshDatabase(), startFakeGitHub({ files: { 'blueprints/greet.yml': GOOD_BLUEPRINT } })]);
});
afterAll(async () => {
  await Promise.all([t?.close(), fake?.close()]);
});

describe(`GitHub jobs in process (${process.env.ASSAY_TEST_DB})`, () => {
  it('keeps a failed pull-request validation and retries it when due, until the check completes', async () => {
    const run = inProcessJobs(testServices(t.db, repo, fake));
    const deferred: (() => Promise<void>)[] = [];
    let clock = new Date();
    const jobs = durableJobs(t.db, run, { defer: (task) => deferred.push(task), now: () => clock });
    const pr = await fake.openPullRequest({ author: 'eve', title: 'Add eve', changes: { 'blueprints/eve.yml': GOOD_BLUEPRINT.replace('Greetings', 'Eve') } });
    // GitHub's secondary limit with a retry-after longer than a job waits (a minute): the first run fails
    fake.limits.triggerSecondary({ when: (method, path) => method === 'GET' && path.endsWith(`/pulls/${pr.number}/files`), retryAfter: 600 });

    await jobs.pullRequestChanged({ number: pr.number, headSha: pr.headSha, author: 'eve', title: 'Add eve' });
    expect(deferred).toHaveLength(1);
    await deferred[0]!(); // what Next's `after` runs once the webhook is answered
    const failed = await t.db.gitHubJob.findFirstOrThrow({ where: { kind: 'pull_request_changed' } });
    expect(failed).toMatchObject({ status: 'pending', attempts: 1 });
    expect(failed.lastError).toMatch(/secondary rate limit/);
    expect(failed.runAfter.getTime()).toBe(clock.getTime() + defaultBackoffMs(1));
    expect(fake.commentsOn(pr.number)).toHaveLength(0);

    // not due yet: nothing runs
    expect(await runDueGitHubJobs(t.db, run, { now: () => clock })).toEqual({ ran: 0, failed: 0 });
    // due: the retry (as the poller of this or the next process makes it) validates and reports
    clock = new Date(clock.getTime() + defaultBackoffMs(1) + 1);
    expect(await runDueGitHubJobs(t.db, run, { now: () => clock })).toEqual({ ran: 1, failed: 0 });
    expect(await t.db.gitHubJob.findUniqueOrThrow({ where: { id: failed.id } })).toMatchObject({ status: 'done', attempts: 2, lastError: null });
    expect(fake.commentsOn(pr.number)).toHaveLength(1);
    const [check] = fake.checkRunsFor(pr.headSha);
    expect(check).toMatchObject({ status: 'completed', conclusion: 'success', by: TEST_APP_BOT });
    expect(await t.db.pullRequest.findFirstOrThrow({ where: { number: pr.number } })).toMatchObject({ state: 'awaiting_approval' });
  });

  it('runs a job again when the process running it stopped (its lease lapsed)', async () => {
    const run = inProcessJobs(testServices(t.db, repo, fake));
    const pr = await fake.openPullRequest({ author: 'ann', title: 'Add ann', changes: { 'blueprints/ann.yml': GOOD_BLUEPRINT.replace('Greetings', 'Ann') } });
    // a process claimed this job and died: the row says running, with a lease that has run out
    const stuck = await t.db.gitHubJob.create({
      data: { kind: 'pull_request_changed', payload: { kind: 'pull_request_changed', pr: { number: pr.number, headSha: pr.headSha, author: 'ann', title: 'Add ann' } }, status: 'running', attempts: 1, lockedUntil: new Date(Date.now() - 1000) },
    });
    // while the lease holds, another process leaves it alone
    expect(await runDueGitHubJobs(t.db, run, { now: () => new Date(Date.now() - 60_000) })).toEqual({ ran: 0, failed: 0 });
    // the next process's start-up pass (resumeGitHubJobs) picks it up
    expect(await runDueGitHubJobs(t.db, run)).toEqual({ ran: 1, failed: 0 });
    expect(await t.db.gitHubJob.findUniqueOrThrow({ where: { id: stuck.id } })).toMatchObject({ status: 'done', attempts: 2 });
    expect(fake.commentsOn(pr.number)).toHaveLength(1);
  });

  it('runs a job at once without `defer`, and throws its error to the caller while keeping it for a retry', async () => {
    const run = inProcessJobs(testServices(t.db, repo, fake));
    const jobs = durableJobs(t.db, run);
    await expect(jobs.pullRequestChanged({ number: 999, headSha: fake.head().sha, author: 'x', title: 'gone' })).rejects.toThrow(/not found/);
    // a pull request GitHub does not know will not appear by waiting: kept, marked failed, not retried
    expect(await t.db.gitHubJob.findFirstOrThrow({ where: { payload: { path: ['pr', 'number'], equals: 999 } } })).toMatchObject({ status: 'failed', attempts: 1 });
  });
});
