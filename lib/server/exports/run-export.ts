/**
 * A run exported as a file: one table (replies, verdicts or attempt scores) as JSONL or CSV,
 * gzipped on request, streamed from the database cursor (export-rows.ts) through the encoder to
 * wherever it goes (a download, a file, standard output) with backpressure all the way: a slow
 * reader slows the cursor, and memory does not grow with the run.
 *
 * CSV is RFC 4180 (csv-stringify): every field that holds a quote, a comma or a line break is
 * quoted, quotes doubled; booleans are `true`/`false`, an empty field is a null, JSON columns
 * are JSON text. Cells are written as they were stored: nothing is prefixed to keep a
 * spreadsheet from reading a reply that starts with `=` as a formula (docs/exports.md).
 */
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { stringify as stringifySync } from 'csv-stringify/sync';
import { EXPORT_TABLES, exportColumns, replySourceOf, type ExportFormat, type ExportTable } from '@/lib/core';
import type pg from 'pg';
import { RunNotFoundError } from '../runs/engine/errors';
import { exportRows, type ExportedRun } from './export-rows';

export interface RunExportOptions {
  table: ExportTable;
  format: ExportFormat;
  gzip: boolean;
  /** Rows fetched per round trip (tests make it small to cross batch edges). */
  batchRows?: number;
}

/** Rows encoded into one chunk of the file (~20–40 KB of text for verdicts). */
const CHUNK_ROWS = 50;

export interface RunExportFile {
  filename: string;
  contentType: string;
  stream: Readable;
  /** Rows read so far (all of them once `stream` has ended). */
  readonly rowCount: () => number;
}

export interface ExportableRun extends ExportedRun {
  draft: boolean;
  createdById: string | null;
}

/**
 * The run as the export needs it; null when there is none. Everything an export reads goes
 * through the node-postgres pool, never the ORM: `assay export` loads no ORM (its runtime and its
 * WebAssembly query planner were ~35 MB of the command's ~105 MB), so any run's export stays
 * within 100 MB (bench/export.bench.ts).
 */
export async function exportableRun(pool: pg.Pool, runId: string): Promise<ExportableRun | null> {
  const { rows } = await pool.query<Omit<ExportableRun, 'replyRunId'> & { trigger: string; parentRunId: string | null }>(
    'SELECT id, version_id AS "versionId", draft, created_by_id AS "createdById", trigger, parent_run_id AS "parentRunId" FROM runs WHERE id = $1',
    [runId],
  );
  const run = rows[0];
  return run ? { id: run.id, versionId: run.versionId, draft: run.draft, createdById: run.createdById, replyRunId: replySourceOf(run) } : null;
}

/**
 * The export of an existing run (RunNotFoundError otherwise, before any byte is sent). Who may
 * export it is the caller's to decide, as for the run's pages (draft-visibility.ts).
 */
export async function openRunExport(pool: pg.Pool, runId: string, options: RunExportOptions): Promise<RunExportFile> {
  const run = await exportableRun(pool, runId);
  if (!run) throw new RunNotFoundError(runId);
  return runExportFile(pool, run, options);
}

export function runExportFile(pool: pg.Pool, run: ExportedRun, options: RunExportOptions): RunExportFile {
  const columns = Object.keys(EXPORT_TABLES[options.table].shape);
  const json = exportColumns(options.table).filter((c) => c.type === 'json').map((c) => c.name);
  let count = 0;
  // One text chunk per few dozen rows. Not one per row: 100,000 small chunks cost the gzip stream
  // most of its time (8 s against 4 s for the same file, bench/export.bench.ts). Not one per
  // fetched batch either: a string of a few hundred KB is a large object V8 keeps apart and
  // collects late, and those held the command's peak ~15 MB above 100 MB.
  async function* chunks(): AsyncGenerator<string> {
    let first = true;
    for await (const batch of exportRows(pool, run, options.table, options.batchRows)) {
      count += batch.length;
      for (let i = 0; i < batch.length; i += CHUNK_ROWS) {
        const rows = batch.slice(i, i + CHUNK_ROWS);
        yield options.format === 'csv' ? csvText(columns, json, rows, first) : jsonlText(rows);
        first = false;
      }
    }
    // a table with no row is still a CSV with its header
    if (first && options.format === 'csv') yield csvText(columns, json, [], true);
  }
  const encoded = Readable.from(chunks(), { objectMode: false });
  const stream = options.gzip ? encoded.pipe(createGzip()) : encoded;
  // an error on the way (the database gone mid-export) reaches the output, which then fails: never a file cut short that looks whole
  if (options.gzip) encoded.on('error', (e) => stream.destroy(e));
  const extension = `${options.format}${options.gzip ? '.gz' : ''}`;
  return {
    filename: `${run.id}-${options.table}.${extension}`,
    contentType: options.gzip ? 'application/gzip' : options.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
    stream,
    rowCount: () => count,
  };
}

function jsonlText(rows: readonly object[]): string {
  let text = '';
  for (const row of rows) text += `${JSON.stringify(row)}\n`;
  return text;
}

/** JSON columns are always JSON text in CSV, a JSON string too (quoted), so a reader parses every cell of such a column alike. */
function csvText(columns: string[], json: readonly string[], rows: readonly object[], header: boolean): string {
  const records = rows.map((row) => {
    const out = { ...row } as Record<string, unknown>;
    for (const name of json) if (out[name] !== null) out[name] = JSON.stringify(out[name]);
    return out;
  });
  return stringifySync(records, {
    header,
    columns,
    record_delimiter: '\r\n',
    // csv-stringify quotes a field holding the record delimiter (CRLF) but not a lone LF or CR,
    // which every CSV reader takes as the end of a row: quoted too
    quoted_match: /[\r\n]/,
    cast: {
      boolean: (value) => (value ? 'true' : 'false'),
      number: (value) => String(value),
    },
  });
}
