/**
 * Replies written by group commit (db/group-commit.ts): the replies that finished while the
 * previous statement ran are inserted in ONE statement with the runs' counters, so a crash
 * leaves a reply and its count both or neither, and a retried step (ON CONFLICT on the reply's
 * natural key) inserts and counts nothing. Each writer learns whether its own row went in.
 */
import type { GenerationCell } from '@/lib/core';
import { poolOf, type Db } from '../db/client';
import { GroupCommit, perClient } from '../db/group-commit';
import { preparedStatement } from '../db/prepared';

/** One reply row, every value already storable (generate.ts builds it). */
export interface ReplyRow extends Pick<GenerationCell, 'promptKey' | 'modelId' | 'systemIndex' | 'temperatureIndex' | 'temperature' | 'attempt'> {
  id: string;
  runId: string;
  /** JSON text. */
  turns: string;
  content: string;
  /** JSON text or null. */
  toolCalls: string | null;
  finishReason: string | null;
  /** The provider's refusal signal (StoredRefusalSchema, lib/core/evidence/reply-outcome.ts), or null. */
  refusal: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
  latencyMs: number | null;
  costUsd: number | null;
  error: string | null;
  errorKind: string | null;
  fromCache: boolean;
  servedModel: string | null;
  systemFingerprint: string | null;
  /** JSON text or null. */
  providerMeta: string | null;
  /** JSON text or null: an HTTP system's parsed body. */
  structured: string | null;
}

/** Each column with its array type (JSON columns travel as text and are cast once stored). */
const COLUMNS: readonly (readonly [string, string, string?])[] = [
  ['id', 'text'], ['run_id', 'text'], ['prompt_key', 'text'], ['model_id', 'text'], ['system_index', 'int'], ['temperature_index', 'int'],
  ['temperature', 'float8'], ['attempt', 'int'], ['turns', 'text', 'jsonb'], ['content', 'text'], ['tool_calls', 'text', 'jsonb'],
  ['finish_reason', 'text'], ['prompt_tokens', 'int'], ['completion_tokens', 'int'], ['latency_ms', 'int'], ['cost_usd', 'float8'],
  ['error', 'text'], ['error_kind', 'text'], ['from_cache', 'boolean'], ['served_model', 'text'], ['system_fingerprint', 'text'],
  ['provider_meta', 'text', 'jsonb'], ['structured', 'text', 'jsonb'], ['refusal', 'text'],
];
const MAX_ROWS = 500;

function values(r: ReplyRow): unknown[] {
  return [
    r.id, r.runId, r.promptKey, r.modelId, r.systemIndex, r.temperatureIndex, r.temperature, r.attempt, r.turns, r.content, r.toolCalls,
    r.finishReason, r.promptTokens, r.completionTokens, r.latencyMs, r.costUsd, r.error, r.errorKind, r.fromCache, r.servedModel,
    r.systemFingerprint, r.providerMeta, r.structured, r.refusal,
  ];
}

/** One text whatever the batch's size (a column per array): a prepared statement (db/prepared.ts). */
const INSERT_REPLIES = preparedStatement('insert-replies', `WITH ins AS (
     INSERT INTO replies (${COLUMNS.map(([c]) => c).join(', ')}, created_at)
     SELECT ${COLUMNS.map(([c, , cast]) => (cast ? `${c}::${cast}` : c)).join(', ')}, now()
     FROM unnest(${COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')}) AS x(${COLUMNS.map(([c]) => c).join(', ')})
     ON CONFLICT (run_id, prompt_key, model_id, system_index, temperature_index, attempt) DO NOTHING
     RETURNING id, run_id, error
   ), counted AS (
     UPDATE runs r SET done_calls = r.done_calls + x.n, error_calls = r.error_calls + x.e
     FROM (SELECT run_id, count(*)::int AS n, (count(*) FILTER (WHERE error IS NOT NULL))::int AS e FROM ins GROUP BY run_id) x
     WHERE r.id = x.run_id RETURNING 1
   )
   SELECT id FROM ins`);

async function insertReplies(db: Db, rows: ReplyRow[]): Promise<boolean[]> {
  const table = rows.map(values);
  const { rows: inserted } = await poolOf(db).query<{ id: string }>(INSERT_REPLIES(COLUMNS.map((_, c) => table.map((r) => r[c]))));
  const ids = new Set(inserted.map((r) => r.id));
  return rows.map((r) => ids.has(r.id));
}

const writerOf = perClient<Db, GroupCommit<ReplyRow, boolean>>((db) => new GroupCommit((rows) => insertReplies(db, rows), { maxCost: MAX_ROWS }));

/** Inserts the reply unless its cell has one; true when this row is the stored one. */
export function writeReply(db: Db, row: ReplyRow): Promise<boolean> {
  return writerOf(db).submit(row);
}
