/**
 * What a maintainer can do from the admin area (pages and API alike): sync now, run any
 * blueprint, rescore a stored run (other judges or the blueprint's latest rubric, no model
 * calls), approve a pull request's run. Each takes an authorised principal, so no caller
 * can forget the check, and is rate-limited per principal in the database.
 */
import type { Db } from '../db/client';
import { NotFoundError } from '../http/errors';
import { actorName, requireActor, type Principal } from '../auth/principal';
import { ADMIN_ACTION_LIMIT, enforceRateLimit } from '../auth/rate-limit';
import type { GitHubJobs } from '../github/jobs';
import { requireGitHub, type GitHubServices } from '../github/services';
import { approvePullRequestRun, type ApprovalOutcome } from '../github/pull-requests/approve-pull-request-run';
import type { RequestedRun, RescorePorts, RunPorts } from '../runs/contracts';

async function authorise(db: Db, principal: Principal | null): Promise<Principal> {
  const p = requireActor(principal);
  await enforceRateLimit(db, `admin:${p.kind === 'user' ? p.user.id : 'token'}`, ADMIN_ACTION_LIMIT);
  return p;
}

export async function requestSyncAsAdmin(db: Db, jobs: GitHubJobs, principal: Principal | null): Promise<void> {
  await authorise(db, principal);
  await jobs.requestSync('admin');
}

export async function triggerRunAsAdmin(db: Db, runs: RunPorts, principal: Principal | null, blueprintId: string): Promise<RequestedRun> {
  const p = await authorise(db, principal);
  const blueprint = await db.blueprint.findUnique({ where: { id: blueprintId }, select: { removedAt: true, latestVersion: { select: { valid: true } } } });
  if (!blueprint || blueprint.removedAt) throw new NotFoundError(`No blueprint ${blueprintId} at the source's head; sync first if it was just added.`);
  if (!blueprint.latestVersion?.valid) throw new NotFoundError(`Blueprint ${blueprintId} has errors; fix them before running it.`);
  // a maintainer's explicit run is a fresh measurement: never deduplicated against an earlier one
  return runs.requestRun(db, { blueprintId, trigger: 'manual', ...(p.kind === 'user' ? { createdById: p.user.id } : {}) }, runs.dispatcher);
}

/** A run a maintainer asks for through the API (`POST /api/v1/runs`): the blueprint and what to change of its defaults. */
export interface MaintainerRunRequest {
  blueprintId: string;
  /** Default: the blueprint's latest version. */
  versionId?: string;
  models?: string[];
  judges?: string[];
  repeats?: number;
  budget?: { maxCalls?: number; maxCostUsd?: number };
}

/**
 * Runs a blueprint on a maintainer's request from a script. Unlike the admin page's "run now",
 * it is idempotent on the run's identity, as a scheduled run is: asking again for the same
 * blueprint version, models, judges and settings while that run is under way or done answers
 * that run (`deduplicated`), so a retried request never pays twice.
 */
export async function requestRunAsMaintainer(db: Db, runs: RunPorts, principal: Principal | null, req: MaintainerRunRequest): Promise<RequestedRun> {
  const p = await authorise(db, principal);
  const blueprint = await db.blueprint.findUnique({ where: { id: req.blueprintId }, select: { removedAt: true, latestVersion: { select: { valid: true } } } });
  if (!blueprint || blueprint.removedAt) throw new NotFoundError(`No blueprint ${req.blueprintId} at the source's head; sync first if it was just added.`);
  const valid = req.versionId
    ? (await db.blueprintVersion.findFirst({ where: { id: req.versionId, blueprintId: req.blueprintId }, select: { valid: true } }))?.valid
    : blueprint.latestVersion?.valid;
  if (valid === undefined) throw new NotFoundError(`Blueprint ${req.blueprintId} has no version ${req.versionId}.`);
  if (!valid) throw new NotFoundError(`That version of blueprint ${req.blueprintId} has errors; fix them before running it.`);
  return runs.requestRun(
    db,
    {
      blueprintId: req.blueprintId,
      ...(req.versionId ? { versionId: req.versionId } : {}),
      ...(req.models ? { models: req.models } : {}),
      ...(req.judges ? { judges: req.judges } : {}),
      ...(req.repeats ? { repeats: req.repeats } : {}),
      ...(req.budget ? { budget: req.budget } : {}),
      trigger: 'manual',
      skipIfIdentical: true,
      ...(p.kind === 'user' ? { createdById: p.user.id } : {}),
    },
    runs.dispatcher,
  );
}

export async function approvePullRequestAsAdmin(s: GitHubServices, principal: Principal | null, number: number): Promise<ApprovalOutcome> {
  const p = await authorise(s.db, principal);
  const gh = requireGitHub(s);
  return approvePullRequestRun(s.db, gh.repo, gh.source, s.policy, s.runs, { number, approvedBy: actorName(p), via: 'admin' });
}

export interface AdminRescore {
  runId: string;
  /** A new judge panel (`model` or `model#approach`); default: the run's. */
  judges?: string[];
  /** Re-grade with the blueprint's latest version (its prompts keep their ids) instead of the run's. */
  latestRubric?: boolean;
}

export async function rescoreRunAsAdmin(db: Db, ports: RescorePorts, principal: Principal | null, req: AdminRescore): Promise<RequestedRun> {
  const p = await authorise(db, principal);
  const run = await db.run.findUnique({ where: { id: req.runId }, select: { id: true, blueprint: { select: { latestVersionId: true } } } });
  if (!run) throw new NotFoundError(`No run ${req.runId}.`);
  const versionId = req.latestRubric ? (run.blueprint.latestVersionId ?? undefined) : undefined;
  return ports.requestRescore(
    db,
    { runId: run.id, ...(versionId ? { versionId } : {}), ...(req.judges?.length ? { judges: req.judges } : {}), ...(p.kind === 'user' ? { createdById: p.user.id } : {}) },
    ports.dispatcher,
  );
}
