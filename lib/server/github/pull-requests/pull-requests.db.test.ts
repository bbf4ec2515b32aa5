/**
 * Pull requests end to end against the fake GitHub: validation reports at once (check run +
 * comment with file:line:col); nothing is run without an approval from someone with write
 * permission; an approved PR runs within its budget and gets a results comment linking the
 * drill-down. requestRun is the real one behind a spy; no run is executed (testing.ts).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FakeGitHub } from '@/testing/fakes/github-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { listBlueprints } from '../../db/queries/blueprint-list';
import { ConflictError } from '../../http/errors';
import type { GitHubRepo } from '../port';
import { syncSource } from '../../blueprints/sync-source';
import { repositoryReader } from '../repository-reader';
import { BROKEN_BLUEPRINT, GOOD_BLUEPRINT, spiedRunPorts, startFakeGitHub, TEST_APP_BOT, testPolicy } from '../github.testkit';
import { approvePullRequestRun } from './approve-pull-request-run';
import { pullRequestReport } from './pull-request-report';
import { reportPullRequestRun } from './report-pull-request-run';
import { validatePullRequest } from './validate-pull-request';

let t: TestDatabase;
let fake: FakeGitHub;
let repo: GitHubRepo;
let ports: ReturnType<typeof spiedRunPorts>;
const src = () => ({ owner: fake.owner, repo: fake.repo, branch: fake.branch });

const TWO_PROMPTS = GOOD_BLUEPRINT + `- id: bye\n  prompt: Say goodbye\n  should:\n    - $icontains: bye\n`;

async function open(author: string, changes: Record<string, string | null>, title = 'Add a blueprint') {
  const pr = await fake.openPullRequest({ author, title, changes });
  const v = await validatePullRequest(t.db, repo, src(), testPolicy, { number: pr.number, headSha: pr.headSha, author, title });
  return { ...pr, v };
}

const approve = (number: number, approvedBy: string, via: 'label' | 'comment' | 'admin', headSha?: string) =>
  approvePullRequestRun(t.db, repo, src(), testPolicy, ports, { number, approvedBy, via, ...(headSha ? { headSha } : {}) });

beforeAll(async () => {
  [t, { fake, repo }] = await Promise.all([
    freshDatabase(),
    startFakeGitHub({ files: { 'blueprints/greet.yml': GOOD_BLUEPRINT, 'models/CORE.json': '["openai:gpt-4o-mini"]', 'README.md': '# configs' } }),
  ]);
  await syncSource({ db: t.db }, repositoryReader(repo, src()), { trigger: 'test' });
  fake.setPermission('maria', 'maintain');
  fake.setPermission('wes', 'write');
  fake.setPermission('rita', 'read');
});
afterAll(async () => {
  await Promise.all([t?.close(), fake?.close()]);
});
beforeEach(() => {
  ports = spiedRunPorts();
});

describe(`pull-request validation (${process.env.ASSAY_TEST_DB})`, () => {
  it('reports a broken blueprint as a failing check whose message and annotation carry line and column', async () => {
    const { number, headSha, v } = await open('eve', { 'blueprints/broken.yml': BROKEN_BLUEPRINT });
    expect(v.state).toBe('invalid');
    const [check] = fake.checkRunsFor(headSha);
    expect(check).toMatchObject({ name: 'Assay: blueprints', status: 'completed', conclusion: 'failure' });
    expect(check!.output.title).toBe('1 error in 1 file');
    expect(check!.output.summary).toContain('blueprints/broken.yml:7:7: unknown point function "no_such_function"');
    expect(check!.annotations).toEqual([expect.objectContaining({ path: 'blueprints/broken.yml', start_line: 7, end_line: 7, start_column: 7, annotation_level: 'failure' })]);
    const [comment] = fake.commentsOn(number);
    expect(comment!.body).toContain('blueprints/broken.yml:7:7');
    expect(comment!.user).toBe(TEST_APP_BOT);
    expect(ports.requestRun).not.toHaveBeenCalled();
  });

  it('validates a good blueprint as success and waits for approval without running anything', async () => {
    const { number, headSha, v } = await open('eve', { 'blueprints/fresh/one.yml': GOOD_BLUEPRINT });
    expect(v.state).toBe('awaiting_approval');
    expect(fake.checkRunsFor(headSha)[0]).toMatchObject({ conclusion: 'success', output: expect.objectContaining({ title: '1 file valid' }) });
    expect(fake.commentsOn(number)[0]!.body).toContain('comment `/assay run`');
    expect(await t.db.run.count()).toBe(0);
  });

  it('does not report the same head twice (a redelivered webhook, a retried job)', async () => {
    const { number, headSha } = await open('eve', { 'blueprints/twice.yml': GOOD_BLUEPRINT });
    await validatePullRequest(t.db, repo, src(), testPolicy, { number, headSha, author: 'eve', title: 'again' });
    expect(fake.checkRunsFor(headSha)).toHaveLength(1);
    expect(fake.commentsOn(number)).toHaveLength(1);
  });

  it('edits its one comment on a new push instead of adding another', async () => {
    const { number } = await open('eve', { 'blueprints/edit.yml': BROKEN_BLUEPRINT });
    const { headSha } = await fake.pushToPullRequest(number, { 'blueprints/edit.yml': GOOD_BLUEPRINT });
    const v = await validatePullRequest(t.db, repo, src(), testPolicy, { number, headSha, author: 'eve', title: 'x' });
    expect(v.state).toBe('awaiting_approval');
    const comments = fake.commentsOn(number);
    expect(comments).toHaveLength(1);
    expect(comments[0]!.body).toContain(`at ${headSha.slice(0, 7)}`);
    expect(comments[0]!.body).toContain('✅ valid');
  });

  it('checks at most 100 files of one pull request, and never runs a larger one', async () => {
    const changes = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`blueprints/bulk/b${String(i).padStart(3, '0')}.yml`, GOOD_BLUEPRINT]));
    const { number, headSha, v } = await open('eve', changes);
    expect(v.state).toBe('invalid');
    expect(v.validation.files.filter((f) => f.valid)).toHaveLength(100);
    expect(fake.checkRunsFor(headSha)[0]!.output.summary).toContain('blueprints/bulk/b100.yml:1:1: this pull request changes 101 blueprint and model files; Assay checks at most 100');
    expect(await approve(number, 'maria', 'comment')).toMatchObject({ status: 'invalid' });
    expect(ports.requestRun).not.toHaveBeenCalled();
  });

  it('caps the report of 100 broken files × 20 errors within GitHub\'s limits, saying how many were left out and where the rest is', async () => {
    // 20 prompts, each calling an unknown point function with a long argument: 20 errors per file
    const twentyErrors = `title: Many errors\nmodels: [openai:gpt-4o-mini]\n---\n${Array.from({ length: 20 }, (_, i) => `- id: p${i}\n  prompt: Say hello\n  should:\n    - $no_such_function_${i}: ${'x'.repeat(120)}\n`).join('')}`;
    const changes = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`blueprints/many/m${String(i).padStart(3, '0')}.yml`, twentyErrors]));
    const { number, headSha, v } = await open('eve', changes);
    expect(v.state).toBe('invalid');
    const errorCount = v.validation.files.reduce((n, f) => n + f.errors.length, 0);
    expect(errorCount).toBe(2000);
    const [check] = fake.checkRunsFor(headSha);
    expect(check).toMatchObject({ status: 'completed', conclusion: 'failure', detailsUrl: `${testPolicy.publicUrl}/pull-requests/${number}` });
    expect([...check!.output.summary!].length).toBeLessThanOrEqual(65_535);
    const comments = fake.commentsOn(number);
    expect(comments).toHaveLength(1);
    const body = comments[0]!.body;
    expect([...body].length).toBeLessThanOrEqual(65_536);
    const shown = body.split('\n').filter((l) => l.startsWith('blueprints/many/')).length;
    expect(shown).toBeGreaterThan(100);
    const left = Number(/\*\*([\d,]+) more errors in (\d+) files not shown here\*\*/.exec(body)?.[1]?.replace(/,/g, ''));
    expect(shown + left).toBe(2000);
    expect(body).toContain(`the full list is at ${testPolicy.publicUrl}/pull-requests/${number}`);
    expect(check!.output.summary).toContain(`the full list is at ${testPolicy.publicUrl}/pull-requests/${number}`);
    // the linked page has every error
    const report = await pullRequestReport(t.db, number);
    expect(report).toMatchObject({ number, headSha, state: 'invalid' });
    expect(report!.validation.files.flatMap((f) => f.errors)).toHaveLength(2000);
    // settled and reported once: a retry reports nothing again
    expect((await t.db.pullRequest.findFirstOrThrow({ where: { number, headSha } })).commentId).toBe(String(comments[0]!.id));
    await validatePullRequest(t.db, repo, src(), testPolicy, { number, headSha, author: 'eve', title: 'again' });
    expect(fake.commentsOn(number)).toHaveLength(1);
  });

  it('is neutral about a pull request that changes no blueprint', async () => {
    const { headSha, v } = await open('eve', { 'README.md': '# better docs' });
    expect(v.state).toBe('no_blueprints');
    expect(fake.checkRunsFor(headSha)[0]?.conclusion).toBe('neutral');
  });
});

