/** POST {blueprintId}: run any blueprint now (admin token or a maintainer's session). */
import { z } from 'zod';
import { isFormPost, redirect, route } from '@/lib/server/http';
import { triggerRunAsAdmin } from '@/lib/server/admin/actions';
import { authenticateActor, githubServices } from '@/lib/server/platform';

export const dynamic = 'force-dynamic';

export const POST = route(
  {
    authenticate: authenticateActor,
    body: z.object({ blueprintId: z.string().min(1, 'choose a blueprint') }),
    response: z.object({ runId: z.string(), identityHash: z.string(), deduplicated: z.boolean(), url: z.string() }),
    status: 201,
    formErrorsTo: '/admin',
  },
  async ({ principal, body, request }) => {
    const s = githubServices();
    const run = await triggerRunAsAdmin(s.db, s.runs, principal, body.blueprintId);
    const url = `/runs/${run.runId}`;
    if (isFormPost(request)) return redirect(`/admin?notice=${encodeURIComponent(`Run ${run.runId} of ${body.blueprintId} requested.`)}`);
    return { ...run, url };
  },
);
