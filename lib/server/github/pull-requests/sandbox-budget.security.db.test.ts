/**
 * Issue 11, finding 4, in pull requests: PR budgets counted models, prompts, calls and money
 * but not `$js` points, so a stranger's PR with 60 `while(true){}` points passed validation
 * and, once approved, froze the server for 60 s per reply. Validation now estimates the
 * sandbox time a PR run could use (points × 1 s, at most 5 s per reply, × replies) and refuses
 * a blueprint over the PR sandbox budget with a file:line:col error, before anyone approves;
 * an approved PR run carries the budget so the run enforces it too.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FakeGitHub } from '@/testing/fakes/github-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import type { GitHubRepo } from '../port';
import { syncSource } from '../../blueprints/sync-source';
import { repositoryReader } from '../repository-reader';
import { GOOD_BLUEPRINT, spiedRunPorts, startFakeGitHub, testPolicy } from '../github.testkit';
import { approvePullRequestRun } from './approve-pull-request-run';
import { validatePullRequest } from './validate-pull-request';

let t: TestDatabase;
let fake: FakeGitHub;
let repo: GitHubRepo;
let ports: ReturnType<typeof spiedRunPorts>;
const src = () => ({ owner: fake.owner, repo: fake.repo, branch: fake.branch });

const LOOPING = `title: Loops\n---\n- id: loops\n  prompt: Say hello\n  should:\n${Array.from({ length: 60 }, () => '    - $js: "while (true) {}"').join('\n')}\n`;
// 2 prompts × 1 $js point × 1 s × 2 models = 4 s: within the test policy's 8 s.
const MODEST = `title: Modest\n---\n- id: a\n  prompt: Say hello\n  should:\n    - $js: "r.length > 2"\n- id: b\n  prompt: Say bye\n  should:\n    - $js: "r.includes('bye')"\n`;

async function open(changes: Record<string, string>) {
  const pr = await fake.openPullRequest({ author: 'eve', title: 'loops', changes });
  const v = await validatePullRequest(t.db, repo, src(), testPolicy, { number: pr.number, headSha: pr.headSha, author: 'eve', title: 'loops' });
  return { ...pr, v };
}

beforeAll(async () => {
  [t, { fake, repo }] = await Promise.all([freshDatabase(), startFakeGitHub({ files: { 'blueprints/greet.yml': GOOD_BLUEPRINT, 'models/CORE.json': '["openai:gpt-4o-mini"]' } })]);
  await syncSource({ db: t.db }, repositoryReader(repo, src()), { trigger: 'test' });
  fake.setPermission('maria', 'maintain');
});
afterAll(async () => {
  await Promise.all([t?.close(), fake?.close()]);
});
beforeEach(() => {
  ports = spiedRunPorts();
});

describe(`PR sandbox budget (${process.env.ASSAY_TEST_DB})`, () => {
  it('refuses 60 looping $js points at validation, at the first point, and never runs them', async () => {
    const { number, headSha, v } = await open({ 'blueprints/loops.yml': LOOPING });
    expect(v.state).toBe('invalid');
    const [check] = fake.checkRunsFor(headSha);
    expect(check).toMatchObject({ conclusion: 'failure' });
    // 60 points × 1 s, capped at 5 s per reply, × 2 replies (the policy's 2 models) = 10 s > 8 s.
    expect(check!.output.summary).toContain('blueprints/loops.yml:6:7: this blueprint');
    expect(check!.output.summary).toMatch(/could use up to 10 s of sandbox time in a pull-request run \(60 points × 1 s each, at most 5 s per reply, over 2 replies\); a pull-request run may use at most 8 s/);
    expect(await approvePullRequestRun(t.db, repo, src(), testPolicy, ports, { number, approvedBy: 'maria', via: 'comment' })).toMatchObject({ status: 'invalid' });
    expect(ports.requestRun).not.toHaveBeenCalled();
  });

  it('accepts a modest one and runs it with the sandbox budget on the run', async () => {
    const { number, v } = await open({ 'blueprints/modest.yml': MODEST });
    expect(v.state).toBe('awaiting_approval');
    expect(fake.commentsOn(number).at(-1)!.body).toContain('8 s of sandbox time per blueprint');
    expect(await approvePullRequestRun(t.db, repo, src(), testPolicy, ports, { number, approvedBy: 'maria', via: 'comment' })).toMatchObject({ status: 'started' });
    const run = await t.db.run.findFirstOrThrow({ where: { trigger: 'pull_request', blueprintId: 'modest' }, select: { maxSandboxMs: true } });
    expect(run.maxSandboxMs).toBe(testPolicy.budget.maxSandboxSeconds * 1000);
  });
});
