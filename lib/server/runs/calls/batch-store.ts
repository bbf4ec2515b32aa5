/**
 * The database side of batch mode: which batches a run submitted (provider_batches, with the
 * custom_id → call key of every line), and the lines it imported (batch_results, one row per
 * run and call key). The database is the journal here as everywhere: a resumed run reads the
 * batches it already submitted and polls them instead of submitting again, and an import is
 * one statement whose unique key makes a repeat (after a kill, a retried step) store and
 * settle nothing twice.
 */
import { z } from 'zod';
import type { ChatResponse } from '../../providers';
import type { Db } from '../../db/client';
import { storable, storableText } from '../../db/storable-text';
import { BudgetExceededError, LeaseLostError } from '../engine/errors';
import type { RunContext } from '../engine/run-context';

/** What a batch line stands for: the call's cache key, the run's model id and the provider-native model. */
export const BatchLinesSchema = z.record(z.string(), z.object({ key: z.string(), modelId: z.string(), model: z.string() }));
export type BatchLines = z.infer<typeof BatchLinesSchema>;

export interface ImportedLine {
  response: ChatResponse | null;
  error: string | null;
  costUsd: number | null;
}

export interface OpenBatch {
  id: string;
  provider: string;
  externalId: string;
  polls: number;
  lines: BatchLines;
}

/** The lines this run imported, by call key (succeeded and failed alike). */
export async function importedLines(db: Db, runId: string): Promise<Map<string, ImportedLine>> {
  const rows = await db.batchResult.findMany({ where: { runId }, select: { key: true, response: true, error: true, costUsd: true } });
  return new Map(rows.map((r) => [r.key, { response: (r.response as ChatResponse | null) ?? null, error: r.error, costUsd: r.costUsd }]));
}

/** The run's batches that were submitted and are not imported yet. */
export async function openBatches(db: Db, runId: string): Promise<OpenBatch[]> {
  const rows = await db.providerBatch.findMany({ where: { runId, state: 'submitted' }, orderBy: { submittedAt: 'asc' }, select: { id: true, provider: true, externalId: true, polls: true, lines: true } });
  return rows.map((r) => ({ ...r, lines: BatchLinesSchema.parse(r.lines) }));
}

/**
 * Reserves up to `n` calls of the run's budget for a batch about to be submitted, with the
 * lease check in the same statement (as the gateway's per-call reservation). A batch line is
 * a call made: it is counted in provider_calls at once (a lease takeover would otherwise count
 * a long-lived reservation again); its cost is settled when it is imported.
 * Returns how many lines may be submitted (fewer when the budget has fewer calls left).
 */
export async function reserveBatchCalls(db: Db, run: RunContext, n: number): Promise<number> {
  const holder = run.leaseHolder ?? null;
  const [r] = await db.$queryRaw<{ granted: number | null; leased: boolean }[]>`
    WITH cur AS (
      SELECT id, GREATEST(0, LEAST(${n}::int, COALESCE(max_calls - provider_calls - reserved_calls, ${n}::int)))::int AS granted FROM runs
      WHERE id = ${run.runId} AND (${holder}::text IS NULL OR lease_holder = ${holder}::text)
        AND (max_cost_usd IS NULL OR cost_usd < max_cost_usd)
      FOR NO KEY UPDATE -- as the gateway's reservation (call-ledger.ts): inserting rows of the run does not block it
    ), u AS (
      UPDATE runs SET provider_calls = runs.provider_calls + cur.granted FROM cur WHERE runs.id = cur.id RETURNING cur.granted
    )
    SELECT (SELECT granted FROM u) AS granted,
           (${holder}::text IS NULL OR EXISTS (SELECT 1 FROM runs WHERE id = ${run.runId} AND lease_holder = ${holder}::text)) AS leased`;
  if (!r?.leased) throw new LeaseLostError(run.runId);
  const granted = r.granted ?? 0;
  if (granted === 0) throw new BudgetExceededError(run.runId, 'the run’s budget (max calls or max cost) is spent');
  return granted;
}

