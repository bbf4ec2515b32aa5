/**
 * The sample-size planner's input and answer for a blueprint (the blueprint page's planner and
 * `assay plan`): the latest completed run that is not a pull request's, its prompt scores per
 * model (heatmap cells, weighted by the version's prompt weights), and `planBlueprint` over them.
 * Sealed prompts count: they are scored like any other, and only numbers leave this module.
 */
import { planBlueprint, type BlueprintPlan, type ModelPrompts, type PlanOptions, type PromptResult } from '@/lib/core';
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
    byModel.set(c.modelId, [...(byModel.get(c.modelId) ?? []), { id: c.promptKey, weight, score: c.score, errors: c.errorCount }]);
  }
  return [...byModel].map(([modelId, prompts]) => ({ modelId, prompts }));
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
  if (!run) return { blueprintId, title: blueprint.title, run: null, plan: null };
  return { blueprintId, title: blueprint.title, run, plan: planBlueprint(await runPromptResults(db, run.runId), options) };
}
