/**
 * The composition root: with the small files of lib/server/compose/, the only
 * place that reads the configuration (`env()`) and wires the real adapters: the database, the
 * GitHub repository (Octokit with a token or a GitHub App), the pull-request policy, the run
 * pipeline, and how jobs run (Inngest when configured, otherwise in this process). Use cases
 * and adapters receive what they need as arguments and ports; `npm run deps:check`
 * (scripts/check-deps.ts) fails when a file elsewhere reads the configuration.
 * Everything is built lazily on first use, so importing this module (e.g. during
 * `next build`) reads no environment and opens no connection.
 * Runs go through the run pipeline's requestRun and its dispatcher (compose/run-deps.ts);
 * a finished pull-request run posts its scores on the PR (`onFinished`). Domain errors are
 * AppErrors and pass through untouched: `route()` maps them to HTTP once.
 */
import { ActiveRunStatusSchema } from '@/lib/core';
import { Prisma } from '@/generated/prisma/client';
import { env } from './env';
import { getDb } from './compose/database';
import { publicUrl } from './compose/site';
import { inngest } from './jobs/client';
import { pullRequestPolicy, RUN_COMMAND } from './github/config';
import { configuredGitHub } from './compose/github';
import type { GitHubJobs } from './github/jobs';
import { inngestJobs } from './compose/github-jobs';
import { durableJobs, runDueGitHubJobs } from './github/job-outbox';
import { inProcessJobs, type GitHubServices } from './github/services';
import { reportPullRequestRun } from './github/pull-requests/report-pull-request-run';
import { FALLBACK_CONCURRENCY } from './providers';
import { requestRun } from './runs/request-run';
import { requestRescore } from './runs/request-rescore';
import type { RescorePorts, RunPorts } from './runs/contracts';
import type { RunDeps } from './runs/engine/deps';
import { createRunDeps, inngestConfigured, inngestDispatcher, localDispatcher, runDefaults } from './compose/run-deps';
import type { WebhookDeps } from './github/webhooks/receive-webhook';
import type { OAuthConfig } from './auth/github-oauth';
import { principalOf, requireActor, type Principal } from './auth/principal';
import { clientAddress, parseTrustedProxies, type TrustedProxies } from './http/client-address';
import { syncSourceFunction } from './jobs/functions/sync-source';
import { pullRequestValidateFunction } from './jobs/functions/pull-request-validate';
import { pullRequestApproveFunction } from './jobs/functions/pull-request-approve';
import { scheduleRerunsFunction } from './jobs/functions/schedule-reruns-cron';
import type { RerunPolicy } from './jobs/functions/schedule-reruns';
import type { TryDeps } from './authoring/try-draft';
import { trySettingsFromEnv } from './authoring/try-settings';
import { runFunctions } from './jobs/functions/run-functions';
import { batchFunctions } from './jobs/functions/run-batch';
import { sweepRunsFunction } from './jobs/functions/sweep-runs';
import { sharedUntrustedPool } from './untrusted/untrusted-pool';
import { refreshHumanFigures } from './human/figures';

export { databaseConfigured, getDb } from './compose/database';
export { adminToken, githubSignInOffered, leaderboardMinCoverage, publicUrl, reviewLimits, secureCookies } from './compose/site';

let services: GitHubServices | undefined;
let runDeps: Promise<RunDeps> | undefined;

/** The run pipeline's dependencies: one instance per process (one gateway, one set of provider limits). */
export function platformRunDeps(): Promise<RunDeps> {
  // The server also warms the pool that parses drafts and pushed files, so its first such request
  // does not pay for the workers' start-up; a command that runs one blueprint starts them only if
  // it needs one (two workers' start-up saved on a 2-core machine).
  return (runDeps ??= createRunDeps(getDb(), env(), { onFinished: reportFinishedRun }).then((deps) => {
    void sharedUntrustedPool().warm();
    return deps;
  }));
}

