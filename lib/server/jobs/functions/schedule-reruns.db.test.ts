/**
 * Scheduled re-runs: a blueprint whose run identity changed runs once; an unchanged one is
 * skipped; one whose latest run is too old repeats its identical run; a tick is capped. The
 * cron under the strict Inngest harness requests each due blueprint once per tick, in a bounded
 * number of steps, even when each of its steps is executed twice at once.
 * requestRun is the real one (lib/server/runs), behind a spy; nothing is executed.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InngestHarness } from '@/testing/inngest/harness';
import type { FakeGitHub } from '@/testing/fakes/github-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import type { GitHubServices } from '../../github/services';
import { syncSource } from '../../blueprints/sync-source';
import { repositoryReader } from '../../github/repository-reader';
import { GOOD_BLUEPRINT, type spiedRunPorts, startFakeGitHub, testServices } from '../../github/github.testkit';
import { planReruns, scheduleReruns } from './schedule-reruns';
import { scheduleRerunsFunction } from './schedule-reruns-cron';

let t: TestDatabase;
let fake: FakeGitHub;
let services: GitHubServices & { runs: ReturnType<typeof spiedRunPorts> };
const policy = { maxAgeDays: 7, maxPerTick: 10 };
const sync = () => syncSource({ db: t.db }, repositoryReader(services.github!.repo, services.github!.source), { trigger: 'test' });
const created = (results: { blueprintId: string; deduplicated: boolean }[]) => results.filter((r) => !r.deduplicated).map((r) => r.blueprintId).sort();

beforeAll(async () => {
  const [db, gh] = await Promise.all([
    freshDatabase(),
    startFakeGitHub({ files: { 'blueprints/alpha.yml': GOOD_BLUEPRINT, 'blueprints/beta.yml': GOOD_BLUEPRINT.replace('Greetings', 'Beta'), 'blueprints/broken.yml': 'title: [' } }),
  ]);
  t = db;
  fake = gh.fake;
  services = testServices(t.db, gh.repo, fake);
  await sync();
});
afterAll(async () => {
  await Promise.all([t?.close(), fake?.close()]);
});
beforeEach(() => {
  services.runs.requestRun.mockClear();
});

describe(`scheduled re-runs (${process.env.ASSAY_TEST_DB})`, () => {
  it('runs every valid blueprint that never ran, and never an invalid one', async () => {
    expect((await planReruns(t.db, policy, new Date())).map((d) => [d.blueprintId, d.reason])).toEqual([
      ['alpha', 'never_run'],
      ['beta', 'never_run'],
    ]);
    expect(created(await scheduleReruns(t.db, services.runs, policy))).toEqual(['alpha', 'beta']);
  });

  it('asks for batch-mode runs when the policy says so (ASSAY_RERUN_MODE=batch)', async () => {
    await t.db.run.updateMany({ data: { createdAt: new Date(Date.now() - 30 * 86_400_000) } });
    const results = await scheduleReruns(t.db, services.runs, { ...policy, mode: 'batch' });
    expect(created(results)).toEqual(['alpha', 'beta']);
    for (const [, req] of services.runs.requestRun.mock.calls) expect(req).toMatchObject({ trigger: 'schedule', mode: 'batch' });
    const runs = await t.db.run.findMany({ where: { id: { in: results.map((r) => r.runId) } }, select: { config: true } });
    expect(runs.map((r) => (r.config as { mode?: string }).mode)).toEqual(['batch', 'batch']);
    // put back as the next tests expect: these runs are the latest, made now
    await t.db.run.deleteMany({ where: { id: { in: results.map((r) => r.runId) } } });
    await t.db.run.updateMany({ data: { createdAt: new Date() } });
  });

  it('re-runs a changed blueprint once and skips the unchanged one', async () => {
    await fake.commit({ 'blueprints/alpha.yml': GOOD_BLUEPRINT.replace('Say hello', 'Say hello warmly') }, 'Change alpha');
    await sync();
    const first = await scheduleReruns(t.db, services.runs, policy);
    expect(first.map((r) => [r.blueprintId, r.reason, r.deduplicated])).toEqual([
      ['alpha', 'identity', false],
      ['beta', 'identity', true],
    ]);
    for (const [, req] of services.runs.requestRun.mock.calls) expect(req).toMatchObject({ trigger: 'schedule', bypassCache: true, skipIfIdentical: true });
    const alphaRuns = await t.db.run.count({ where: { blueprintId: 'alpha' } });
    expect(alphaRuns).toBe(2);
    // the next tick finds nothing new: identical runs are not repeated
    expect(created(await scheduleReruns(t.db, services.runs, policy))).toEqual([]);
    expect(await t.db.run.count({ where: { blueprintId: 'alpha' } })).toBe(alphaRuns);
    expect(await t.db.run.count({ where: { blueprintId: 'beta' } })).toBe(1);
  });

  it('repeats the identical run of a blueprint whose latest run is older than the configured age', async () => {
    const old = new Date(Date.now() - 8 * 86_400_000);
    await t.db.run.updateMany({ where: { blueprintId: 'beta' }, data: { createdAt: old, status: 'completed' } });
    const results = await scheduleReruns(t.db, services.runs, policy);
    expect(results.find((r) => r.blueprintId === 'beta')).toMatchObject({ reason: 'stale', deduplicated: false });
    expect(services.runs.requestRun.mock.calls.find(([, req]) => req.blueprintId === 'beta')?.[1]).toMatchObject({ skipIfIdentical: false, bypassCache: true });
    const beta = await t.db.run.findMany({ where: { blueprintId: 'beta' }, select: { identityHash: true } });
    expect(beta).toHaveLength(2);
    expect(beta[0]!.identityHash).toBe(beta[1]!.identityHash);
  });

  it('ignores pull-request runs and caps the new runs of one tick', async () => {
    await t.db.run.updateMany({ data: { createdAt: new Date(Date.now() - 30 * 86_400_000) } });
    await t.db.run.updateMany({ where: { blueprintId: 'alpha' }, data: { trigger: 'pull_request' } });
    expect((await planReruns(t.db, policy, new Date())).find((d) => d.blueprintId === 'alpha')?.reason).toBe('never_run');
    expect(created(await scheduleReruns(t.db, services.runs, { ...policy, maxPerTick: 1 }))).toHaveLength(1);
  });
});

describe(`the re-run cron function under the strict Inngest harness (${process.env.ASSAY_TEST_DB})`, () => {
  it('requests every due blueprint once per tick in a few steps, even with every step executed twice at once', { timeout: 300_000 }, async () => {
    const many = Object.fromEntries(Array.from({ length: 45 }, (_, i) => [`blueprints/many-${i}.yml`, GOOD_BLUEPRINT.replace('Greetings', `Many ${i}`)]));
    await fake.commit(many, 'Many blueprints');
    await sync();
    const wide = { ...policy, maxPerTick: 1000 };
    // every blueprint gets a run, then every latest run is made a month old: all are stale, so
    // each is requested with skipIfIdentical off and a repeated request would start a second paid run
    await scheduleReruns(t.db, services.runs, wide);
    await t.db.run.updateMany({ data: { trigger: 'schedule', createdAt: new Date(Date.now() - 30 * 86_400_000) } });
    const due = await planReruns(t.db, wide, new Date());
    expect(due.length).toBeGreaterThanOrEqual(47);
    expect(due.every((d) => d.reason === 'stale')).toBe(true);
    const before = new Date(Date.now() - 1000);

    // a step retried while its first invocation still runs, for every step of the cron
    const h = new InngestHarness({ functions: () => [scheduleRerunsFunction(() => services, '0 3 * * *', wide)], overlap: ({ fnId }) => fnId === 'schedule-reruns' });
    h.cron('schedule-reruns');
    const { runs } = await h.settle();

    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'completed', output: { planned: due.length, created: due.length, requested: due.length, failed: [] } });
    expect(runs[0]!.overlaps).toBeGreaterThan(0);
    // the plan and one step per chunk of 20
    expect(runs[0]!.steps).toBe(1 + Math.ceil(due.length / 20));
    const fresh = await t.db.run.groupBy({ by: ['blueprintId'], where: { createdAt: { gt: before } }, _count: { _all: true } });
    expect(fresh).toHaveLength(due.length);
    expect(fresh.every((g) => g._count._all === 1)).toBe(true);
  });
});
