/**
 * Token-only mode (docs/github.md): with GITHUB_TOKEN and no GitHub App, GitHub refuses check
 * runs, so a pull request is validated, settled and approved by comment alone, never left
 * `validating`. The fake GitHub refuses check runs to anything but an App installation, as
 * GitHub does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeGitHub } from '@/testing/fakes/github-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { UpstreamError } from '../../http/errors';
import type { GitHubRepo } from '../port';
import { BROKEN_BLUEPRINT, GOOD_BLUEPRINT, spiedRunPorts, startFakeGitHub, testPolicy } from '../github.testkit';
import { approvePullRequestRun } from './approve-pull-request-run';
import { validatePullRequest } from './validate-pull-request';

let t: TestDatabase;
let fake: FakeGitHub;
let repo: GitHubRepo;
const src = () => ({ owner: fake.owner, repo: fake.repo, branch: fake.branch });

beforeAll(async () => {
  [t, { fake, repo }] = await Promise.all([freshDatabase(), startFakeGitHub({ files: { 'models/CORE.json': '["openai:gpt-4o-mini"]', 'README.md': '# configs' } }, { as: 'token' })]);
  fake.setPermission('maria', 'maintain');
});
afterAll(async () => {
  await Promise.all([t?.close(), fake?.close()]);
});

async function open(changes: Record<string, string>) {
  const pr = await fake.openPullRequest({ author: 'eve', title: 'Add a blueprint', changes });
  const v = await validatePullRequest(t.db, repo, src(), testPolicy, { number: pr.number, headSha: pr.headSha, author: 'eve', title: 'Add a blueprint' });
  return { ...pr, v };
}

describe(`token-only mode (${process.env.ASSAY_TEST_DB})`, () => {
  it('is what GitHub imposes: a token may not make check runs', async () => {
    expect(repo.checkRuns).toBe(false);
    await expect(repo.createCheckRun(fake.head().sha, 'Assay: blueprints')).rejects.toSatisfy((e) => e instanceof UpstreamError && /HTTP 403/.test(e.message));
    expect(fake.requests.at(-1)).toMatchObject({ method: 'POST', status: 403 });
    expect(fake.checkRuns).toHaveLength(0);
  });

  it('reports a broken pull request by comment alone, and settles it as invalid', async () => {
    const before = fake.count('POST', /\/check-runs$/);
    const { number, headSha, v } = await open({ 'blueprints/broken.yml': BROKEN_BLUEPRINT });
    expect(v).toMatchObject({ state: 'invalid', checkRunId: null, commentId: expect.any(Number) });
    expect(fake.count('POST', /\/check-runs$/)).toBe(before); // not even tried
    expect(fake.checkRunsFor(headSha)).toHaveLength(0);
    const [comment] = fake.commentsOn(number);
    expect(comment!.body).toContain('blueprints/broken.yml:7:7');
    expect(await t.db.pullRequest.findFirstOrThrow({ where: { number, headSha }, select: { state: true, commentId: true } })).toEqual({ state: 'invalid', commentId: String(comment!.id) });
  });

  it('lets a maintainer approve a valid pull request, which then runs', async () => {
    const { number, headSha, v } = await open({ 'blueprints/fine.yml': GOOD_BLUEPRINT });
    expect(v.state).toBe('awaiting_approval');
    const ports = spiedRunPorts();
    const outcome = await approvePullRequestRun(t.db, repo, src(), testPolicy, ports, { number, approvedBy: 'maria', via: 'comment', headSha });
    expect(outcome).toMatchObject({ status: 'started', headSha });
    expect(ports.requestRun).toHaveBeenCalledTimes(1);
    expect(fake.commentsOn(number).at(-1)!.body).toContain('Run approved by @maria');
  });

  it('settles a pull request whose validation GitHub stops answering, instead of leaving it validating', async () => {
    const pr = await fake.openPullRequest({ author: 'eve', title: 'Late', changes: { 'blueprints/late.yml': GOOD_BLUEPRINT } });
    fake.revokeTokensOf('assay-bot'); // from now on every call answers 401
    await expect(validatePullRequest(t.db, repo, src(), testPolicy, { number: pr.number, headSha: pr.headSha, author: 'eve', title: 'Late' })).rejects.toBeInstanceOf(UpstreamError);
    expect(await t.db.pullRequest.findFirstOrThrow({ where: { number: pr.number }, select: { state: true } })).toEqual({ state: 'invalid' });
  });
});
