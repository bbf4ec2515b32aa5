/** Inngest function: validate a pull request's blueprints and report (check run + comment). One at a time per PR. */
import { inngest } from '../client';
import { GITHUB_JOB_RETRIES } from './github-retries';
import { pullRequestChanged } from '../events';
import { requireGitHub, type GitHubServices } from '../../github/services';
import { validatePullRequest } from '../../github/pull-requests/validate-pull-request';

export function pullRequestValidateFunction(services: () => GitHubServices) {
  return inngest.createFunction(
    { id: 'pull-request-validate', triggers: [pullRequestChanged], concurrency: { limit: 1, key: 'event.data.number' }, retries: GITHUB_JOB_RETRIES },
    async ({ event, step }) =>
      step.run('validate-and-report', async () => {
        const s = services();
        const gh = requireGitHub(s);
        const r = await validatePullRequest(s.db, gh.repo, gh.source, s.policy, event.data);
        return { pullRequestId: r.pullRequestId, state: r.state, checkRunId: r.checkRunId, commentId: r.commentId };
      }),
  );
}
