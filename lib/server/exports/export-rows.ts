/**
 * A run's export rows, read through a database cursor: one REPEATABLE READ, READ ONLY
 * transaction on a connection of its own holds a server-side cursor, and rows are fetched a
 * batch at a time only as the consumer asks for them. Memory stays one batch whatever the run's
 * size, and the file is one consistent snapshot even while the run is still being written.
 *
 * Sealed prompts (`split: test`) are left out in the SQL itself, with the condition every reader
 * of prompts, replies and verdicts uses (db/queries/sealed.ts), and known secrets are redacted
 * from the text as on the pages (db/queries/redact-stored.ts): an export shows what they show.
 */
import type pg from 'pg';
import { EXPORT_TABLES, type ExportRow, type ExportTable } from '@/lib/core';
import { redactStored, storedTextRedactor } from '../db/queries/redact-stored';
import { notSealedInText } from '../db/queries/sealed-sql';

/** The run an export reads: its version (for the sealed prompts) and the run whose replies it grades. */
export interface ExportedRun {
  id: string;
  versionId: string;
  replyRunId: string;
}

/** Rows fetched per round trip: large enough that the cursor's round trips cost little, small enough to stay a few MB. */
export const EXPORT_BATCH_ROWS = 250;

const CELL = 'r.system_index, r.temperature_index, r.attempt';

/**
 * Each table's statement ($1 the run, $2 its version): its select list's names are the table's
 * columns (export-tables.ts), in order. A rescore's replies are its parent run's (it re-grades
 * them, calling no model): its replies table reads them there ($1 is then the parent).
 */
function statement(table: ExportTable): string {
  switch (table) {
    case 'replies':
      return `SELECT r.run_id, r.id AS reply_id, r.prompt_key, r.model_id, ${CELL}, r.temperature, r.content, r.turns, r.tool_calls,
          r.finish_reason, r.refusal, r.prompt_tokens, r.completion_tokens, r.latency_ms, r.cost_usd, r.from_cache, r.served_model, r.system_fingerprint,
          r.error, r.error_kind, r.created_at
        FROM replies r WHERE r.run_id = $1 AND ${notSealedInText('r.prompt_key', '$2')}
        ORDER BY r.prompt_key, r.model_id, ${CELL}`;
    case 'verdicts':
      return `SELECT v.run_id, v.reply_id, v.prompt_key, v.model_id, ${CELL}, v.id AS verdict_id, v.point_index, v.source, v.kind, v.point_text,
          v.fn, v.args, v.weight, v.gate, v.path, v.status::text AS status, v.score, v.method, v.distribution, v.judges, v.spread, v.disagreement,
          v.reasoning, v.detail, v.regex_engine, v.data, r.served_model, r.cost_usd AS reply_cost_usd, v.created_at
        FROM verdicts v JOIN replies r ON r.id = v.reply_id
        WHERE v.run_id = $1 AND ${notSealedInText('v.prompt_key', '$2')}
        ORDER BY v.prompt_key, v.model_id, ${CELL}, v.point_index`;
    case 'attempts':
      return `SELECT a.run_id, a.reply_id, a.prompt_key, a.model_id, ${CELL}, a.score, a.error_count, a.gate_failed, a.no_applicable, a.passed
        FROM attempt_scores a JOIN replies r ON r.id = a.reply_id
        WHERE a.run_id = $1 AND ${notSealedInText('a.prompt_key', '$2')}
        ORDER BY a.prompt_key, a.model_id, ${CELL}`;
  }
}

/** A database row as the table's row: its columns in order, timestamps as ISO strings, nothing missing. */
function shaped<T extends ExportTable>(columns: readonly string[], raw: Record<string, unknown>): ExportRow<T> {
  const row: Record<string, unknown> = {};
  for (const name of columns) {
    const value = raw[name];
    row[name] = value instanceof Date ? value.toISOString() : (value ?? null);
  }
  return row as ExportRow<T>;
}

/**
 * The rows of `table` for the run, batch by batch. Stopping early (a download cancelled, an
 * output that failed) ends the transaction and gives the connection back.
 */
export async function* exportRows<T extends ExportTable>(pool: pg.Pool, run: ExportedRun, table: T, batchRows = EXPORT_BATCH_ROWS): AsyncGenerator<Array<ExportRow<T>>> {
  const columns = Object.keys(EXPORT_TABLES[table].shape);
  const redact = storedTextRedactor();
  const client = await pool.connect();
  let failed: unknown = null;
  let ended = false;
  // The connection can be cut while the consumer is still reading a batch (no query pending): an
  // unheard 'error' would end the process. Kept here, it fails the export at its next fetch.
  const onError = (e: Error) => void (failed ??= e);
  client.on('error', onError);
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    await client.query(`DECLARE export_rows NO SCROLL CURSOR FOR ${statement(table)}`, [table === 'replies' ? run.replyRunId : run.id, run.versionId]);
    // One batch ahead: the database reads the next batch while the consumer encodes this one
    // (CSV encoding is ~40% of an export's time), for one batch more in memory.
    const fetchBatch = (): Promise<pg.QueryResult<Record<string, unknown>>> => {
      const next = client.query<Record<string, unknown>>(`FETCH ${batchRows} FROM export_rows`);
      next.catch(() => undefined); // awaited below; a consumer that stopped early never awaits it
      return next;
    };
    let pending: Promise<pg.QueryResult<Record<string, unknown>>> | null = fetchBatch();
    while (pending) {
      const { rows }: pg.QueryResult<Record<string, unknown>> = await pending;
      pending = rows.length === batchRows ? fetchBatch() : null;
      if (rows.length > 0) yield redactStored(rows.map((raw) => shaped<T>(columns, raw)), redact);
    }
    await client.query('COMMIT');
    ended = true;
  } catch (e) {
    failed = e;
    throw e;
  } finally {
    // a consumer that stopped early leaves the transaction open: end it before the connection goes back
    if (!ended && failed === null) await client.query('ROLLBACK').catch(() => undefined);
    client.off('error', onError);
    client.release(failed instanceof Error ? failed : undefined);
  }
}
