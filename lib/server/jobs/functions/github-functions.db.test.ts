/**
 * The GitHub-side Inngest functions, run by @inngest/test's engine against the fake GitHub
 * and a real database: each is a thin step around its use case. The engine's `state` is keyed
 * by hashed step ids, so the assertions read the step spies' calls and the effects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InngestTestEngine } from '@inngest/test';
import type { FakeGitHub } from '@/testing/fakes/github-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import type { GitHubServices } from '../../github/services';
import { BROKEN_BLUEPRINT, GOOD_BLUEPRINT, type spiedRunPorts, startFakeGitHub, testServices } from '../../github/github.testkit';
import { syncSourceFunction } from './sync-source';
import { pullRequestValidateFunction } from './pull-request-validate';
import { pullRequestApproveFunction } from './pull-request-approve';

let t: TestDatabase;
let fake: FakeGitHub;
let services: GitHubServices & { runs: ReturnType<typeof spiedRunPorts> };

beforeAll(async () => {
  const [db, gh] = await Promise.all([freshDatabase(), startFakeGitHub({ files: { 'blueprints/greet.yml': GOOD_BLUEPRINT, 'models/CORE.json': '["openai:gpt-4o-mini"]' } })]);
  t = db;
  fake = gh.fake;
  services = testServices(t.db, gh.repo, fake);
  fake.setPermission('wes', 'write');
});
afterAll(async () => {
  await Promise.all([t?.close(), fake?.close()]);
});

describe(`sync function (${process.env.ASSAY_TEST_DB})`, () => {
  // a fresh engine per execution: an engine caches step results by step id across executions
  const engine = { execute: (o: InngestTestEngine.InlineOptions) => new InngestTestEngine({ function: syncSourceFunction(() => services, '*/30 * * * *') }).execute(o) };

  it('syncs on a sync request, recording its trigger, in one step', async () => {
    const { result, ctx } = await engine.execute({ events: [{ name: 'assay/source.sync.requested', data: { trigger: 'webhook', commitSha: fake.head().sha } }] });
    expect(ctx.step.run).toHaveBeenCalledWith('sync-source', expect.any(Function));
    expect(result).toMatchObject({ kind: 'github', added: 1, collections: 1, revision: fake.head().sha });
    expect(await t.db.syncRecord.findFirst({ select: { trigger: true, status: true } })).toEqual({ trigger: 'webhook', status: 'completed' });
  });

  it('is also the cron safety net: a missed push is picked up on the next tick', async () => {
    await fake.commit({ 'blueprints/missed.yml': GOOD_BLUEPRINT }, 'pushed while the webhook was down');
    const { result } = await engine.execute({ events: [{ name: 'inngest/scheduled.timer', data: { cron: '*/30 * * * *' } }] });
    expect(result).toMatchObject({ added: 1, unchanged: 1, filesRead: 1 });
    expect(await t.db.syncRecord.findFirst({ orderBy: { startedAt: 'desc' }, select: { trigger: true } })).toEqual({ trigger: 'cron' });
  });
});

describe(`pull-request functions (${process.env.ASSAY_TEST_DB})`, () => {
  const validate = { execute: (o: InngestTestEngine.InlineOptions) => new InngestTestEngine({ function: pullRequestValidateFunction(() => services) }).execute(o) };
  const approve = { execute: (o: InngestTestEngine.InlineOptions) => new InngestTestEngine({ function: pullRequestApproveFunction(() => services) }).execute(o) };

  it('validates and reports in one step', async () => {
    const pr = await fake.openPullRequest({ author: 'eve', title: 'Broken', changes: { 'blueprints/broken.yml': BROKEN_BLUEPRINT } });
    const { result, ctx } = await validate.execute({ events: [{ name: 'assay/pull-request.changed', data: { number: pr.number, headSha: pr.headSha, author: 'eve', title: 'Broken' } }] });
    expect(ctx.step.run).toHaveBeenCalledWith('validate-and-report', expect.any(Function));
    expect(result).toMatchObject({ state: 'invalid', checkRunId: expect.any(Number) });
    expect(fake.checkRunsFor(pr.headSha)[0]?.output.summary).toContain('blueprints/broken.yml:7:7');
  });

  it('checks the approver before any run: a stranger gets none, a writer gets one', async () => {
    const pr = await fake.openPullRequest({ author: 'eve', title: 'Good', changes: { 'blueprints/good.yml': GOOD_BLUEPRINT } });
    const event = (approvedBy: string) => [{ name: 'assay/pull-request.approved', data: { number: pr.number, approvedBy, via: 'comment' } }] as [{ name: string; data: Record<string, unknown> }];
    const refused = await approve.execute({ events: event('eve') });
    expect(refused.result).toEqual({ status: 'forbidden' });
    expect(services.runs.requestRun).not.toHaveBeenCalled();

    const { result, ctx } = await approve.execute({ events: event('wes') });
    expect(ctx.step.run).toHaveBeenCalledWith('check-approval-and-request-runs', expect.any(Function));
    expect(result).toMatchObject({ status: 'started', runs: [expect.objectContaining({ blueprintId: 'good' })] });
    expect(services.runs.requestRun).toHaveBeenCalledTimes(1);
  });
});