describe(`pull-request approval (${process.env.ASSAY_TEST_DB})`, () => {
  it('never calls a model for a `/assay run` from someone without write permission', async () => {
    const { number } = await open('eve', { 'blueprints/stranger.yml': GOOD_BLUEPRINT });
    for (const who of ['rita', 'eve', 'nobody']) {
      expect(await approve(number, who, 'comment')).toEqual({ status: 'forbidden' });
    }
    expect(await approve(number, 'rita', 'label')).toEqual({ status: 'forbidden' });
    expect(ports.requestRun).not.toHaveBeenCalled();
    expect(ports.dispatch).not.toHaveBeenCalled();
    expect(await t.db.run.count()).toBe(0);
    expect(await t.db.pullRequest.findFirst({ where: { number }, select: { approvedBy: true, state: true } })).toEqual({ approvedBy: null, state: 'awaiting_approval' });
    expect(fake.commentsOn(number).at(-1)!.body).toContain('@rita: only collaborators with write permission can approve');
  });

  it('runs an approved pull request within the PR budget, without publishing its versions', async () => {
    const greetBefore = await t.db.blueprint.findUniqueOrThrow({ where: { id: 'greet' }, select: { latestVersionId: true } });
    const { number, headSha } = await open('eve', { 'blueprints/greet.yml': TWO_PROMPTS, 'blueprints/brand/new.yml': GOOD_BLUEPRINT });
    const outcome = await approve(number, 'wes', 'label', headSha);
    expect(outcome).toMatchObject({ status: 'started', headSha, skipped: [] });
    expect(ports.requestRun).toHaveBeenCalledTimes(2);
    for (const [, req] of ports.requestRun.mock.calls) {
      expect(req).toMatchObject({ trigger: 'pull_request', budget: testPolicy.budget, models: testPolicy.models, skipIfIdentical: true, pullRequestId: expect.any(String) });
    }
    const runs = await t.db.run.findMany({ where: { trigger: 'pull_request' }, select: { blueprintId: true, sourceCommit: true, maxCalls: true, maxCostUsd: true, status: true } });
    expect(runs.map((r) => r.blueprintId).sort()).toEqual(['brand__new', 'greet']);
    expect(runs.every((r) => r.sourceCommit === headSha && r.maxCalls === 40 && r.maxCostUsd === 0.5 && r.status === 'queued')).toBe(true);
    // the branch's blueprint keeps its latest version; the PR-only one stays off the public list
    expect(await t.db.blueprint.findUniqueOrThrow({ where: { id: 'greet' }, select: { latestVersionId: true } })).toEqual(greetBefore);
    expect((await listBlueprints(t.db)).map((b) => b.id)).not.toContain('brand__new');
    const last = fake.commentsOn(number).at(-1)!.body;
    expect(last).toContain('Run approved by @wes');
    if (outcome.status === 'started') for (const r of outcome.runs) expect(last).toContain(`(${testPolicy.publicUrl}/runs/${r.runId})`);

    // a second approval (label and comment both) starts nothing new
    ports.requestRun.mockClear();
    expect(await approve(number, 'maria', 'comment')).toMatchObject({ status: 'already_approved' });
    expect(ports.requestRun).not.toHaveBeenCalled();
  });

  it('binds an approval to its commit: after a push, the old approval is stale and a new one is needed', async () => {
    const { number, headSha: first } = await open('eve', { 'blueprints/moving.yml': GOOD_BLUEPRINT });
    await fake.pushToPullRequest(number, { 'blueprints/moving.yml': TWO_PROMPTS });
    expect(await approve(number, 'maria', 'label', first)).toMatchObject({ status: 'stale' });
    expect(ports.requestRun).not.toHaveBeenCalled();
    // approving the new head validates it first (its webhook may have been missed), then runs it
    const outcome = await approve(number, 'maria', 'comment');
    expect(outcome.status).toBe('started');
    expect(ports.requestRun).toHaveBeenCalledTimes(1);
  });

  it('refuses to run a pull request whose blueprints have errors, even for a maintainer', async () => {
    const { number } = await open('eve', { 'blueprints/bad2.yml': BROKEN_BLUEPRINT });
    expect(await approve(number, 'maria', 'comment')).toMatchObject({ status: 'invalid' });
    expect(await approve(number, '~admin', 'admin')).toMatchObject({ status: 'invalid' });
    expect(ports.requestRun).not.toHaveBeenCalled();
  });

  it('runs at most the per-PR number of blueprints and names the rest', async () => {
    const { number } = await open('eve', { 'blueprints/m/a.yml': GOOD_BLUEPRINT, 'blueprints/m/b.yml': TWO_PROMPTS, 'blueprints/m/c.yml': GOOD_BLUEPRINT.replace('Greetings', 'Third') });
    const outcome = await approve(number, '~admin', 'admin');
    expect(outcome).toMatchObject({ status: 'started', skipped: ['m__c'] });
    expect(ports.requestRun).toHaveBeenCalledTimes(2);
  });
});

