/**
 * Two runs of the same blueprint compared: per model, its change over the prompts both runs
 * scored, and each run's own score for it; and the visible cells that moved most.
 *
 * The change is the drift check's figure: the stored check between these two runs when there is
 * one (`drift_checks`), otherwise lib/core `driftDifference` (the function the drift check uses)
 * over the two runs' prompt results, weighted by the prompts' weights. Each run's score is its
 * stored `run_model_summaries.score`, the figure its run page shows. Neither is recomputed here
 * another way: a plain mean of the cells would be a third number for the same change.
 */
import { driftDifference, type ModelPrompts } from '@/lib/core';
import type { Db } from '../client';
import { runPromptResults } from './blueprint-plan';
import { notSealedIn } from './sealed';

export interface DiffModelRow {
  modelId: string;
  /** Prompts both runs scored for the model (sealed ones included). */
  paired: number;
  /** Each run's stored score for the model (its run page's); null when withheld or unscored. */
  olderScore: number | null;
  newerScore: number | null;
  /** Newer − older over the paired prompts, prompt-weighted (driftDifference); > 0: the newer run scored higher. */
  difference: number | null;
  /** The difference is the stored drift check's between these two runs. */
  fromDriftCheck: boolean;
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

/** Scores closer than this count as unchanged (they are means of floats; driftDifference's tie). */
const SAME = 1e-9;

/**
 * The older run's prompt results weighted as the newer run's version weights its prompts: two
 * versions of a blueprint may weight a prompt differently, and a pair needs one weight. Within one
 * version (every drift check) nothing changes.
 */
function reweighted(older: readonly ModelPrompts[], newer: readonly ModelPrompts[]): ModelPrompts[] {
  const weights = new Map(newer.flatMap((m) => m.prompts.map((p) => [p.id, p.weight] as const)));
  return older.map((m) => ({ modelId: m.modelId, prompts: m.prompts.map((p) => ({ ...p, weight: weights.get(p.id) ?? p.weight })) }));
}

/** Each model's change between the runs, and each run's score, for the models both runs have. */
async function diffModels(db: Db, a: { id: string }, b: { id: string }): Promise<DiffModelRow[]> {
  const [before, after, checks, summaries] = await Promise.all([
    runPromptResults(db, a.id),
    runPromptResults(db, b.id),
    db.driftCheck.findMany({ where: { fromRunId: a.id, toRunId: b.id }, select: { modelId: true, paired: true, difference: true } }),
    db.runModelSummary.findMany({ where: { runId: { in: [a.id, b.id] } }, select: { runId: true, modelId: true, score: true } }),
  ]);
  const was = new Map(reweighted(before, after).map((m) => [m.modelId, m.prompts]));
  const stored = new Map(checks.map((c) => [c.modelId, c]));
  const score = (runId: string, modelId: string) => summaries.find((s) => s.runId === runId && s.modelId === modelId)?.score ?? null;
  return after.flatMap((m) => {
    const older = was.get(m.modelId);
    if (!older) return [];
    const d = driftDifference(older, m.prompts);
    const check = stored.get(m.modelId);
    return [
      {
        modelId: m.modelId,
        paired: check?.paired ?? d.paired,
        olderScore: score(a.id, m.modelId),
        newerScore: score(b.id, m.modelId),
        difference: check ? check.difference : d.difference,
        fromDriftCheck: check !== undefined,
        better: d.better,
        worse: d.worse,
        same: d.same,
      },
    ];
  });
}

export async function getRunDiff(db: Db, a: { id: string; versionId: string }, b: { id: string; versionId: string }, limit = 30) {
  const [models, cells, unchanged, onlyA, onlyB] = await Promise.all([
    diffModels(db, a, b),
    // only cells that moved: an unchanged one is counted, not listed as a change of ±0.0
    db.$queryRaw<DiffCellRow[]>`
      SELECT ca.prompt_key AS "promptKey", ca.model_id AS "modelId", ca.score AS "scoreA", cb.score AS "scoreB",
             (cb.score - ca.score)::float8 AS delta
      FROM run_cell_summaries ca
      JOIN run_cell_summaries cb ON cb.run_id = ${b.id} AND cb.prompt_key = ca.prompt_key AND cb.model_id = ca.model_id
      WHERE ca.run_id = ${a.id} AND ca.score IS NOT NULL AND cb.score IS NOT NULL AND abs(cb.score - ca.score) > ${SAME}
        AND ${notSealedIn(a.versionId, 'ca.prompt_key')} AND ${notSealedIn(b.versionId, 'cb.prompt_key')}
      ORDER BY abs(cb.score - ca.score) DESC, ca.prompt_key, ca.model_id
      LIMIT ${limit}`,
    db.$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n
      FROM run_cell_summaries ca
      JOIN run_cell_summaries cb ON cb.run_id = ${b.id} AND cb.prompt_key = ca.prompt_key AND cb.model_id = ca.model_id
      WHERE ca.run_id = ${a.id} AND ca.score IS NOT NULL AND cb.score IS NOT NULL AND abs(cb.score - ca.score) <= ${SAME}
        AND ${notSealedIn(a.versionId, 'ca.prompt_key')} AND ${notSealedIn(b.versionId, 'cb.prompt_key')}`,
    db.$queryRaw<{ n: number }[]>`
      SELECT count(DISTINCT ca.model_id)::int AS n FROM run_model_summaries ca
      WHERE ca.run_id = ${a.id} AND NOT EXISTS (SELECT 1 FROM run_model_summaries cb WHERE cb.run_id = ${b.id} AND cb.model_id = ca.model_id)`,
    db.$queryRaw<{ n: number }[]>`
      SELECT count(DISTINCT cb.model_id)::int AS n FROM run_model_summaries cb
      WHERE cb.run_id = ${b.id} AND NOT EXISTS (SELECT 1 FROM run_model_summaries ca WHERE ca.run_id = ${a.id} AND ca.model_id = cb.model_id)`,
  ]);
  /** `unchangedCells`: visible prompt × model cells scored the same in both runs (not listed). */
  return { models, cells, unchangedCells: unchanged[0]?.n ?? 0, modelsOnlyInA: onlyA[0]?.n ?? 0, modelsOnlyInB: onlyB[0]?.n ?? 0 };
}
export type RunDiff = Awaited<ReturnType<typeof getRunDiff>>;
