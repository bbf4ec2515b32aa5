/**
 * POST {runId, judges?, latestRubric?}: rescore a stored run — re-grade its replies with another
 * judge panel and/or the blueprint's latest rubric, calling no model (admin token or a
 * maintainer's session). The new run links to the old one.
 */
import { z } from 'zod';
import { isFormPost, redirect, route } from '@/lib/server/http';
import { rescoreRunAsAdmin } from '@/lib/server/admin/actions';
import { authenticateActor, githubServices, rescorePorts } from '@/lib/server/platform';

export const dynamic = 'force-dynamic';

const judgeList = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (v === undefined ? undefined : (Array.isArray(v) ? v : v.split(',')).map((s) => s.trim()).filter(Boolean)));

export const POST = route(
  {
    authenticate: authenticateActor,
    body: z.object({
      runId: z.string().min(1, 'choose a run'),
      judges: judgeList,
      // a checkbox posts "on"; JSON callers send a boolean
      latestRubric: z.union([z.boolean(), z.literal('on')]).optional().transform((v) => v === true || v === 'on'),
    }),
    response: z.object({ runId: z.string(), identityHash: z.string(), deduplicated: z.boolean(), url: z.string() }),
    status: 201,
    formErrorsTo: '/admin',
  },
  async ({ principal, body, request }) => {
    const run = await rescoreRunAsAdmin(githubServices().db, rescorePorts(), principal, body);
    const url = `/runs/${run.runId}`;
    if (isFormPost(request)) return redirect(`/admin?notice=${encodeURIComponent(`Rescore ${run.runId} of run ${body.runId} requested.`)}`);
    return { ...run, url };
  },
);