describe(`pull-request results (${process.env.ASSAY_TEST_DB})`, () => {
  it('posts the scores of a finished run with a link to its drill-down, once', async () => {
    const { number, headSha } = await open('eve', { 'blueprints/scored.yml': GOOD_BLUEPRINT.replace('Greetings', 'Scored greetings') });
    const outcome = await approve(number, 'wes', 'comment');
    if (outcome.status !== 'started') throw new Error(`not started: ${outcome.status}`);
    const runId = outcome.runs[0]!.runId;
    await expect(reportPullRequestRun(t.db, repo, runId, testPolicy.publicUrl)).rejects.toBeInstanceOf(ConflictError); // still queued

    // what the run pipeline leaves behind when it finishes
    await t.db.run.update({ where: { id: runId }, data: { status: 'completed', finishedAt: new Date(), costUsd: 0.0123 } });
    await t.db.runModelSummary.createMany({
      data: [
        { runId, modelId: 'openai:gpt-4o-mini', score: 0.75, ciLow: 0.6, ciHigh: 0.9, promptCount: 1, costUsd: 0.01 },
        { runId, modelId: 'anthropic:claude-3-5-haiku-latest', score: 0.5, promptCount: 1, errorCount: 1, costUsd: 0.0023 },
      ],
    });
    const before = fake.commentsOn(number).length;
    const reported = await reportPullRequestRun(t.db, repo, runId, testPolicy.publicUrl);
    expect(reported).toMatchObject({ posted: true, url: `${testPolicy.publicUrl}/runs/${runId}` });
    const comments = fake.commentsOn(number);
    expect(comments).toHaveLength(before + 1);
    const body = comments.at(-1)!.body;
    expect(body).toContain(`### Assay results: Scored greetings (\`scored\`) at ${headSha.slice(0, 7)}`);
    expect(body).toContain('| `openai:gpt-4o-mini` | 75.0% | 60.0% – 90.0% | 0 |');
    expect(body).toContain(`[Open the drill-down](${testPolicy.publicUrl}/runs/${runId})`);
    // the link names a run that exists, with its scores
    const linked = /\]\(http:\/\/assay\.test\/runs\/([^)]+)\)/.exec(body)![1]!;
    expect(await t.db.run.findUnique({ where: { id: linked }, select: { status: true, _count: { select: { modelSummaries: true } } } })).toEqual({ status: 'completed', _count: { modelSummaries: 2 } });
    expect(await t.db.pullRequest.findFirst({ where: { number }, select: { state: true } })).toEqual({ state: 'reported' });

    // a retried completion does not comment twice
    expect(await reportPullRequestRun(t.db, repo, runId, testPolicy.publicUrl)).toMatchObject({ posted: false, commentId: reported.commentId });
    expect(fake.commentsOn(number)).toHaveLength(before + 1);
  });

  it('refuses to report a run that no pull request started', async () => {
    const { runId } = await ports.requestRun(t.db, { blueprintId: 'greet', trigger: 'manual' }, ports.dispatcher);
    await t.db.run.update({ where: { id: runId }, data: { status: 'completed' } });
    await expect(reportPullRequestRun(t.db, repo, runId, testPolicy.publicUrl)).rejects.toThrow(/not started by a pull request/);
  });
});
