/**
 * GET a run's replies, verdicts or attempt scores as CSV or JSONL (`?table=&format=&gzip=1`),
 * streamed (lib/server/exports/download.ts; the columns: docs/exports.md).
 */
import { z } from 'zod';
import { route } from '@/lib/server/http';
import { authenticate, getDb, requestClientAddress } from '@/lib/server/platform';
import { ExportQuerySchema, runExportResponse } from '@/lib/server/exports/download';
import { viewerOf } from '@/lib/server/runs/draft-visibility';
import { decodeSegment } from '@/lib/views/urls';

export const dynamic = 'force-dynamic';

const Params = z.object({ runId: z.string().transform(decodeSegment).pipe(z.string().min(1, 'A run id is 1 to 200 characters.').max(200, 'A run id is 1 to 200 characters.')) });

export const GET = route({ params: Params, query: ExportQuerySchema, response: z.never(), authenticate }, async ({ params, query, principal, request }) => {
  const viewer = viewerOf(principal);
  return runExportResponse(getDb(), params.runId, query, viewer, requestClientAddress(request));
});
