/**
 * The heatmap cells (prompt × model) kept up to date as replies are graded, group-committed
 * (db/group-commit.ts): the cells touched while the previous batch ran are recomputed from
 * their attempt scores with one read and one upsert, instead of two statements per reply.
 * A cell is always recomputed from all its stored attempts (never incremented), so a batch
 * repeated after a crash writes the same row, and the batches of one process run in order,
 * so a later batch never sees fewer attempts than an earlier one wrote.
 */
import { randomUUID } from 'node:crypto';
import { poolOf, type Db } from '../client';
import { GroupCommit, perClient } from '../group-commit';
import { PassCurveSchema, promptScore } from '@/lib/core';
import { preparedStatement } from '../prepared';
import { passCurveColumn } from '../stored-interval';

const CELL_ATTEMPTS = preparedStatement('cell-attempts', `SELECT a.run_id, a.prompt_key, a.model_id, a.score, a.error_count
     FROM attempt_scores a JOIN unnest($1::text[], $2::text[], $3::text[]) AS c(run_id, prompt_key, model_id)
       ON a.run_id = c.run_id AND a.prompt_key = c.prompt_key AND a.model_id = c.model_id
     ORDER BY a.run_id, a.prompt_key, a.model_id, a.reply_id`);

const CELL_UPSERT = preparedStatement('cell-upsert', `INSERT INTO run_cell_summaries (id, run_id, prompt_key, model_id, score, pass_at_k, pass_hat_k, attempts, error_count, scored_attempts, passes, pass_curve)
     SELECT id, run_id, prompt_key, model_id, score, pass_at_k, pass_hat_k, attempts, error_count, scored_attempts, passes, pass_curve::jsonb
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::float8[], $6::float8[], $7::float8[], $8::int[], $9::int[], $10::int[], $11::int[], $12::text[])
       AS x(id, run_id, prompt_key, model_id, score, pass_at_k, pass_hat_k, attempts, error_count, scored_attempts, passes, pass_curve)
     ON CONFLICT (run_id, prompt_key, model_id) DO UPDATE SET score = EXCLUDED.score, pass_at_k = EXCLUDED.pass_at_k,
       pass_hat_k = EXCLUDED.pass_hat_k, attempts = EXCLUDED.attempts, error_count = EXCLUDED.error_count,
       scored_attempts = EXCLUDED.scored_attempts, passes = EXCLUDED.passes, pass_curve = EXCLUDED.pass_curve`);

/**
 * One heatmap cell from its attempts: the mean, and with a pass threshold the passes and the
 * unbiased pass@k / pass^k for k = 1..scored attempts (`passAtK`/`passHatK` are those at k = n).
 */
export function cellData(attempts: readonly { score: number | null; errorCount: number }[], passThreshold: number | null) {
  const p = promptScore(attempts.map((a) => ({ score: a.score, errors: a.errorCount })), { passThreshold });
  return {
    score: p.score,
    passAtK: p.passAtK,
    passHatK: p.passHatK,
    attempts: attempts.length,
    errorCount: p.errors,
    scoredAttempts: p.scored,
    passes: p.passes,
    passCurve: p.passCurve,
  };
}

/** The pass curve as JSON text for a raw insert (`updateCells` below), through the same schema as `cellRow`. */
export function cellCurveJson(d: ReturnType<typeof cellData>): string | null {
  return d.passCurve === null ? null : JSON.stringify(PassCurveSchema.parse(d.passCurve));
}

/** A cell as its table row (the JSON column through its schema). */
export function cellRow(d: ReturnType<typeof cellData>) {
  return { ...d, passCurve: passCurveColumn(d.passCurve, PassCurveSchema) };
}

export interface CellRef {
  runId: string;
  promptKey: string;
  modelId: string;
  passThreshold: number | null;
}

const MAX_CELLS = 500;

async function updateCells(db: Db, refs: CellRef[]): Promise<void[]> {
  const pool = poolOf(db);
  const cells = new Map<string, CellRef>();
  for (const c of refs) cells.set(JSON.stringify([c.runId, c.promptKey, c.modelId]), c);
  const list = [...cells.values()];
  const { rows } = await pool.query<{ run_id: string; prompt_key: string; model_id: string; score: number | null; error_count: number }>(CELL_ATTEMPTS([list.map((c) => c.runId), list.map((c) => c.promptKey), list.map((c) => c.modelId)]));
  const attempts = new Map<string, { score: number | null; errorCount: number }[]>();
  for (const r of rows) {
    const k = JSON.stringify([r.run_id, r.prompt_key, r.model_id]);
    const a = attempts.get(k) ?? [];
    a.push({ score: r.score, errorCount: r.error_count });
    attempts.set(k, a);
  }
  const out = list.map((c) => {
    const d = cellData(attempts.get(JSON.stringify([c.runId, c.promptKey, c.modelId])) ?? [], c.passThreshold);
    return { c, d, curve: cellCurveJson(d) };
  });
  await pool.query(CELL_UPSERT([
      out.map(() => randomUUID()),
      out.map((o) => o.c.runId),
      out.map((o) => o.c.promptKey),
      out.map((o) => o.c.modelId),
      out.map((o) => o.d.score),
      out.map((o) => o.d.passAtK),
      out.map((o) => o.d.passHatK),
      out.map((o) => o.d.attempts),
      out.map((o) => o.d.errorCount),
      out.map((o) => o.d.scoredAttempts),
      out.map((o) => o.d.passes),
      out.map((o) => o.curve),
    ]));
  return refs.map(() => undefined);
}

const writerOf = perClient<Db, GroupCommit<CellRef, void>>((db) => new GroupCommit((refs) => updateCells(db, refs), { maxCost: MAX_CELLS }));

/** Recomputes one heatmap cell from its stored attempts (shares a statement with the cells updated at the same time). */
export function refreshCell(db: Db, cell: CellRef): Promise<void> {
  return writerOf(db).submit(cell);
}
