/**
 * The check status of an author's pull request, for the panel to poll: GitHub's check runs on
 * the head commit (Assay's own validation check among them, posted by the existing flow) and
 * Assay's record of the pull request (the pull_requests table: validating, invalid,
 * awaiting_approval, …). Read with the author's token, so GitHub's per-user limits apply to them.
 */
import { isStatusFinal, type PullRequestStatus } from '@/lib/core';
import type { SessionUser } from '../auth/sessions';
import { sourceKey } from '../github/config';
import { withAuthorToken } from './github-calls';
import { authorOctokit, type AuthoringGitHubDeps } from './open-pull-request';

export async function pullRequestStatus(deps: AuthoringGitHubDeps, user: SessionUser, number: number): Promise<PullRequestStatus> {
  const octokit = await authorOctokit(deps, user);
  const ctx = { db: deps.db, userId: user.id, now: deps.now };
  const { owner, repo } = deps.source;
  const pr = (await withAuthorToken(ctx, `pull request #${number}`, () => octokit.rest.pulls.get({ owner, repo, pull_number: number }))).data;
  const runs = (await withAuthorToken(ctx, `the checks of #${number}`, () => octokit.rest.checks.listForRef({ owner, repo, ref: pr.head.sha, per_page: 50 }))).data.check_runs;
  const row = await deps.db.pullRequest.findFirst({ where: { number, headSha: pr.head.sha, source: { key: sourceKey(deps.source) } }, select: { state: true } });
  const status = {
    number,
    url: pr.html_url,
    state: pr.state === 'closed' ? ('closed' as const) : ('open' as const),
    headSha: pr.head.sha,
    assayState: row?.state ?? null,
    checks: runs.map((c) => ({ name: c.name, status: c.status, conclusion: c.conclusion ?? null, summary: c.output?.summary ?? c.output?.title ?? null, detailsUrl: c.details_url ?? null })),
  };
  return { ...status, final: isStatusFinal(status) };
}
