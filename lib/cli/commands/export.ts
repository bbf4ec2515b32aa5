/**
 * `assay export RUN_ID`: a stored run's replies, verdicts or attempt scores as JSONL or CSV
 * (docs/exports.md has every column), or the run as Inspect eval logs, one per model
 * (docs/inspect-export.md). Streamed from the database: the memory it takes does not grow with
 * the run. A file is written beside its destination and renamed into place once whole, so an
 * export that fails leaves no file that looks complete.
 */
import { createWriteStream } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { ExportFormatSchema, ExportTableSchema } from '@/lib/core';
import { openRunExport } from '@/lib/server/exports/run-export';
import { streamingHeap } from '@/lib/server/lean-heap';
import { withCommandPool } from '../with-command-pool';
import { parseCommandArgs, usageError } from './usage';

const USAGE = `usage: assay export RUN_ID [--format jsonl|csv|inspect] [--table verdicts|replies|attempts] [--gzip] [--out FILE|-]

Writes a stored run's records (sealed prompts left out):
  --format jsonl    one JSON object a line (the default)
  --format csv      RFC 4180 CSV with a header row; JSON columns as JSON text
  --format inspect  Inspect eval logs, one per model, into the folder --out names
  --table           which records: verdicts (the default; one row per point graded, with its
                    judges, distribution, method and the reply's cost and served model),
                    replies, or attempts (each reply's score)
  --gzip            gzip the file (jsonl and csv)
  --out             the file to write (- or none: standard output); for inspect, a folder
The columns of each table: docs/exports.md.`;

export async function exportCommand(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs('export', USAGE, argv, {
    allowPositionals: true,
    options: { format: { type: 'string' }, table: { type: 'string' }, gzip: { type: 'boolean' }, out: { type: 'string' } },
  });
  if (typeof parsed === 'number') return parsed;
  const { positionals, values } = parsed;
  if (positionals.length !== 1) return usageError('export', 'name one run id', USAGE);
  const runId = positionals[0]!;
  const format = values.format ?? 'jsonl';
  if (format === 'inspect') {
    if (!values.out || values.out === '-') return usageError('export', '--format inspect writes one file per model: --out names the folder', USAGE);
    if (values.table || values.gzip) return usageError('export', '--format inspect takes neither --table nor --gzip (a log holds the whole run)', USAGE);
    const outDir = values.out;
    // the Inspect writer reads through the ORM (lib/server/exports/inspect/read-run.ts)
    const { withRunDatabase } = await import('../with-run-database');
    return withRunDatabase('export', async (db) => {
      const { writeInspectLogs } = await import('@/lib/server/exports/inspect/write-inspect-logs');
      const files = await writeInspectLogs(db, runId, outDir);
      for (const file of files) console.error(`assay export: ${file}`);
      return 0;
    });
  }
  const checkedFormat = ExportFormatSchema.safeParse(format);
  if (!checkedFormat.success) return usageError('export', `--format must be jsonl, csv or inspect, not "${format}"`, USAGE);
  const table = ExportTableSchema.safeParse(values.table ?? 'verdicts');
  if (!table.success) return usageError('export', `--table must be verdicts, replies or attempts, not "${String(values.table)}"`, USAGE);
  const out = values.out && values.out !== '-' ? values.out : null;
  streamingHeap();

  return withCommandPool('export', async (pool) => {
    const started = performance.now();
    const file = await openRunExport(pool, runId, { table: table.data, format: checkedFormat.data, gzip: values.gzip === true });
    if (!out) {
      await pipeline(file.stream, process.stdout);
    } else {
      const partial = `${out}.partial-${process.pid}`;
      try {
        await pipeline(file.stream, createWriteStream(partial));
        await rename(partial, out);
      } catch (e) {
        await rm(partial, { force: true });
        throw e;
      }
    }
    const size = out ? ` (${((await stat(out)).size / 1e6).toFixed(1)} MB)` : '';
    console.error(`assay export: ${file.rowCount().toLocaleString('en')} rows of ${table.data} → ${out ?? 'standard output'}${size} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return 0;
  });
}
