/**
 * A maintainer approves a pull request's run: by the approval label, a `/assay run` comment
 * (both checked against the actor's repository permission: write, maintain or admin), or from
 * the admin page (already authorised). Only then are the PR's valid blueprints stored (as
 * unpublished versions at the head commit) and runs requested within the PR budget. An
 * approval is bound to one head commit: a later push needs a new one. Anyone else's label or
 * comment never reaches `requestRun`, so a stranger's pull request cannot spend money.
 */
import type { Db } from '../../db/client';
import { storeBlueprintVersion } from '../../db/commands/store-blueprint-version';
import type { RunPorts } from '../../runs/contracts';
import type { GitHubSource, PullRequestPolicy } from '../config';
import { canApprove, type GitHubRepo } from '../port';
import { approvalComment, refusalComment, type StartedRun } from './messages';
import { validatePullRequest } from './validate-pull-request';
import { parseBlueprintBounded } from '../../untrusted/parse-bounded';
import { UNTRUSTED_TIME_LIMITS } from '../../untrusted/untrusted-pool';

export interface ApprovalRequest {
  number: number;
  approvedBy: string;
  via: 'label' | 'comment' | 'admin';
  /** The head commit the approval was given at (a label event carries it); a different head now means the approval is stale. */
  headSha?: string;
}

export type ApprovalOutcome =
  | { status: 'started' | 'already_approved'; pullRequestId: string; headSha: string; runs: StartedRun[]; skipped: string[] }
  | { status: 'forbidden' | 'invalid' | 'stale' | 'closed' | 'no_blueprints'; headSha?: string };

export async function approvePullRequestRun(
  db: Db,
  gh: GitHubRepo,
  src: GitHubSource,
  policy: PullRequestPolicy,
  ports: RunPorts,
  req: ApprovalRequest,
): Promise<ApprovalOutcome> {
  if (req.via !== 'admin' && !canApprove(await gh.permissionOf(req.approvedBy))) {
    await gh.postComment(req.number, refusalComment(req.approvedBy, 'permission', policy.command));
    return { status: 'forbidden' };
  }
  const pr = await gh.getPullRequest(req.number);
  if (pr.state === 'closed') return { status: 'closed', headSha: pr.headSha };
  if (req.headSha && req.headSha !== pr.headSha) {
    await gh.postComment(req.number, refusalComment(req.approvedBy, 'stale', policy.command));
    return { status: 'stale', headSha: pr.headSha };
  }
  // validation normally ran on `opened`; a missed webhook must not let an unvalidated head run
  const validated = await validatePullRequest(db, gh, src, policy, { number: pr.number, headSha: pr.headSha, author: pr.author, title: pr.title });
  if (validated.state === 'invalid') {
    await gh.postComment(req.number, refusalComment(req.approvedBy, 'invalid', policy.command));
    return { status: 'invalid', headSha: pr.headSha };
  }
  if (validated.state === 'no_blueprints') return { status: 'no_blueprints', headSha: pr.headSha };

  const files = validated.validation.files.filter((f) => f.kind === 'blueprint' && f.valid);
  const chosen = files.slice(0, policy.maxBlueprints);
  const skipped = files.slice(policy.maxBlueprints).map((f) => f.blueprintId!);
  const existing = new Map(
    (await db.run.findMany({ where: { pullRequestId: validated.pullRequestId }, select: { id: true, blueprintId: true } })).map((r) => [r.blueprintId, r.id]),
  );
  if (validated.state === 'running' || validated.state === 'reported') {
    const runs = chosen.flatMap((f) => (existing.has(f.blueprintId!) ? [{ blueprintId: f.blueprintId!, runId: existing.get(f.blueprintId!)!, deduplicated: true }] : []));
    return { status: 'already_approved', pullRequestId: validated.pullRequestId, headSha: pr.headSha, runs, skipped };
  }
  await db.pullRequest.updateMany({
    where: { id: validated.pullRequestId, approvedAt: null },
    data: { approvedBy: req.approvedBy, approvedAt: new Date(), state: 'approved' },
  });

  const approver = await db.user.findUnique({ where: { githubLogin: req.approvedBy }, select: { id: true } });
  const runs: StartedRun[] = [];
  for (const file of chosen) {
    const blueprintId = file.blueprintId!;
    // a retried approval (a crash half-way) reuses the runs it already requested
    const already = existing.get(blueprintId);
    if (already) {
      runs.push({ blueprintId, runId: already, deduplicated: true });
      continue;
    }
    const rawText = await gh.readBlob(file.blobSha);
    const parsed = await parseBlueprintBounded(rawText, { file: file.path, timeoutMs: UNTRUSTED_TIME_LIMITS.backgroundMs });
    // not published: the branch's latest version and the public lists stay as they are until merge
    const version = await storeBlueprintVersion(db, validated.sourceId, blueprintId, { path: file.path, rawText, sourceCommit: pr.headSha, blobSha: file.blobSha }, parsed, { publish: false });
    const run = await ports.requestRun(
      db,
      {
        blueprintId,
        versionId: version.versionId,
        ...(policy.models.length ? { models: policy.models } : {}),
        trigger: 'pull_request',
        pullRequestId: validated.pullRequestId,
        ...(approver ? { createdById: approver.id } : {}),
        budget: policy.budget,
        skipIfIdentical: true,
      },
      ports.dispatcher,
    );
    runs.push({ blueprintId, runId: run.runId, deduplicated: run.deduplicated });
  }
  // the comment before the state: a crash in between re-posts it on retry rather than never posting it
  await gh.postComment(req.number, approvalComment(req.approvedBy, runs, skipped, policy.publicUrl));
  await db.pullRequest.update({ where: { id: validated.pullRequestId }, data: { state: 'running' } });
  return { status: 'started', pullRequestId: validated.pullRequestId, headSha: pr.headSha, runs, skipped };
}
