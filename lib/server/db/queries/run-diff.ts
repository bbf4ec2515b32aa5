/**
 * Two runs of the same blueprint compared: per model, its change over the prompts both runs
 * scored, and each run's own score for it; and the visible cells that moved most.
 *
 * The change is the drift check's figure: the stored check between these two runs when there is
 * one (`drift_checks`), otherwise lib/core `driftDifference` (the function the drift check uses)
 * over the two runs' prompt results, weighted by the prompts' weights. Each run's score is its
 * stored `run_model_summaries.score`, the figure its run page shows. Neither is recomputed here
 * another way: a plain mean of the cells would be a third number for the same change.
 *
 * Computing it reads every cell of both runs, so it is done once per pair of finished runs and
 * stored (`run_diffs`): when a run finishes, against the run of its blueprint before it (the pair
 * the drift check and the run's history follow), and for any other pair the first time a reader
 * asks; every later read is one row. A run still going is compared afresh on each request.
 */
import { driftDifference, parseStored, StoredRunDiffSchema, type DiffCellRow, type DiffModelRow, type ModelPrompts, type StoredRunDiff } from '@/lib/core';
import type { Db } from '../client';
import { exactJson } from '../exact-json';
import { cachedPromptResults, type PromptResultsCache } from './blueprint-plan';
import { hasPromptSummaries } from './run-heatmap';
import { notSealedIn } from './sealed';

export type { DiffCellRow, DiffModelRow };

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
async function diffModels(db: Db, a: { id: string }, b: { id: string }, cache?: PromptResultsCache): Promise<DiffModelRow[]> {
  const [before, after, checks, summaries] = await Promise.all([
    cachedPromptResults(db, a.id, cache),
    cachedPromptResults(db, b.id, cache),
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

type DiffRun = { id: string; versionId: string };

/** The comparison computed from both runs' cells (`limit`: the moved cells listed; `cache`: runs' prompt results already read). */
export async function computeRunDiff(db: Db, a: DiffRun, b: DiffRun, limit = 30, cache?: PromptResultsCache): Promise<StoredRunDiff> {
  const [models, cells, unchanged, onlyA, onlyB] = await Promise.all([
    diffModels(db, a, b, cache),
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
  return { models, cells, unchangedCells: unchanged[0]?.n ?? 0, modelsOnlyInA: onlyA[0]?.n ?? 0, modelsOnlyInB: onlyB[0]?.n ?? 0 };
}

/** Computes the comparison of two finished runs (older first) and stores it, replacing an earlier one. */
export async function storeRunDiff(db: Db, older: DiffRun, newer: DiffRun, cache?: PromptResultsCache): Promise<StoredRunDiff> {
  const diff = StoredRunDiffSchema.parse(await computeRunDiff(db, older, newer, undefined, cache));
  await db.$executeRaw`
    INSERT INTO run_diffs (older_run_id, newer_run_id, diff) VALUES (${older.id}, ${newer.id}, ${exactJson(StoredRunDiffSchema, diff)})
    ON CONFLICT (older_run_id, newer_run_id) DO UPDATE SET diff = EXCLUDED.diff, created_at = now()`;
  return diff;
}

/** Two runs (older first) compared: the stored comparison, else computed, and stored when both runs are finished. */
export async function getRunDiff(db: Db, older: DiffRun, newer: DiffRun): Promise<StoredRunDiff> {
  const row = await db.runDiff.findUnique({ where: { olderRunId_newerRunId: { olderRunId: older.id, newerRunId: newer.id } }, select: { diff: true } });
  if (row) return parseStored(StoredRunDiffSchema, row.diff, `run_diffs (${older.id}, ${newer.id}).diff`);
  const [olderDone, newerDone] = await Promise.all([hasPromptSummaries(db, older.id), hasPromptSummaries(db, newer.id)]);
  return olderDone && newerDone ? storeRunDiff(db, older, newer) : computeRunDiff(db, older, newer);
}
export type RunDiff = StoredRunDiff;
