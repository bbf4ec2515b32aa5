/**
 * Replies written by group commit (db/group-commit.ts): the replies that finished while the
 * previous statement ran are inserted in ONE statement with the runs' counters, so a crash
 * leaves a reply and its count both or neither, and a retried step (ON CONFLICT on the reply's
 * natural key) inserts and counts nothing. Each writer learns whether its own row went in.
 */
import type { GenerationCell } from '@/lib/core';
import { poolOf, type Db } from '../client';
import { GroupCommit, perClient } from '../group-commit';
import { preparedStatement } from '../prepared';

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

/**
 * Each column once: its name, its array type, the row's value, and the cast from text for JSON
 * columns (they travel as text and are cast once stored). The statement and the arrays are both
 * made from this list, so a column cannot be written under another's name.
 */
const COLUMNS: readonly { name: string; type: string; value: (r: ReplyRow) => unknown; cast?: 'jsonb' }[] = [
  { name: 'id', type: 'text', value: (r) => r.id },
  { name: 'run_id', type: 'text', value: (r) => r.runId },
  { name: 'prompt_key', type: 'text', value: (r) => r.promptKey },
  { name: 'model_id', type: 'text', value: (r) => r.modelId },
  { name: 'system_index', type: 'int', value: (r) => r.systemIndex },
  { name: 'temperature_index', type: 'int', value: (r) => r.temperatureIndex },
  { name: 'temperature', type: 'float8', value: (r) => r.temperature },
  { name: 'attempt', type: 'int', value: (r) => r.attempt },
  { name: 'turns', type: 'text', value: (r) => r.turns, cast: 'jsonb' },
  { name: 'content', type: 'text', value: (r) => r.content },
  { name: 'tool_calls', type: 'text', value: (r) => r.toolCalls, cast: 'jsonb' },
  { name: 'finish_reason', type: 'text', value: (r) => r.finishReason },
  { name: 'prompt_tokens', type: 'int', value: (r) => r.promptTokens },
  { name: 'completion_tokens', type: 'int', value: (r) => r.completionTokens },
  { name: 'latency_ms', type: 'int', value: (r) => r.latencyMs },
  { name: 'cost_usd', type: 'float8', value: (r) => r.costUsd },
  { name: 'error', type: 'text', value: (r) => r.error },
  { name: 'error_kind', type: 'text', value: (r) => r.errorKind },
  { name: 'from_cache', type: 'boolean', value: (r) => r.fromCache },
  { name: 'served_model', type: 'text', value: (r) => r.servedModel },
  { name: 'system_fingerprint', type: 'text', value: (r) => r.systemFingerprint },
  { name: 'provider_meta', type: 'text', value: (r) => r.providerMeta, cast: 'jsonb' },
  { name: 'structured', type: 'text', value: (r) => r.structured, cast: 'jsonb' },
  { name: 'refusal', type: 'text', value: (r) => r.refusal },
];
const MAX_ROWS = 500;

/** One text whatever the batch's size (a column per array): a prepared statement (db/prepared.ts). */
const INSERT_REPLIES = preparedStatement('insert-replies', `WITH ins AS (
     INSERT INTO replies (${COLUMNS.map((c) => c.name).join(', ')}, created_at)
     SELECT ${COLUMNS.map((c) => (c.cast ? `${c.name}::${c.cast}` : c.name)).join(', ')}, now()
     FROM unnest(${COLUMNS.map((c, i) => `$${i + 1}::${c.type}[]`).join(', ')}) AS x(${COLUMNS.map((c) => c.name).join(', ')})
     ON CONFLICT (run_id, prompt_key, model_id, system_index, temperature_index, attempt) DO NOTHING
     RETURNING id, run_id, error
   ), counted AS (
     UPDATE runs r SET done_calls = r.done_calls + x.n, error_calls = r.error_calls + x.e
     FROM (SELECT run_id, count(*)::int AS n, (count(*) FILTER (WHERE error IS NOT NULL))::int AS e FROM ins GROUP BY run_id) x
     WHERE r.id = x.run_id RETURNING 1
   )
   SELECT id FROM ins`);

async function insertReplies(db: Db, rows: ReplyRow[]): Promise<boolean[]> {
  const { rows: inserted } = await poolOf(db).query<{ id: string }>(INSERT_REPLIES(COLUMNS.map((c) => rows.map(c.value))));
  const ids = new Set(inserted.map((r) => r.id));
  return rows.map((r) => ids.has(r.id));
}

const writerOf = perClient<Db, GroupCommit<ReplyRow, boolean>>((db) => new GroupCommit((rows) => insertReplies(db, rows), { maxCost: MAX_ROWS }));

/** Inserts the reply unless its cell has one; true when this row is the stored one. */
export function writeReply(db: Db, row: ReplyRow): Promise<boolean> {
  return writerOf(db).submit(row);
}