/** requestRun with the platform's defaults (a run that cannot be configured throws RunConfigError: a 409 with the reason). */
function runPorts(): RunPorts {
  const config = env();
  const defaults = runDefaults(config);
  const dispatcher = inngestConfigured(config)
    ? inngestDispatcher()
    : localDispatcher(
        platformRunDeps,
        (runId, e) => console.error(`assay: run ${runId} failed:`, e),
      );
  return {
    dispatcher,
    requestRun: (db, req, d) => requestRun(db, req, d, defaults),
  };
}

/** "Try it" (docs/authoring.md): the run pipeline, the environment's default settings and the platform's judges. */
export function tryDeps(): TryDeps {
  const config = env();
  return { db: getDb(), runs: githubServices().runs, defaults: trySettingsFromEnv(config), judges: runDefaults(config).judges };
}

/** requestRescore with the platform's defaults and dispatcher (the admin area's rescore). */
export function rescorePorts(): RescorePorts {
  const defaults = runDefaults(env());
  return {
    dispatcher: githubServices().runs.dispatcher,
    requestRescore: (db, req, d) => requestRescore(db, req, d, defaults),
  };
}

export function githubServices(): GitHubServices {
  if (services) return services;
  const config = env();
  services = {
    db: getDb(),
    github: configuredGitHub(config),
    localFolder: config.ASSAY_BLUEPRINTS_DIR,
    policy: pullRequestPolicy(config),
    runs: runPorts(),
  };
  return services;
}

/**
 * Reads and validates the whole configuration (env.ts), throwing EnvError naming every bad
 * variable: called when the server starts (instrumentation.ts), so a bad or half configuration
 * (an Inngest event key without its signing key…) stops the start instead of the first request.
 */
export function checkConfiguration(): void {
  env();
}

/** Inngest sends events when it has somewhere to send them; otherwise the jobs run here. */
export function usesInngest(): boolean {
  return inngestConfigured(env());
}

/**
 * How GitHub-triggered jobs run. `defer` postpones in-process work past the response (Next's
 * `after`); without it, in-process jobs finish before the caller continues.
 */
export function githubJobs(defer?: (task: () => Promise<void>) => void): GitHubJobs {
  if (usesInngest()) return inngestJobs(inngest);
  // stored before they run, so a failed or interrupted job is retried (resumeGitHubJobs), never dropped
  return durableJobs(getDb(), inProcessJobs(githubServices()), defer ? { defer } : {});
}

/** How often this process looks for GitHub jobs due for a retry (in-process mode). */
const GITHUB_JOB_POLL_MS = 30_000;
let githubJobTimer: ReturnType<typeof setInterval> | null = null;

/**
 * At start of a process that runs jobs in-process (no Inngest): GitHub jobs that failed or that
 * a restart interrupted run again when due, now and every half minute. With Inngest, its retries do this.
 */
export async function resumeGitHubJobs(): Promise<number> {
  if (usesInngest()) return 0;
  const run = () => runDueGitHubJobs(getDb(), inProcessJobs(githubServices()));
  githubJobTimer ??= setInterval(() => void run().catch((e: unknown) => console.error('assay: could not retry GitHub jobs:', e)), GITHUB_JOB_POLL_MS);
  githubJobTimer.unref();
  const { ran } = await run();
  if (ran) console.log(`assay: ran ${ran} pending GitHub job(s)`);
  return ran;
}

export function webhookDeps(defer?: (task: () => Promise<void>) => void): WebhookDeps {
  const config = env();
  const gh = githubServices().github;
  return {
    db: getDb(),
    secret: config.GITHUB_WEBHOOK_SECRET,
    source: gh?.source ?? null,
    approvalLabel: config.ASSAY_PR_APPROVAL_LABEL,
    command: RUN_COMMAND,
    jobs: githubJobs(defer),
  };
}

export function oauthConfig(): OAuthConfig {
  const config = env();
  return {
    clientId: config.GITHUB_OAUTH_CLIENT_ID,
    clientSecret: config.GITHUB_OAUTH_CLIENT_SECRET,
    oauthUrl: config.GITHUB_OAUTH_URL,
    apiUrl: config.GITHUB_API_URL,
    publicUrl: config.ASSAY_PUBLIC_URL,
    maintainerLogins: (config.ASSAY_MAINTAINER_LOGINS ?? '').split(',').map((l) => l.trim()).filter(Boolean),
  };
}

