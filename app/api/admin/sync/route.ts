/** POST: sync the blueprint source now (admin token or a maintainer's session). */
import { after } from 'next/server';
import { z } from 'zod';
import { isFormPost, redirect, route } from '@/lib/server/http';
import { requestSyncAsAdmin } from '@/lib/server/admin/actions';
import { authenticateActor, githubJobs, githubServices } from '@/lib/server/platform';

export const dynamic = 'force-dynamic';

export const POST = route(
  { authenticate: authenticateActor, response: z.object({ ok: z.literal(true), message: z.string() }), status: 202, formErrorsTo: '/admin' },
  async ({ principal, request }) => {
    await requestSyncAsAdmin(githubServices().db, githubJobs(after), principal);
    const message = 'Sync requested.';
    return isFormPost(request) ? redirect(`/admin?notice=${encodeURIComponent(message)}`) : { ok: true as const, message };
  },
);
