/**
 * Group commit for verdicts (SPEC §6 "writes are batched"): concurrent steps that finish
 * grading a reply hand their rows here; whatever accumulated while the previous statement was
 * running is written in ONE statement (verdicts, attempt scores and the runs' counters), and
 * each caller resumes only once its rows are committed. So batching costs no durability: a
 * step never reports done before its verdicts are stored, and under load many replies share
 * one round trip. ON CONFLICT keeps a retried step from inserting or counting anything twice.
 */
import { randomUUID } from 'node:crypto';
import { Prisma } from '@/generated/prisma/client';
import { poolOf, type Db } from '../db/client';
import { storable } from '../db/storable-text';

export interface AttemptRow {
  score: number | null;
  errorCount: number;
  gateFailed: boolean;
  noApplicable: boolean;
}

export interface Grading {
  runId: string;
  reply: { id: string; promptKey: string; modelId: string };
  rows: Prisma.VerdictCreateManyInput[];
  attempt: AttemptRow;
}

interface Pending extends Grading {
  resolve: () => void;
  reject: (e: unknown) => void;
}

/** PostgreSQL allows 65,535 bind parameters per statement; stay well below. */
const MAX_PARAMS = 30_000;
const VERDICT_PARAMS = 25;
const ATTEMPT_PARAMS = 9;

const json = (v: unknown) => (v === null || v === undefined || v === Prisma.DbNull ? null : JSON.stringify(v));

/** `($1, $2, …)` groups for `rows` of `width` parameters each, starting after `offset`. */
function placeholders(rows: number, width: number, offset: number, casts: Record<number, string> = {}): string {
  const groups: string[] = [];
  for (let r = 0; r < rows; r++) {
    const cols: string[] = [];
    for (let c = 0; c < width; c++) cols.push(`$${offset + r * width + c + 1}${casts[c] ?? ''}`);
    groups.push(`(${cols.join(', ')})`);
  }
  return groups.join(', ');
}

const VERDICT_CASTS = { 6: '::verdict_status', 11: '::jsonb', 16: '::jsonb', 20: '::jsonb' };

/** One statement through the client's pool (bulk path: see lib/server/db/client.ts). */
export async function writeGradings(db: Db, items: readonly Grading[]): Promise<void> {
  // Judge reasoning, explanations and arguments may carry NUL or lone surrogates: stored escaped.
  const rows = items.flatMap((g) => g.rows).map((r) => storable(r));
  const params: unknown[] = [];
  for (const r of rows) {
    params.push(
      randomUUID(), r.runId, r.replyId, r.promptKey, r.modelId, r.pointIndex, r.status, r.score ?? null, r.kind, r.pointText,
      r.fn ?? null, json(r.args), r.weight, r.gate ?? false, r.path ?? null, r.source ?? 'should', json(r.distribution),
      r.method ?? null, r.detail ?? null, r.reasoning ?? null, json(r.judges), r.spread ?? null, r.alpha ?? null, r.disagreement ?? false,
      r.regexEngine ?? null,
    );
  }
  const verdicts = rows.length
    ? `INSERT INTO verdicts (id, run_id, reply_id, prompt_key, model_id, point_index, status, score, kind, point_text, fn, args, weight, gate,
         path, source, distribution, method, detail, reasoning, judges, spread, alpha, disagreement, regex_engine)
       VALUES ${placeholders(rows.length, VERDICT_PARAMS, 0, VERDICT_CASTS)}
       ON CONFLICT (run_id, reply_id, point_index) DO NOTHING RETURNING run_id, status`
    : `SELECT NULL::text AS run_id, NULL::verdict_status AS status WHERE false`;
  const offset = params.length;
  for (const g of items) {
    params.push(randomUUID(), g.runId, g.reply.id, g.reply.promptKey, g.reply.modelId, g.attempt.score, g.attempt.errorCount, g.attempt.gateFailed, g.attempt.noApplicable);
  }
  // Data-modifying CTEs always run to completion, whether or not the final UPDATE reads them.
  await poolOf(db).query(
    `WITH v AS (${verdicts}),
     a AS (
       INSERT INTO attempt_scores (id, run_id, reply_id, prompt_key, model_id, score, error_count, gate_failed, no_applicable)
       VALUES ${placeholders(items.length, ATTEMPT_PARAMS, offset)} ON CONFLICT (run_id, reply_id) DO NOTHING RETURNING 1
     )
     UPDATE runs r SET done_verdicts = r.done_verdicts + x.n, error_verdicts = r.error_verdicts + x.e
     FROM (SELECT run_id, count(*)::int AS n, (count(*) FILTER (WHERE status = 'error'))::int AS e FROM v GROUP BY run_id) x
     WHERE r.id = x.run_id`,
    params,
  );
}

export class GradingWriter {
  private queue: Pending[] = [];
  private running = false;

  constructor(private readonly db: Db) {}

  write(g: Grading): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ ...g, resolve, reject });
      if (!this.running) void this.drain();
    });
  }

  private take(): Pending[] {
    const batch: Pending[] = [];
    let params = 0;
    while (this.queue.length > 0) {
      const next = this.queue[0]!;
      const cost = next.rows.length * VERDICT_PARAMS + ATTEMPT_PARAMS;
      if (batch.length > 0 && params + cost > MAX_PARAMS) break;
      batch.push(this.queue.shift()!);
      params += cost;
    }
    return batch;
  }

  private async drain(): Promise<void> {
    this.running = true;
    try {
      for (let batch = this.take(); batch.length > 0; batch = this.take()) {
        try {
          await writeGradings(this.db, batch);
          for (const p of batch) p.resolve();
        } catch (e) {
          if (batch.length === 1) {
            batch[0]!.reject(e);
            continue;
          }
          // One bad reply must not fail its neighbours: write each alone, each gets its own outcome.
          for (const p of batch) await writeGradings(this.db, [p]).then(p.resolve, p.reject);
        }
      }
    } finally {
      this.running = false;
    }
  }
}

const writers = new WeakMap<Db, GradingWriter>();

/** The process's writer for a database client (one per client, so batches share its pool). */
export function gradingWriter(db: Db): GradingWriter {
  let w = writers.get(db);
  if (!w) {
    w = new GradingWriter(db);
    writers.set(db, w);
  }
  return w;
}
