/**
 * A run's export as an HTTP download (the run page's Download links): the same file `assay
 * export` writes, streamed to the browser as the cursor reads it. Visible to whoever may see the
 * run's pages (a draft only to its author and maintainers: others get the unknown run's 404), and
 * limited per client: a whole run is the heaviest thing a reader can ask for.
 */
import { Readable } from 'node:stream';
import { z } from 'zod';
import { ExportFormatSchema, ExportTableSchema } from '@/lib/core';
import { enforceRateLimit, type RateLimit } from '../auth/rate-limit';
import { poolOf, type Db } from '../db/client';
import { mayViewRun, type Viewer } from '../runs/draft-visibility';
import { RunNotFoundError } from '../runs/engine/errors';
import { exportableRun, runExportFile } from './run-export';

/** Whole-run downloads per client address: plenty for a person, not a scraper's loop. */
export const EXPORT_DOWNLOAD_LIMIT: RateLimit = { limit: 30, windowSeconds: 10 * 60 };

export const ExportQuerySchema = z.object({
  table: ExportTableSchema.default('verdicts'),
  format: ExportFormatSchema.default('csv'),
  gzip: z.enum(['0', '1']).default('0').transform((v) => v === '1'),
});
export type ExportQuery = z.infer<typeof ExportQuerySchema>;

export async function runExportResponse(db: Db, runId: string, query: ExportQuery, viewer: Viewer | null, clientAddress: string): Promise<Response> {
  await enforceRateLimit(db, `export:${clientAddress}`, EXPORT_DOWNLOAD_LIMIT);
  const run = await exportableRun(poolOf(db), runId);
  if (!run || !mayViewRun(run, viewer)) throw new RunNotFoundError(runId);
  const file = runExportFile(poolOf(db), run, query);
  return new Response(Readable.toWeb(file.stream) as ReadableStream<Uint8Array>, {
    headers: {
      'content-type': file.contentType,
      'content-disposition': `attachment; filename="${file.filename}"`,
      // a finished run's records do not change, but a running one's do: never served stale
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}
