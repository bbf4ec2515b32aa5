/**
 * Inngest function: an approval arrived (label, comment or admin). The use case checks the
 * actor's permission before anything costs money; per PR one at a time, so a label and a
 * comment together start one set of runs.
 */
import { inngest } from '../client';
import { GITHUB_JOB_RETRIES } from './github-retries';
import { pullRequestApproved } from '../events';
import { requireGitHub, type GitHubServices } from '../../github/services';
import { approvePullRequestRun } from '../../github/pull-requests/approve-pull-request-run';

export function pullRequestApproveFunction(services: () => GitHubServices) {
  return inngest.createFunction(
    { id: 'pull-request-approve', triggers: [pullRequestApproved], concurrency: { limit: 1, key: 'event.data.number' }, retries: GITHUB_JOB_RETRIES },
    async ({ event, step }) =>
      step.run('check-approval-and-request-runs', async () => {
        const s = services();
        const gh = requireGitHub(s);
        return approvePullRequestRun(s.db, gh.repo, gh.source, s.policy, s.runs, event.data);
      }),
  );
}
