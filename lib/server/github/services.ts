/**
 * The dependencies of the GitHub use cases in one record, and the two things every entry
 * point (webhook, Inngest function, admin page, CLI) does with them: sync the configured
 * source, and run a job now. The record is built from the environment in one place
 * (lib/server/platform.ts); tests build it around the fake GitHub server.
 */
import type { Db } from '../db/client';
import { NotConfiguredError } from '../http/errors';
import { localFolderReader } from '../blueprints/local-folder-reader';
import { syncSource, type SyncSummary } from '../blueprints/sync-source';
import type { GitHubSource, PullRequestPolicy } from './config';
import type { GitHubJobs, SyncTrigger } from './jobs';
import type { GitHubRepo } from './port';
import type { RunPorts } from '../runs/contracts';
import { approvePullRequestRun } from './pull-requests/approve-pull-request-run';
import { validatePullRequest } from './pull-requests/validate-pull-request';
import { repositoryReader } from './repository-reader';

export interface GitHubServices {
  db: Db;
  /** Null when no repository is configured: blueprints come from `localFolder`. */
  github: { repo: GitHubRepo; source: GitHubSource } | null;
  localFolder: string;
  policy: PullRequestPolicy;
  runs: RunPorts;
}

/** Syncs the configured source: the GitHub repository, or else the local folder. */
export function syncConfiguredSource(s: GitHubServices, trigger: SyncTrigger, force = false): Promise<SyncSummary> {
  const reader = s.github ? repositoryReader(s.github.repo, s.github.source) : localFolderReader(s.localFolder);
  return syncSource({ db: s.db }, reader, { trigger, force });
}

export function requireGitHub(s: GitHubServices): { repo: GitHubRepo; source: GitHubSource } {
  if (!s.github) throw new NotConfiguredError('No GitHub repository is configured: set GITHUB_REPOSITORY (owner/repo) and GITHUB_TOKEN or a GitHub App.');
  return s.github;
}

/** Syncs in this process run one after another (Inngest's concurrency limit does the same at scale). */
const syncQueues = new WeakMap<GitHubServices, Promise<unknown>>();

function queuedSync(s: GitHubServices, trigger: SyncTrigger): Promise<SyncSummary> {
  const next = (syncQueues.get(s) ?? Promise.resolve()).then(() => syncConfiguredSource(s, trigger));
  syncQueues.set(s, next.catch(() => undefined));
  return next;
}

/** The jobs, executed in this process as they are requested. */
export function inProcessJobs(s: GitHubServices): GitHubJobs {
  return {
    async requestSync(trigger) {
      await queuedSync(s, trigger);
    },
    async pullRequestChanged(pr) {
      const gh = requireGitHub(s);
      await validatePullRequest(s.db, gh.repo, gh.source, s.policy, pr);
    },
    async pullRequestApproved(approval) {
      const gh = requireGitHub(s);
      await approvePullRequestRun(s.db, gh.repo, gh.source, s.policy, s.runs, approval);
    },
  };
}
