/**
 * GET a run's live progress as JSON (polled every 2 s by the progress page). Counters only:
 * nothing of a prompt or reply, sealed or not. The output is validated against the same
 * schema the page validates on the way in; an unknown run is a 404 with a JSON error.
 */
import { z } from 'zod';
import { getDb } from '@/lib/server/context';
import { getRunProgress } from '@/lib/server/db/queries/run-progress';
import { progressJson } from '@/lib/server/views/progress-view';
import { decodeSegment } from '@/lib/server/views/urls';

export const dynamic = 'force-dynamic';

const RunId = z.string().min(1).max(200);
const headers = { 'cache-control': 'no-store' };

export async function GET(_req: Request, { params }: { params: Promise<{ runId: string }> }) {
  const id = RunId.safeParse(decodeSegment((await params).runId));
  if (!id.success) return Response.json({ error: 'A run id is 1 to 200 characters.' }, { status: 400, headers });
  const row = await getRunProgress(getDb(), id.data);
  if (!row) return Response.json({ error: `No run ${id.data}.` }, { status: 404, headers });
  return Response.json(progressJson(row), { headers });
}
