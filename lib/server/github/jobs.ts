/**
 * What GitHub events set in motion, as a port: request a sync, validate a pull request,
 * approve its run. Two adapters: Inngest events (at scale, durable and retried), or the use
 * cases called in this process (no Inngest configured), deferred past the HTTP response when
 * the caller can (Next's `after`), since GitHub gives a webhook 10 seconds.
 */
import type { Inngest } from 'inngest';
import { pullRequestApproved, pullRequestChanged, syncRequested } from '../jobs/events';
import type { ApprovalRequest } from './pull-requests/approve-pull-request-run';
import type { PullRequestRef } from './pull-requests/validate-pull-request';

export type SyncTrigger = 'webhook' | 'cron' | 'admin' | 'cli';

export interface GitHubJobs {
  requestSync(trigger: SyncTrigger, commitSha?: string): Promise<void>;
  pullRequestChanged(pr: PullRequestRef): Promise<void>;
  pullRequestApproved(approval: ApprovalRequest): Promise<void>;
}

export function inngestJobs(inngest: Inngest.Any): GitHubJobs {
  return {
    async requestSync(trigger, commitSha) {
      await inngest.send(syncRequested.create({ trigger, ...(commitSha ? { commitSha } : {}) }));
    },
    async pullRequestChanged(pr) {
      await inngest.send(pullRequestChanged.create(pr));
    },
    async pullRequestApproved(a) {
      await inngest.send(pullRequestApproved.create({ number: a.number, approvedBy: a.approvedBy, via: a.via, ...(a.headSha ? { headSha: a.headSha } : {}) }));
    },
  };
}

/** Runs each job through `defer` (e.g. Next's `after`), logging failures: the caller has answered already. */
export function deferredJobs(now: GitHubJobs, defer: (task: () => Promise<void>) => void): GitHubJobs {
  const later =
    <A extends unknown[]>(name: string, fn: (...args: A) => Promise<void>) =>
    async (...args: A) => {
      defer(() => fn(...args).catch((e: unknown) => console.error(`assay: ${name} failed:`, e)));
    };
  return {
    requestSync: later('sync', now.requestSync),
    pullRequestChanged: later('pull-request validation', now.pullRequestChanged),
    pullRequestApproved: later('pull-request approval', now.pullRequestApproved),
  };
}
