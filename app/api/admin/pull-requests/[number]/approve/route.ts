/** POST: approve a pull request's run within the PR budget (admin token or a maintainer's session). */
import { z } from 'zod';
import { isFormPost, redirect, route } from '@/lib/server/http';
import { approvePullRequestAsAdmin } from '@/lib/server/admin/actions';
import { authenticateActor, githubServices } from '@/lib/server/platform';

export const dynamic = 'force-dynamic';

const Outcome = z.object({
  status: z.enum(['started', 'already_approved', 'forbidden', 'invalid', 'stale', 'closed', 'no_blueprints']),
  headSha: z.string().optional(),
  runs: z.array(z.object({ blueprintId: z.string(), runId: z.string(), deduplicated: z.boolean() })).optional(),
  skipped: z.array(z.string()).optional(),
});

export const POST = route(
  { authenticate: authenticateActor, params: z.object({ number: z.coerce.number().int().positive() }), response: Outcome, formErrorsTo: '/admin' },
  async ({ principal, params, request }) => {
    const outcome = await approvePullRequestAsAdmin(githubServices(), principal, params.number);
    const { status, headSha } = outcome;
    const runs = 'runs' in outcome ? outcome.runs : undefined;
    const skipped = 'skipped' in outcome ? outcome.skipped : undefined;
    if (isFormPost(request)) {
      const message = status === 'started' ? `Pull request #${params.number}: ${runs?.length ?? 0} run(s) requested.` : `Pull request #${params.number}: ${status.replace('_', ' ')}.`;
      return redirect(`/admin?notice=${encodeURIComponent(message)}`);
    }
    return { status, headSha, runs, skipped };
  },
);
