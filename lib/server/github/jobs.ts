/**
 * What GitHub events set in motion, as a port declared by its consumers (the webhook, the
 * admin actions): request a sync, validate a pull request, approve its run. Two adapters,
 * chosen by the composition root (lib/server/compose/github-jobs.ts): Inngest events (at
 * scale, durable and retried), or the use cases called in this process (services.ts
 * `inProcessJobs`, no Inngest configured), deferred past the HTTP response when the caller
 * can (Next's `after`), since GitHub gives a webhook 10 seconds.
 */
import type { ApprovalRequest } from './pull-requests/approve-pull-request-run';
import type { PullRequestRef } from './pull-requests/validate-pull-request';

export type SyncTrigger = 'webhook' | 'cron' | 'admin' | 'cli';

export interface GitHubJobs {
  requestSync(trigger: SyncTrigger, commitSha?: string): Promise<void>;
  pullRequestChanged(pr: PullRequestRef): Promise<void>;
  pullRequestApproved(approval: ApprovalRequest): Promise<void>;
}
