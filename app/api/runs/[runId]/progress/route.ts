/**
 * GET a run's live progress as JSON (polled every 2 s by the progress page). Counters only:
 * nothing of a prompt or reply, sealed or not. Through `route()` like every API route: the
 * output is validated against the same schema the page validates on the way in, and an
 * unknown run is the RunNotFoundError's 404 with a JSON error.
 */
import { z } from 'zod';
import { route } from '@/lib/server/http';
import { authenticate, getDb } from '@/lib/server/platform';
import { mayViewRun, viewerOf } from '@/lib/server/runs/draft-visibility';
import { getRunProgress } from '@/lib/server/db/queries/run-progress';
import { RunNotFoundError } from '@/lib/server/runs/engine/errors';
import { progressJson, RunProgressSchema } from '@/lib/views/progress-view';
import { decodeSegment } from '@/lib/views/urls';

export const dynamic = 'force-dynamic';

const Params = z.object({ runId: z.string().transform(decodeSegment).pipe(z.string().min(1, 'A run id is 1 to 200 characters.').max(200, 'A run id is 1 to 200 characters.')) });

export const GET = route({ params: Params, response: RunProgressSchema, headers: { 'cache-control': 'no-store' }, authenticate }, async ({ params, principal }) => {
  const row = await getRunProgress(getDb(), params.runId);
  // a draft (try-it) run exists only for its author and maintainers (the admin token is a maintainer)
  const viewer = viewerOf(principal);
  if (!row || !mayViewRun(row, viewer)) throw new RunNotFoundError(params.runId);
  return progressJson(row);
});
