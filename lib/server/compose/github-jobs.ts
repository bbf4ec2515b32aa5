/**
 * Part of the composition root: the adapters of the GitHub jobs port (github/jobs.ts) that
 * the root chooses between. Inngest events when Inngest is configured; otherwise the use
 * cases in this process (github/services.ts `inProcessJobs`) through the durable outbox
 * (github/job-outbox.ts), optionally deferred past the HTTP response.
 */
import type { Inngest } from 'inngest';
import { pullRequestApproved, pullRequestChanged, syncRequested } from '../jobs/events';
import type { GitHubJobs } from '../github/jobs';

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