/** Who sent a request: the bearer admin token or a session (see auth/principal.ts). */
export function authenticate(request: Request): Promise<Principal | null> {
  const config = env();
  return principalOf(getDb(), config.ASSAY_ADMIN_TOKEN, request, config.ASSAY_PUBLIC_URL);
}

/** For routes that act: 401/403 before the request is even read, unless the sender may act. */
export async function authenticateActor(request: Request): Promise<Principal> {
  return requireActor(await authenticate(request));
}

let proxies: TrustedProxies | undefined;

/** The requesting client's address for per-client limits, believing only ASSAY_TRUSTED_PROXIES' forwarding. */
export function requestClientAddress(request: Request): string {
  proxies ??= parseTrustedProxies(env().ASSAY_TRUSTED_PROXIES);
  return clientAddress(request.headers, proxies);
}

export function rerunPolicy(): RerunPolicy {
  const config = env();
  return { maxAgeDays: config.ASSAY_RERUN_MAX_AGE_DAYS, maxPerTick: config.ASSAY_RERUN_MAX_PER_TICK, mode: config.ASSAY_RERUN_MODE };
}

/**
 * For the run pipeline when a run finishes (`onFinished`): a pull-request run posts its scores
 * and the drill-down link on its PR; any other run is left alone.
 */
export async function reportFinishedRun(runId: string): Promise<void> {
  const s = githubServices();
  if (!s.github) return;
  const run = await s.db.run.findUnique({ where: { id: runId }, select: { pullRequestId: true } });
  if (run?.pullRequestId) await reportPullRequestRun(s.db, s.github.repo, runId, publicUrl());
}

/** Every Inngest function: the run pipeline's (chat and retrieval alike), its sweeper and the GitHub side's. */
export function inngestFunctions() {
  const providerConcurrency = env().ASSAY_RUN_CONCURRENCY ?? FALLBACK_CONCURRENCY;
  return [
    ...runFunctions(platformRunDeps, { providerConcurrency }),
    // runs left running with no live lease past a quiet time are resumed (sweep-runs.ts)
    sweepRunsFunction(platformRunDeps),
    // batch mode's rounds, one function run each (run-batch.ts)
    ...batchFunctions(platformRunDeps),
    ...githubFunctions(),
  ];
}

/** Every Inngest function of the GitHub side. */
export function githubFunctions() {
  const config = env();
  return [
    syncSourceFunction(githubServices, config.ASSAY_SYNC_CRON),
    pullRequestValidateFunction(githubServices),
    pullRequestApproveFunction(githubServices),
    scheduleRerunsFunction(githubServices, config.ASSAY_RERUN_CRON, rerunPolicy()),
  ];
}

/**
 * At start: the figures made from people's labels are made again in the background (an answer
 * stored just before a stop may not have reached them), never holding the start.
 */
export function refreshFiguresFromPeople(): void {
  refreshHumanFigures(getDb()).catch((e: unknown) => console.error('assay: could not make the figures from people’s labels again:', e));
}

/**
 * At start of a process that runs jobs in-process (no Inngest): runs that a restart or crash
 * interrupted continue where they stopped. With Inngest, its own retries do this.
 */
export async function resumeInterruptedRuns(): Promise<number> {
  if (usesInngest()) return 0;
  const db = getDb();
  // Only runs that can run: a version without a normalised blueprint (imported or demo data) cannot.
  const stuck = await db.run.findMany({
    where: { status: { in: ActiveRunStatusSchema.options }, version: { valid: true, normalized: { not: Prisma.DbNull } } },
    select: { id: true },
  });
  const { dispatcher } = runPorts();
  for (const r of stuck) await dispatcher.dispatch(r.id);
  if (stuck.length) console.log(`assay: resuming ${stuck.length} interrupted run(s)`);
  return stuck.length;
}
