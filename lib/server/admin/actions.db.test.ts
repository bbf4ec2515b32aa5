/** The admin actions: nobody acts unauthenticated or as a reader; a maintainer runs and approves. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FakeGitHub } from '@/testing/fakes/github-server';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { ForbiddenError, NotFoundError, RateLimitedError, UnauthorizedError } from '../http/errors';
import type { Principal } from '../auth/principal';
import { syncSource } from '../blueprints/sync-source';
import { repositoryReader } from '../github/repository-reader';
import { BROKEN_BLUEPRINT, GOOD_BLUEPRINT, type spiedRunPorts, startFakeGitHub, testServices } from '../github/github.testkit';
import type { GitHubServices } from '../github/services';
import { approvePullRequestAsAdmin, requestSyncAsAdmin, rescoreRunAsAdmin, triggerRunAsAdmin } from './actions';
import type { RescorePorts } from '../runs/contracts';
import { startFakeLlm } from '@/testing/fakes/llm-server';
import { executeRun } from '../runs/engine/execute-run';
import { requestRescore } from '../runs/request-rescore';
import { fakeDeps } from '../runs/runs.testkit';
import { TEST_RUN_DEFAULTS } from '../github/github.testkit';
import { adminOverview } from '../db/queries/admin-overview';

let t: TestDatabase;
let fake: FakeGitHub;
let services: GitHubServices & { runs: ReturnType<typeof spiedRunPorts> };
const user = (role: 'reader' | 'maintainer', id = `u-${role}`): Principal => ({ kind: 'user', user: { id, githubLogin: role, role } });

beforeAll(async () => {
  const [db, gh] = await Promise.all([freshDatabase(), startFakeGitHub({ files: { 'blueprints/greet.yml': GOOD_BLUEPRINT, 'blueprints/bad.yml': BROKEN_BLUEPRINT } })]);
  t = db;
  fake = gh.fake;
  services = testServices(t.db, gh.repo, fake);
  await syncSource({ db: t.db }, repositoryReader(gh.repo, services.github!.source), { trigger: 'test' });
  await t.db.user.createMany({ data: [{ id: 'u-maintainer', githubLogin: 'maintainer', role: 'maintainer' }, { id: 'u-reader', githubLogin: 'reader', role: 'reader' }] });
});
afterAll(async () => {
  await Promise.all([t?.close(), fake?.close()]);
});

describe(`admin actions (${process.env.ASSAY_TEST_DB})`, () => {
  it('refuses anyone who may not act, before doing anything', async () => {
    await expect(triggerRunAsAdmin(t.db, services.runs, null, 'greet')).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(triggerRunAsAdmin(t.db, services.runs, user('reader'), 'greet')).rejects.toBeInstanceOf(ForbiddenError);
    await expect(approvePullRequestAsAdmin(services, user('reader'), 1)).rejects.toBeInstanceOf(ForbiddenError);
    const jobs = { requestSync: async () => { throw new Error('must not be called'); }, pullRequestChanged: async () => {}, pullRequestApproved: async () => {} };
    await expect(requestSyncAsAdmin(t.db, jobs, null)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(services.runs.requestRun).not.toHaveBeenCalled();
  });

  it('lets a maintainer run any valid blueprint, as a manual run recorded as theirs', async () => {
    const run = await triggerRunAsAdmin(t.db, services.runs, user('maintainer'), 'greet');
    expect(services.runs.requestRun.mock.calls[0]?.[1]).toEqual({ blueprintId: 'greet', trigger: 'manual', createdById: 'u-maintainer' });
    expect(await t.db.run.findUnique({ where: { id: run.runId }, select: { trigger: true, createdById: true } })).toEqual({ trigger: 'manual', createdById: 'u-maintainer' });
    await expect(triggerRunAsAdmin(t.db, services.runs, { kind: 'admin-token' }, 'bad')).rejects.toThrow(/has errors/);
    await expect(triggerRunAsAdmin(t.db, services.runs, { kind: 'admin-token' }, 'nope')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('approves a pull request on behalf of the maintainer, and the overview shows it', async () => {
    const pr = await fake.openPullRequest({ author: 'eve', title: 'New one', changes: { 'blueprints/new.yml': GOOD_BLUEPRINT } });
    const outcome = await approvePullRequestAsAdmin(services, user('maintainer'), pr.number);
    expect(outcome).toMatchObject({ status: 'started', runs: [expect.objectContaining({ blueprintId: 'new' })] });
    const o = await adminOverview(t.db);
    expect(o.pullRequests).toEqual([expect.objectContaining({ number: pr.number, state: 'running', approvedBy: 'maintainer' })]);
    expect(o.sources[0]).toMatchObject({ kind: 'github', blueprintCount: 2 });
    expect(o.runsByStatus).toEqual({ queued: 2 });
    expect(o.costs.map((c) => c.runs)).toEqual([2, 2, 2]);
    expect(o.costByTrigger.map((c) => c.trigger)).toEqual(['manual', 'pull_request']);
  });

  it('rate-limits a principal that acts too often', async () => {
    const jobs = { requestSync: async () => {}, pullRequestChanged: async () => {}, pullRequestApproved: async () => {} };
    const busy = user('maintainer', 'u-busy');
    await t.db.user.create({ data: { id: 'u-busy', githubLogin: 'busy', role: 'maintainer' } });
    // The limit is a fixed one-minute window: the clock is held still (Date only; timers and I/O
    // stay real), or on a slow machine the 61 calls straddle a minute and the last counts afresh.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-12-03T08:00:30Z'));
      for (let i = 0; i < 60; i++) await requestSyncAsAdmin(t.db, jobs, busy);
      await expect(requestSyncAsAdmin(t.db, jobs, busy)).rejects.toBeInstanceOf(RateLimitedError);
      vi.setSystemTime(new Date('2026-12-03T08:01:00Z')); // the next window takes actions again
      await expect(requestSyncAsAdmin(t.db, jobs, busy)).resolves.toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('lets a maintainer rescore a stored run: no model is called, and the new run is linked to it', async () => {
    const llm = await startFakeLlm({ rules: [{ lastUser: 'Say hello', reply: 'Hello there!' }] });
    try {
      const deps = await fakeDeps(t.db, llm.url);
      const original = await triggerRunAsAdmin(t.db, services.runs, user('maintainer'), 'greet');
      expect(await executeRun(deps, original.runId)).toBe('completed');
      expect(llm.calls()).toBe(1);
      llm.reset();
      // the real requestRescore; the dispatcher executes the run in this process, as the dev server's does
      const ports: RescorePorts = {
        requestRescore: (db, req, d) => requestRescore(db, req, d, TEST_RUN_DEFAULTS),
        dispatcher: { dispatch: async (runId) => void (await executeRun(deps, runId)) },
      };
      await expect(rescoreRunAsAdmin(t.db, ports, user('reader'), { runId: original.runId })).rejects.toBeInstanceOf(ForbiddenError);
      await expect(rescoreRunAsAdmin(t.db, ports, user('maintainer'), { runId: 'nope' })).rejects.toBeInstanceOf(NotFoundError);
      const rescore = await rescoreRunAsAdmin(t.db, ports, user('maintainer'), { runId: original.runId, judges: ['openai:judge-z'], latestRubric: true });
      expect(llm.calls()).toBe(0); // nothing called at the fake: the stored reply was re-graded
      const run = await t.db.run.findUniqueOrThrow({ where: { id: rescore.runId }, include: { parentRun: { select: { id: true } } } });
      expect(run).toMatchObject({ trigger: 'rescore', status: 'completed', createdById: 'u-maintainer', parentRun: { id: original.runId } });
      expect(run.judges).toEqual([{ model: 'openai:judge-z', approach: 'standard' }]);
      expect(await t.db.verdict.count({ where: { runId: rescore.runId } })).toBe(1);
      expect(await t.db.run.findMany({ where: { parentRunId: original.runId }, select: { id: true } })).toEqual([{ id: rescore.runId }]);
    } finally {
      await llm.close();
    }
  });
});