/** Gives back a reservation whose batch was never accepted by the provider. */
export async function releaseBatchCalls(db: Db, runId: string, n: number): Promise<void> {
  await db.$executeRaw`UPDATE runs SET provider_calls = GREATEST(provider_calls - ${n}::int, 0) WHERE id = ${runId}`;
}

export async function recordBatch(db: Db, runId: string, b: { provider: string; externalId: string; status: string; lines: BatchLines }): Promise<void> {
  await db.providerBatch.create({
    data: { runId, provider: b.provider, externalId: b.externalId, state: 'submitted', status: storableText(b.status), lines: b.lines, lineCount: Object.keys(b.lines).length },
  });
}

export async function recordPoll(db: Db, batchId: string, status: string): Promise<void> {
  await db.providerBatch.update({ where: { id: batchId }, data: { status: storableText(status), polls: { increment: 1 } } });
}

export interface LineToImport {
  key: string;
  customId: string;
  modelId: string;
  response: ChatResponse | null;
  error: string | null;
  errorKind: string | null;
  costUsd: number | null;
  discountUsd: number | null;
}

/**
 * Imports an ended batch, exactly once: its lines into batch_results (a line already there,
 * from an import a kill interrupted or another worker's, is skipped), the succeeded ones into
 * the response cache, the cost of the lines inserted here into the run, and the batch marked
 * imported: all in one statement, so a crash leaves either all of it or none.
 * `batchId` may name no provider batch (lines that could not be submitted).
 */
export async function importLines(db: Db, runId: string, batchId: string | null, lines: readonly LineToImport[]): Promise<number> {
  const rows = JSON.stringify(
    storable(
      lines.map((l) => ({
        key: l.key,
        custom_id: l.customId,
        model_id: l.modelId,
        response: l.response,
        error: l.error === null ? null : l.error.slice(0, 2000),
        error_kind: l.errorKind,
        cost_usd: l.costUsd,
        discount_usd: l.discountUsd,
      })),
    ),
  );
  const batch = batchId ?? '';
  const [r] = await db.$queryRaw<{ imported: number }[]>`
    WITH rows AS (
      SELECT * FROM jsonb_to_recordset(${rows}::jsonb)
        AS x(key text, custom_id text, model_id text, response jsonb, error text, error_kind text, cost_usd float8, discount_usd float8)
    ), ins AS (
      INSERT INTO batch_results (run_id, key, batch_id, custom_id, response, error, error_kind, cost_usd, discount_usd, created_at)
      SELECT ${runId}, key, ${batch}, custom_id, response, error, error_kind, cost_usd, discount_usd, now() FROM rows
      ON CONFLICT (run_id, key) DO NOTHING
      RETURNING key, cost_usd
    ), cached AS (
      INSERT INTO response_cache (key, model_id, response, created_at)
      SELECT rows.key, rows.model_id, rows.response, now() FROM rows JOIN ins ON ins.key = rows.key WHERE rows.response IS NOT NULL
      ON CONFLICT (key) DO UPDATE SET response = EXCLUDED.response, created_at = EXCLUDED.created_at
      RETURNING 1
    ), settled AS (
      UPDATE runs SET cost_usd = cost_usd + COALESCE((SELECT sum(cost_usd) FROM ins), 0) WHERE id = ${runId} RETURNING 1
    ), marked AS (
      UPDATE provider_batches SET state = 'imported', imported_at = now() WHERE id = ${batch} AND state = 'submitted' RETURNING 1
    )
    SELECT (SELECT count(*) FROM ins)::int AS imported, (SELECT count(*) FROM cached)::int AS c, (SELECT count(*) FROM settled)::int AS s, (SELECT count(*) FROM marked)::int AS m`;
  return r?.imported ?? 0;
}
