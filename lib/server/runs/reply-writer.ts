/**
 * Replies written by group commit (db/group-commit.ts): the replies that finished while the
 * previous statement ran are inserted in ONE statement with the runs' counters, so a crash
 * leaves a reply and its count both or neither, and a retried step (ON CONFLICT on the reply's
 * natural key) inserts and counts nothing. Each writer learns whether its own row went in.
 */
import type { GenerationCell } from '@/lib/core';
import { poolOf, type Db } from '../db/client';
import { GroupCommit, perClient } from '../db/group-commit';

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
  /** JSON text or null: an HTTP system's reply body. */
  structured: string | null;
}

const COLUMNS = [
  'id', 'run_id', 'prompt_key', 'model_id', 'system_index', 'temperature_index', 'temperature', 'attempt', 'turns', 'content', 'tool_calls',
  'finish_reason', 'prompt_tokens', 'completion_tokens', 'latency_ms', 'cost_usd', 'error', 'error_kind', 'from_cache', 'served_model',
  'system_fingerprint', 'provider_meta', 'structured',
] as const;
const CASTS: Record<number, string> = { 8: '::jsonb', 10: '::jsonb', 21: '::jsonb', 22: '::jsonb' };
/** 23 parameters a row: 500 rows stay far below PostgreSQL's 65,535. */
const MAX_ROWS = 500;

function values(r: ReplyRow): unknown[] {
  return [
    r.id, r.runId, r.promptKey, r.modelId, r.systemIndex, r.temperatureIndex, r.temperature, r.attempt, r.turns, r.content, r.toolCalls,
    r.finishReason, r.promptTokens, r.completionTokens, r.latencyMs, r.costUsd, r.error, r.errorKind, r.fromCache, r.servedModel,
    r.systemFingerprint, r.providerMeta, r.structured,
  ];
}

async function insertReplies(db: Db, rows: ReplyRow[]): Promise<boolean[]> {
  const params: unknown[] = [];
  const groups = rows.map((r) => {
    const start = params.length;
    params.push(...values(r));
    return `(${COLUMNS.map((_, c) => `$${start + c + 1}${CASTS[c] ?? ''}`).join(', ')}, now())`;
  });
  const { rows: inserted } = await poolOf(db).query<{ id: string }>(
    `WITH ins AS (
       INSERT INTO replies (${COLUMNS.join(', ')}, created_at) VALUES ${groups.join(', ')}
       ON CONFLICT (run_id, prompt_key, model_id, system_index, temperature_index, attempt) DO NOTHING
       RETURNING id, run_id, error
     ), counted AS (
       UPDATE runs r SET done_calls = r.done_calls + x.n, error_calls = r.error_calls + x.e
       FROM (SELECT run_id, count(*)::int AS n, (count(*) FILTER (WHERE error IS NOT NULL))::int AS e FROM ins GROUP BY run_id) x
       WHERE r.id = x.run_id RETURNING 1
     )
     SELECT id FROM ins`,
    params,
  );
  const ids = new Set(inserted.map((r) => r.id));
  return rows.map((r) => ids.has(r.id));
}

const writerOf = perClient<Db, GroupCommit<ReplyRow, boolean>>((db) => new GroupCommit((rows) => insertReplies(db, rows), { maxCost: MAX_ROWS }));

/** Inserts the reply unless its cell has one; true when this row is the stored one. */
export function writeReply(db: Db, row: ReplyRow): Promise<boolean> {
  return writerOf(db).submit(row);
}
