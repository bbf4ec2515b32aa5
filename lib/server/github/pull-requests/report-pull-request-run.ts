/**
 * When a pull request's run has finished, post its scores on the PR with a link to the
 * run's drill-down (`${publicUrl}/runs/${runId}`). Called by the run pipeline on completion.
 * Idempotent: the posted comment is journalled in job_steps under `pull-request-report:<run id>`,
 * so a retried completion does not comment twice.
 */
import { isTerminalRunStatus } from '@/lib/core';
import type { Db } from '../../db/client';
import { ConflictError, NotFoundError } from '../../http/errors';
import type { GitHubRepo } from '../port';
import { resultsComment } from './messages';

export interface ReportedRun {
  commentId: number;
  url: string;
  /** False when this run's results had been posted before. */
  posted: boolean;
}

export async function reportPullRequestRun(db: Db, github: GitHubRepo, runId: string, publicUrl: string): Promise<ReportedRun> {
  const url = `${publicUrl.replace(/\/$/, '')}/runs/${runId}`;
  const key = `pull-request-report:${runId}`;
  const journal = await db.jobStep.findUnique({ where: { key } });
  if (journal?.status === 'completed') return { commentId: Number((journal.output as { commentId: number }).commentId), url, posted: false };

  const run = await db.run.findUnique({
    where: { id: runId },
    select: {
      status: true,
      blueprintId: true,
      sourceCommit: true,
      pullRequestId: true,
      pullRequest: { select: { number: true } },
      blueprint: { select: { title: true } },
      version: { select: { normalized: true } },
      modelSummaries: { select: { modelId: true, score: true, ciLow: true, ciHigh: true, errorCount: true, costUsd: true } },
    },
  });
  if (!run) throw new NotFoundError(`No run ${runId}.`);
  if (!run.pullRequest) throw new ConflictError(`Run ${runId} was not started by a pull request; only pull-request runs are reported on GitHub.`);
  if (!isTerminalRunStatus(run.status)) throw new ConflictError(`Run ${runId} is ${run.status}; report it when it has finished.`);

  // the PR's own title for the blueprint (the branch's may differ or not exist yet)
  const title = (run.version.normalized as { title?: string } | null)?.title ?? run.blueprint.title;
  const body = resultsComment({ blueprintId: run.blueprintId, title, runId, status: run.status, headSha: run.sourceCommit, rows: run.modelSummaries, publicUrl: publicUrl.replace(/\/$/, '') });
  const commentId = await github.postComment(run.pullRequest.number, body);
  await db.jobStep.upsert({
    where: { key },
    create: { key, runId, function: 'pull-request-report', status: 'completed', attempts: 1, output: { commentId }, finishedAt: new Date() },
    update: { status: 'completed', output: { commentId }, finishedAt: new Date() },
  });
  await markReportedWhenAllDone(db, run.pullRequestId!);
  return { commentId, url, posted: true };
}

/** The pull request is `reported` once every run it started has its results posted. */
async function markReportedWhenAllDone(db: Db, pullRequestId: string): Promise<void> {
  const runs = await db.run.findMany({ where: { pullRequestId }, select: { id: true } });
  const reported = await db.jobStep.count({ where: { key: { in: runs.map((r) => `pull-request-report:${r.id}`) }, status: 'completed' } });
  if (reported === runs.length) await db.pullRequest.update({ where: { id: pullRequestId }, data: { state: 'reported' } });
}
