/**
 * On a pull request opened or pushed to: validate every changed blueprint and model
 * collection at the head commit, and report at once as a check run (with file:line:col
 * annotations; with a GitHub App only) and as Assay's comment on the PR (updated in place on
 * later pushes). Nothing runs and nothing is stored but the validation: running waits for a
 * maintainer. The validation and the state are stored before they are reported, so the pull
 * request settles even when GitHub refuses the report; a retry reports what was stored.
 */
import { type Prisma } from '@/generated/prisma/client';
import { BLUEPRINT_LIMITS } from '@/lib/core';
import type { Db } from '../../db/client';
import type { GitHubSource, PullRequestPolicy } from '../config';
import type { GitHubRepo } from '../port';
import { ASSAY_FOLDERS, isBlueprintPath, isCollectionPath } from '../paths';
import { ensureGitHubSource } from '../source';
import { CHECK_NAME, checkRunResult, pullRequestPageUrl, stoppedCheckRun, stoppedComment, validationComment } from './messages';
import { stoppedFile, type FileToValidate } from './validate-file';
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
  const stored = row.validation === null ? null : PullRequestValidationSchema.parse(row.validation);
  if (stored && row.commentId !== null) {
    // this head was validated and reported already (a redelivered webhook, a retried job): report nothing twice
    return { sourceId, pullRequestId: row.id, state: row.state as PullRequestState, validation: stored, checkRunId: row.checkRunId ? Number(row.checkRunId) : null, commentId: Number(row.commentId) };
  }
  const fullList = pullRequestPageUrl(policy.publicUrl, pr.number);

  // Without a GitHub App there is no check run (GitHub refuses it to a token): the comment reports alone.
  let checkRunId = row.checkRunId ? Number(row.checkRunId) : null;
  let validation: PullRequestValidation;
  let state: PullRequestState;
  if (stored) {
    // validated before, but the report did not get through (GitHub refused or was down): report it again
    validation = stored;
    state = row.state as PullRequestState;
  } else {
    try {
      if (gh.checkRuns && checkRunId === null) {
        // kept at once, so a retry after a failure completes this same check
        checkRunId = await gh.createCheckRun(pr.headSha, CHECK_NAME, fullList);
        await db.pullRequest.update({ where: { id: row.id }, data: { checkRunId: String(checkRunId) } });
      }
      validation = await validateFiles(gh, pr.number, pr.headSha, policy, workerLimits);
    } catch (e) {
      // Whatever went wrong, the pull request settles and says so, rather than staying "in progress";
      // the error still propagates, so a job runner retries (and the retry completes this same check).
      await db.pullRequest.update({ where: { id: row.id }, data: { state: 'invalid' } }).catch(() => undefined);
      await reportStopped(db, gh, sourceId, row.id, pr, checkRunId, e);
      throw e;
    }
    // stored before it is reported: the state is settled even when GitHub then refuses the report
    state = stateOf(validation);
    await db.pullRequest.update({ where: { id: row.id }, data: { state, validation: validation as unknown as Prisma.InputJsonValue } });
  }
  if (checkRunId !== null) await gh.completeCheckRun(checkRunId, checkRunResult(validation, fullList));
  const commentId = await upsertValidationComment(db, gh, sourceId, pr.number, validationComment(validation, policy, pr.headSha, fullList));
  await db.pullRequest.update({ where: { id: row.id }, data: { commentId: String(commentId) } });
  return { sourceId, pullRequestId: row.id, state, validation, checkRunId, commentId };
}

/** A validation that could not finish, on its check run (with an App) or in Assay's comment (token only); best effort. */
async function reportStopped(db: Db, gh: GitHubRepo, sourceId: string, rowId: string, pr: PullRequestRef, checkRunId: number | null, e: unknown): Promise<void> {
  const complain = (again: unknown) => console.error('assay: could not report the failed validation on GitHub:', again);
  if (checkRunId !== null) {
    await gh.completeCheckRun(checkRunId, stoppedCheckRun(e)).catch(complain);
    return;
  }
  const commentId = await upsertValidationComment(db, gh, sourceId, pr.number, stoppedComment(e, pr.headSha)).catch(complain);
  if (commentId) await db.pullRequest.update({ where: { id: rowId }, data: { commentId: String(commentId) } }).catch(complain);
}

/** More files than this in one pull request are not checked (nor ever run): split it. */
export const MAX_CHECKED_FILES = 100;

async function validateFiles(gh: GitHubRepo, number: number, headSha: string, policy: PullRequestPolicy, workerLimits?: WorkerLimits): Promise<PullRequestValidation> {
  const changed = (await gh.listPullRequestFiles(number)).filter((f) => f.status !== 'removed' && (isBlueprintPath(f.path) || isCollectionPath(f.path)));
  const files: ValidatedFile[] = [];
  for (const f of changed.slice(MAX_CHECKED_FILES)) {
    const message = `this pull request changes ${changed.length} blueprint and model files; Assay checks at most ${MAX_CHECKED_FILES} per pull request`;
    files.push({ path: f.path, kind: isCollectionPath(f.path) ? 'collection' : 'blueprint', blueprintId: null, blobSha: f.blobSha, valid: false, promptCount: 0, errors: [{ line: 1, col: 1, message, hint: 'Split it into smaller pull requests.' }], warnings: [] });
  }
  const toCheck: FileToValidate[] = [];
  const checked = changed.slice(0, MAX_CHECKED_FILES);
  // sizes come from the tree at the head (one request; GitHub's PR file listing has none), so
  // an oversized file from a stranger is refused without downloading it (blobs go up to 100 MB)
  const sizes = checked.length ? new Map((await gh.listFiles(headSha, ASSAY_FOLDERS)).map((f) => [f.path, f.size])) : new Map<string, number | undefined>();
  for (const f of checked) {
    const size = sizes.get(f.path);
    if (size !== undefined && size > BLUEPRINT_LIMITS.maxFileBytes) {
      files.push(stoppedFile(f, `the file is ${size.toLocaleString('en-US')} bytes, over the limit of ${BLUEPRINT_LIMITS.maxFileBytes.toLocaleString('en-US')} bytes; it was not read`, 'Keep a blueprint or model collection under the limit (docs/limits.md); split a long blueprint into several.'));
      continue;
    }
    toCheck.push({ path: f.path, blobSha: f.blobSha, text: await gh.readBlob(f.blobSha), policy });
  }
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
