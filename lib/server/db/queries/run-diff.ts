/**
 * Two runs of the same blueprint compared: per model, the paired change over the prompts
 * both runs scored (computed in SQL over the cell summaries, so nothing run-sized is loaded),
 * and the visible cells that moved most.
 */
import type { Db } from '../client';
import { notSealedIn } from './sealed';

export interface DiffModelRow {
  modelId: string;
  paired: number;
  meanA: number | null;
  meanB: number | null;
  /** Mean of B − A over paired prompts (unweighted); > 0 means the newer run scored higher. */
  meanDelta: number | null;
  better: number;
  worse: number;
  same: number;
}

export interface DiffCellRow {
  promptKey: string;
  modelId: string;
  scoreA: number | null;
  scoreB: number | null;
  delta: number;
}

/** Scores closer than this count as unchanged (they are means of floats). */
const SAME = 1e-9;

export async function getRunDiff(db: Db, a: { id: string; versionId: string }, b: { id: string; versionId: string }, limit = 30) {
  const [models, cells, onlyA, onlyB] = await Promise.all([
    db.$queryRaw<DiffModelRow[]>`
      SELECT ca.model_id AS "modelId", count(*)::int AS paired,
             avg(ca.score)::float8 AS "meanA", avg(cb.score)::float8 AS "meanB", avg(cb.score - ca.score)::float8 AS "meanDelta",
             (count(*) FILTER (WHERE cb.score - ca.score > ${SAME}))::int AS better,
             (count(*) FILTER (WHERE cb.score - ca.score < ${-SAME}))::int AS worse,
             (count(*) FILTER (WHERE abs(cb.score - ca.score) <= ${SAME}))::int AS same
      FROM run_cell_summaries ca
      JOIN run_cell_summaries cb ON cb.run_id = ${b.id} AND cb.prompt_key = ca.prompt_key AND cb.model_id = ca.model_id
      WHERE ca.run_id = ${a.id} AND ca.score IS NOT NULL AND cb.score IS NOT NULL
      GROUP BY ca.model_id`,
    db.$queryRaw<DiffCellRow[]>`
      SELECT ca.prompt_key AS "promptKey", ca.model_id AS "modelId", ca.score AS "scoreA", cb.score AS "scoreB",
             (cb.score - ca.score)::float8 AS delta
      FROM run_cell_summaries ca
      JOIN run_cell_summaries cb ON cb.run_id = ${b.id} AND cb.prompt_key = ca.prompt_key AND cb.model_id = ca.model_id
      WHERE ca.run_id = ${a.id} AND ca.score IS NOT NULL AND cb.score IS NOT NULL
        AND ${notSealedIn(a.versionId, 'ca.prompt_key')} AND ${notSealedIn(b.versionId, 'cb.prompt_key')}
      ORDER BY abs(cb.score - ca.score) DESC, ca.prompt_key, ca.model_id
      LIMIT ${limit}`,
    db.$queryRaw<{ n: number }[]>`
      SELECT count(DISTINCT ca.model_id)::int AS n FROM run_model_summaries ca
      WHERE ca.run_id = ${a.id} AND NOT EXISTS (SELECT 1 FROM run_model_summaries cb WHERE cb.run_id = ${b.id} AND cb.model_id = ca.model_id)`,
    db.$queryRaw<{ n: number }[]>`
      SELECT count(DISTINCT cb.model_id)::int AS n FROM run_model_summaries cb
      WHERE cb.run_id = ${b.id} AND NOT EXISTS (SELECT 1 FROM run_model_summaries ca WHERE ca.run_id = ${a.id} AND ca.model_id = cb.model_id)`,
  ]);
  return { models, cells, modelsOnlyInA: onlyA[0]?.n ?? 0, modelsOnlyInB: onlyB[0]?.n ?? 0 };
}
export type RunDiff = Awaited<ReturnType<typeof getRunDiff>>;
