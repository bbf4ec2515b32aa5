/**
 * On a pull request opened or pushed to: validate every changed blueprint and model
 * collection at the head commit, and report at once as a check run (with file:line:col
 * annotations) and as Assay's comment on the PR (updated in place on later pushes). Nothing
 * runs and nothing is stored but the validation: running waits for a maintainer.
 */
import { type Prisma } from '@/generated/prisma/client';
import type { Db } from '../../db/client';
import type { GitHubSource, PullRequestPolicy } from '../config';
import type { GitHubRepo } from '../port';
import { isBlueprintPath, isCollectionPath } from '../paths';
import { ensureGitHubSource } from '../source';
import { CHECK_NAME, checkRunResult, stoppedCheckRun, validationComment } from './messages';
import type { FileToValidate } from './validate-file';
import { validateInWorker, type WorkerLimits } from './validate-in-worker';
import { PullRequestValidationSchema, stateOf, type PullRequestState, type PullRequestValidation, type ValidatedFile } from './validation';

export interface PullRequestRef {
  number: number;
  headSha: string;
  author: string;
  title: string;
}

export interface ValidatedPullRequest {
  sourceId: string;
  pullRequestId: string;
  state: PullRequestState;
  validation: PullRequestValidation;
  checkRunId: number | null;
  commentId: number | null;
}

export async function validatePullRequest(db: Db, gh: GitHubRepo, src: GitHubSource, policy: PullRequestPolicy, pr: PullRequestRef, workerLimits?: WorkerLimits): Promise<ValidatedPullRequest> {
  const { id: sourceId } = await ensureGitHubSource(db, src);
  const row = await db.pullRequest.upsert({
    where: { sourceId_number_headSha: { sourceId, number: pr.number, headSha: pr.headSha } },
    create: { sourceId, number: pr.number, headSha: pr.headSha, author: pr.author, title: pr.title, state: 'validating' },
    update: { title: pr.title },
  });
  if (row.validation !== null) {
    // this head was validated already (a redelivered webhook, a retried job): report nothing twice
    return { sourceId, pullRequestId: row.id, state: row.state as PullRequestState, validation: PullRequestValidationSchema.parse(row.validation), checkRunId: row.checkRunId ? Number(row.checkRunId) : null, commentId: row.commentId ? Number(row.commentId) : null };
  }

  // The check run's id is kept at once, so a retry after a failure completes the same check.
  const checkRunId = row.checkRunId ? Number(row.checkRunId) : await gh.createCheckRun(pr.headSha, CHECK_NAME);
  if (!row.checkRunId) await db.pullRequest.update({ where: { id: row.id }, data: { checkRunId: String(checkRunId) } });
  let validation: PullRequestValidation;
  try {
    validation = await validateFiles(gh, pr.number, policy, workerLimits);
    await gh.completeCheckRun(checkRunId, checkRunResult(validation));
  } catch (e) {
    // Whatever went wrong, the check says so rather than staying "in progress"; the error
    // still propagates, so a job runner retries (and the retry completes this same check).
    await gh.completeCheckRun(checkRunId, stoppedCheckRun(e)).catch((again: unknown) => console.error('assay: could not report the failed validation on its check run:', again));
    await db.pullRequest.update({ where: { id: row.id }, data: { state: 'invalid' } }).catch(() => undefined);
    throw e;
  }
  const commentId = await upsertValidationComment(db, gh, sourceId, pr.number, validationComment(validation, policy, pr.headSha));
  const state = stateOf(validation);
  await db.pullRequest.update({
    where: { id: row.id },
    data: { state, validation: validation as unknown as Prisma.InputJsonValue, checkRunId: String(checkRunId), commentId: String(commentId) },
  });
  return { sourceId, pullRequestId: row.id, state, validation, checkRunId, commentId };
}

/** More files than this in one pull request are not checked (nor ever run): split it. */
export const MAX_CHECKED_FILES = 100;

async function validateFiles(gh: GitHubRepo, number: number, policy: PullRequestPolicy, workerLimits?: WorkerLimits): Promise<PullRequestValidation> {
  const changed = (await gh.listPullRequestFiles(number)).filter((f) => f.status !== 'removed' && (isBlueprintPath(f.path) || isCollectionPath(f.path)));
  const files: ValidatedFile[] = [];
  for (const f of changed.slice(MAX_CHECKED_FILES)) {
    const message = `this pull request changes ${changed.length} blueprint and model files; Assay checks at most ${MAX_CHECKED_FILES} per pull request`;
    files.push({ path: f.path, kind: isCollectionPath(f.path) ? 'collection' : 'blueprint', blueprintId: null, blobSha: f.blobSha, valid: false, promptCount: 0, errors: [{ line: 1, col: 1, message, hint: 'Split it into smaller pull requests.' }], warnings: [] });
  }
  const toCheck: FileToValidate[] = [];
  for (const f of changed.slice(0, MAX_CHECKED_FILES)) toCheck.push({ path: f.path, blobSha: f.blobSha, text: await gh.readBlob(f.blobSha), policy });
  // untrusted text (nobody has approved anything yet): parsed off this thread, with time and memory limits
  files.push(...(await validateInWorker(toCheck, workerLimits)));
  return { files };
}

/** One Assay comment per pull request, edited on each push; a new one if someone deleted it. */
async function upsertValidationComment(db: Db, gh: GitHubRepo, sourceId: string, number: number, body: string): Promise<number> {
  const previous = await db.pullRequest.findFirst({
    where: { sourceId, number, commentId: { not: null } },
    orderBy: { updatedAt: 'desc' },
    select: { commentId: true },
  });
  if (previous?.commentId && (await gh.updateComment(Number(previous.commentId), body))) return Number(previous.commentId);
  return gh.postComment(number, body);
}
