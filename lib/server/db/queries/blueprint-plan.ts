/**
 * The sample-size planner's input and answer for a blueprint (the blueprint page's planner and
 * `assay plan`): the latest completed run that is not a pull request's, its prompt scores per
 * model (heatmap cells, weighted by the version's prompt weights), and `planBlueprint` over them.
 * Sealed prompts count: they are scored like any other, and only numbers leave this module.
 */
import { BlueprintPlanSchema, parseStoredOrNull, planBlueprint, type BlueprintPlan, type ModelPrompts, type PlanOptions, type PromptResult } from '@/lib/core';
import type { Db } from '../client';

export interface PlannedRun {
  runId: string;
  finishedAt: Date | null;
}

export interface BlueprintPlanResult {
  blueprintId: string;
  title: string;
  /** Null when the blueprint has no completed run yet. */
  run: PlannedRun | null;
  plan: BlueprintPlan | null;
  /**
   * The run's MDE as stored when it was summarised (`runMde`): the figure pages show, the one the
   * drift checks of runs after it compare with. `plan.mde` is the same at the default α and power;
   * with other options (`assay plan --alpha`) only `plan` follows them.
   */
  runMde: number | null;
}

/** Each model's prompt results in one run, from its heatmap cells (one row per prompt × model). */
export async function runPromptResults(db: Db, runId: string): Promise<ModelPrompts[]> {
  const run = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { versionId: true } });
  const [cells, prompts] = await Promise.all([
    db.runCellSummary.findMany({ where: { runId }, select: { promptKey: true, modelId: true, score: true, errorCount: true }, orderBy: [{ modelId: 'asc' }, { promptKey: 'asc' }] }),
    db.versionPrompt.findMany({ where: { versionId: run.versionId }, select: { promptKey: true, weight: true } }),
  ]);
  const weights = new Map(prompts.map((p) => [p.promptKey, p.weight]));
  const byModel = new Map<string, PromptResult[]>();
  for (const c of cells) {
    const weight = weights.get(c.promptKey);
    if (weight === undefined) continue; // a rescore's source may hold prompts its version dropped
    const prompts = byModel.get(c.modelId) ?? byModel.set(c.modelId, []).get(c.modelId)!;
    prompts.push({ id: c.promptKey, weight, score: c.score, errors: c.errorCount });
  }
  return [...byModel].map(([modelId, prompts]) => ({ modelId, prompts }));
}

/**
 * Runs' prompt results already read, by run id, for work that reads the same runs more than once:
 * finishing a run summarises it, checks its drift and stores its comparison with the run before,
 * and each reads every cell of the run (100,000 rows at 1,000,000 verdicts). Only for runs whose
 * cells no longer change within that work.
 */
export type PromptResultsCache = Map<string, Promise<ModelPrompts[]>>;

/** `runPromptResults`, read once per run for the holder of `cache`. */
export function cachedPromptResults(db: Db, runId: string, cache?: PromptResultsCache): Promise<ModelPrompts[]> {
  if (!cache) return runPromptResults(db, runId);
  const known = cache.get(runId);
  if (known) return known;
  const read = runPromptResults(db, runId);
  cache.set(runId, read);
  return read;
}

/**
 * A run's minimum detectable effect: `planBlueprint` over its prompt results at the default α
 * and power, stored on the run when it is summarised (summarise.ts), so the planner and every
 * drift check from the run read one figure. A run summarised before the column existed has none
 * stored: it is computed here with the same function from the same cells (`results`, when the
 * caller has them loaded already).
 */
export async function runMde(db: Db, runId: string, results?: readonly ModelPrompts[]): Promise<number | null> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { mde: true } });
  if (run?.mde !== null && run?.mde !== undefined) return run.mde;
  return planBlueprint(results ?? (await runPromptResults(db, runId))).mde;
}

/** The latest completed, public run of a blueprint (what the planner plans from). */
export async function latestPlannableRun(db: Db, blueprintId: string): Promise<PlannedRun | null> {
  return db.run.findFirst({
    where: { blueprintId, status: 'completed', trigger: { not: 'pull_request' } },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    select: { id: true, finishedAt: true },
  }).then((r) => (r ? { runId: r.id, finishedAt: r.finishedAt } : null));
}

/** Null when there is no such blueprint. */
export async function getBlueprintPlan(db: Db, blueprintId: string, options: PlanOptions = {}): Promise<BlueprintPlanResult | null> {
  const blueprint = await db.blueprint.findUnique({ where: { id: blueprintId }, select: { id: true, title: true } });
  if (!blueprint) return null;
  const run = await latestPlannableRun(db, blueprintId);
  if (!run) return { blueprintId, title: blueprint.title, run: null, plan: null, runMde: null };
  // at the default α and power, the answer stored when the run was summarised (every pair of models, once)
  if (Object.keys(options).length === 0) {
    const stored = await db.run.findUnique({ where: { id: run.runId }, select: { planner: true, mde: true } });
    const plan = parseStoredOrNull(BlueprintPlanSchema, stored?.planner, `runs.planner of run ${run.runId}`);
    if (plan) return { blueprintId, title: blueprint.title, run, plan, runMde: stored?.mde ?? null };
  }
  const results = await runPromptResults(db, run.runId);
  return { blueprintId, title: blueprint.title, run, plan: planBlueprint(results, options), runMde: await runMde(db, run.runId, results) };
}
