/**
 * A run's summaries, built from its heatmap cells (prompt × model), never from its
 * verdicts: per model a prompt-weighted mean with a 95% interval over prompts chosen from the
 * data (lib/core model-interval.ts: Wilson, cluster-robust normal or BCa; seeded by the run id,
 * so a summary is reproducible) that records its method, n attempts and clusters, the
 * unbiased pass@k / pass^k for every k where the blueprint sets `pass_threshold`, the verdict
 * and error counts, cost and median latency, and its coverage (judged and deterministic
 * verdicts planned vs. with a result: a score resting on too little of either is withheld,
 * lib/core coverage.ts); the run's minimum detectable effect (lib/core planner.ts, stored on the
 * run for the planner and the drift checks); then, for a completed run, the blueprint's
 * leaderboard rows of the models that scored.
 */
import { xoroshiro128plus } from 'pure-rand';
import { z } from 'zod';
import {
  addToCoverage,
  BlueprintPlanSchema,
  BlueprintSchema,
  EMPTY_COVERAGE,
  hashSeed,
  modelPassCurve,
  ModelPassCurveSchema,
  modelScore,
  planBlueprint,
  withheldReason,
  replySourceOf,
  StoredJudgeMethodsSchema,
  StoredRunGroupsSchema,
  StoredRunJudgeReliabilitySchema,
  StoredUnpricedModelsSchema,
  StoredJudgeStatsSchema,
  type Coverage,
} from '@/lib/core';
import type { Db } from '../../db/client';
import { computeJudgeStats, computeRunJudgeReliability } from '../../db/queries/judge-reliability';
import { computeRunJudgeMethods } from '../../db/queries/run-judge-methods';
import { computeRunGroups } from '../../db/queries/run-groups';
import { cachedPromptResults, type PromptResultsCache } from '../../db/queries/blueprint-plan';
import { retryOnUniqueViolation } from '../../db/unique-retry';
import { exactJson } from '../../db/exact-json';
import { intervalColumns, passCurveColumn, storedModelPassCurve, storedPassCurve } from '../../db/stored-interval';
import { cellData, cellRow } from '../../db/commands/cell-writer';
import { writePromptSummaries } from '../../db/commands/prompt-summaries';
import { findUnpricedOfStoredRun } from '../../db/queries/run-unpriced';
import { storeRunDiff } from '../../db/queries/run-diff';

/** The blueprint's `pass_threshold` from a version's stored normalised form (null: none, or a version from before the field). */
export function passThresholdOf(normalized: unknown): number | null {
  const r = BlueprintSchema.pick({ pass_threshold: true }).safeParse(normalized);
  return r.success ? r.data.pass_threshold : null;
}

/**
 * Rebuilds every heatmap cell from the attempt scores. The run pipeline keeps cells up to date
 * incrementally (lib/server/runs/grading/judge.ts `updateCell`); this is for imports and seeded data.
 */
export async function rebuildCells(db: Db, runId: string): Promise<void> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { version: { select: { normalized: true } } } });
  const threshold = passThresholdOf(run?.version.normalized);
  const attempts = await db.attemptScore.findMany({ where: { runId }, select: { promptKey: true, modelId: true, score: true, errorCount: true } });
  const groups = new Map<string, typeof attempts>();
  for (const a of attempts) {
    const key = `${a.promptKey}\u0000${a.modelId}`;
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(a);
  }
  const rows = [...groups.values()].map((g) => ({ runId, promptKey: g[0]!.promptKey, modelId: g[0]!.modelId, ...cellRow(cellData(g, threshold)) }));
  await db.$transaction([db.runCellSummary.deleteMany({ where: { runId } }), db.runCellSummary.createMany({ data: rows })]);
}

/**
 * `publish`: the run is complete, so its scores become the blueprint's leaderboard rows
 * (default: when the run's status is `completed`).
 */
/** Each model's judge statistics in a run, by model id: written in one statement (`jsonb_each`). */
const JudgeStatsByModelSchema = z.record(z.string(), StoredJudgeStatsSchema);

/**
 * Whether a finished run's scores may reach the public leaderboards: not a pull request's run
 * (unmerged content) nor an author's draft run (seen only by its author and maintainers).
 */
export function publishesResults(run: { trigger: string; draft: boolean }): boolean {
  return run.trigger !== 'pull_request' && !run.draft;
}

export async function summariseRun(db: Db, runId: string, opts: { rebuildCells?: boolean; publish?: boolean; cache?: PromptResultsCache } = {}): Promise<void> {
  if (opts.rebuildCells) await rebuildCells(db, runId);
  const run = await db.run.findUnique({
    where: { id: runId },
    select: { id: true, status: true, blueprintId: true, parentRunId: true, trigger: true, draft: true, createdAt: true, models: true, judges: true, config: true, version: { select: { normalized: true, prompts: { select: { promptKey: true, weight: true, points: true } } } } },
  });
  if (!run) throw new Error(`no run with id ${runId}`);
  const weights = new Map(run.version.prompts.map((p) => [p.promptKey, p.weight]));
  const replyRun = replySourceOf(run);
  const threshold = passThresholdOf(run.version.normalized);

  const cells = await db.runCellSummary.findMany({
    where: { runId },
    select: { promptKey: true, modelId: true, score: true, errorCount: true, attempts: true, scoredAttempts: true, passes: true, passCurve: true },
    // The bootstrap draws prompts by position: a fixed order makes the seeded interval the same on every summary, however the rows were last written.
    orderBy: [{ modelId: 'asc' }, { promptKey: 'asc' }],
  });
  const verdictCounts = await db.verdict.groupBy({ by: ['modelId'], where: { runId }, _count: { _all: true } });
  const replyStats = await db.$queryRaw<{ model_id: string; replies: number; cost: number | null; p50: number | null }[]>`
    SELECT model_id, count(*)::int AS replies, sum(cost_usd)::float8 AS cost,
           percentile_disc(0.5) WITHIN GROUP (ORDER BY latency_ms)::int AS p50
    FROM replies WHERE run_id = ${replyRun} GROUP BY model_id`;
  const verdictsBy = new Map(verdictCounts.map((v) => [v.modelId, v._count._all]));
  const coverage = await coverageByModel(db, runId, replyRun, run.version.prompts);
  const statsBy = new Map(replyStats.map((r) => [r.model_id, r]));

  const byModel = new Map<string, typeof cells>();
  for (const c of cells) (byModel.get(c.modelId) ?? byModel.set(c.modelId, []).get(c.modelId)!).push(c);
  const rng = xoroshiro128plus(hashSeed(runId));
  for (const [modelId, modelCells] of byModel) {
    const m = modelScore(
      // a cell written before scored attempts were counted has a score from at least one
      modelCells.map((c) => ({ id: c.promptKey, weight: weights.get(c.promptKey) ?? 1, score: c.score, errors: c.errorCount, attempts: Math.max(1, c.scoredAttempts) })),
      rng,
    );
    const passCurve =
      threshold === null
        ? null
        : modelPassCurve(
            modelCells
              .filter((c) => c.passes !== null && storedPassCurve(c.passCurve) !== null)
              .map((c) => ({ weight: weights.get(c.promptKey) ?? 1, n: c.scoredAttempts, passes: c.passes as number })),
          );
    const stats = statsBy.get(modelId);
    const cov = coverage.get(modelId) ?? { ...EMPTY_COVERAGE, failedReplies: 0 };
    const replies = stats?.replies ?? 0;
    // Unscored is not zero, and too little evidence is not a score: say why there is none.
    const withheld = replies > 0 && cov.failedReplies === replies ? `every reply failed (${replies})` : withheldReason(cov);
    const data = {
      score: withheld ? null : m.score,
      ...intervalColumns(withheld ? null : m.interval),
      attemptCount: m.attempts,
      passThreshold: threshold,
      passCurve: passCurveColumn(withheld || passCurve === null || passCurve.length === 0 ? null : passCurve, ModelPassCurveSchema),
      promptCount: m.prompts,
      replyCount: stats?.replies ?? 0,
      verdictCount: verdictsBy.get(modelId) ?? 0,
      errorCount: m.errors,
      costUsd: stats?.cost ?? 0,
      latencyMsP50: stats?.p50 ?? null,
      judgedVerdicts: cov.judgedVerdicts,
      judgedScored: cov.judgedScored,
      deterministicVerdicts: cov.deterministicVerdicts,
      deterministicScored: cov.deterministicScored,
      withheldReason: withheld,
    };
    await db.runModelSummary.upsert({ where: { runId_modelId: { runId, modelId } }, create: { runId, modelId, ...data }, update: data });
  }

  // Each model's judge statistics, once, in one statement: the leaderboards pool α over their runs
  // from these sums (judge-reliability.ts), which must be the ones a page would add up from the verdicts.
  const judgeStats = await computeJudgeStats(db, [...byModel.keys()].map((modelId) => ({ runId, modelId })));
  const statsByModel: z.input<typeof JudgeStatsByModelSchema> = {};
  for (const modelId of byModel.keys()) {
    const stats = judgeStats.get(`${runId}\u0000${modelId}`);
    if (stats) statsByModel[modelId] = stats;
  }
  await db.$executeRaw`
    UPDATE run_model_summaries s SET judge_stats = v.stats
    FROM jsonb_each(${exactJson(JudgeStatsByModelSchema, statsByModel)}) AS v(model_id, stats)
    WHERE s.run_id = ${runId} AND s.model_id = v.model_id`;

  // The run's MDE, once: the planner and the drift checks from this run read it (blueprint-plan.ts `runMde`).
  // Its judge reliability, judge methods and group scores, once: every page that shows them reads them, none goes through the verdicts again.
  const judgeReliability = StoredRunJudgeReliabilitySchema.parse(await computeRunJudgeReliability(db, runId));
  const judgeMethods = StoredJudgeMethodsSchema.parse(await computeRunJudgeMethods(db, runId));
  const groups = StoredRunGroupsSchema.parse((await computeRunGroups(db, runId)).models);
  const plan = BlueprintPlanSchema.parse(planBlueprint(await cachedPromptResults(db, runId, opts.cache)));
  // The planner's answer (every pair of models) beside its MDE, through one writer: Prisma's Float
  // and Json inputs both keep 16 significant digits (0.31255683141538076 is stored
  // 0.3125568314153808), so the plan's MDE and `mde` (which the drift checks copy) stay one value.
  // the models it could not price, once: every run page's header says their cost is unknown
  const unpricedModels = StoredUnpricedModelsSchema.parse(await findUnpricedOfStoredRun(db, run));
  await db.run.update({ where: { id: runId }, data: { mde: plan.mde, planner: plan, judgeReliability, judgeMethods, groups, unpricedModels } });
  // its prompts' rows, once: the heatmap and points pages page through them (db/commands/prompt-summaries.ts)
  await writePromptSummaries(db, runId);

  if (opts.publish ?? (run.status === 'completed' && publishesResults(run))) {
    // A blueprint's leaderboard entry per model is its latest run in which that model scored:
    // a model with no score here (every reply failed, or withheld) keeps its earlier entry, and
    // a run finishing late never replaces the entry of a run requested after it.
    const summaries = await db.runModelSummary.findMany({ where: { runId, score: { not: null } } });
    const current = await db.blueprintModelSummary.findMany({ where: { blueprintId: run.blueprintId }, select: { modelId: true, runId: true } });
    const newer = new Set(
      (await db.run.findMany({ where: { id: { in: current.map((c) => c.runId) }, createdAt: { gt: run.createdAt } }, select: { id: true } })).map((r) => r.id),
    );
    const keep = new Set(current.filter((c) => newer.has(c.runId)).map((c) => c.modelId));
    for (const s of summaries) {
      if (keep.has(s.modelId)) continue;
      const data = {
        runId,
        score: s.score,
        ciLow: s.ciLow,
        ciHigh: s.ciHigh,
        ciMethod: s.ciMethod,
        ciLevel: s.ciLevel,
        ciN: s.ciN,
        ciClusters: s.ciClusters,
        ciResamples: s.ciResamples,
        attemptCount: s.attemptCount,
        passThreshold: s.passThreshold,
        passCurve: passCurveColumn(storedModelPassCurve(s.passCurve), ModelPassCurveSchema),
        errorCount: s.errorCount,
        judgedVerdicts: s.judgedVerdicts,
        judgedScored: s.judgedScored,
        deterministicVerdicts: s.deterministicVerdicts,
        deterministicScored: s.deterministicScored,
      };
      // two runs of one blueprint finishing at once both create a model's first entry
      await retryOnUniqueViolation(() =>
        db.blueprintModelSummary.upsert({
          where: { blueprintId_modelId: { blueprintId: run.blueprintId, modelId: s.modelId } },
          create: { blueprintId: run.blueprintId, modelId: s.modelId, ...data },
          update: data,
        }),
      );
    }
  }
}

/**
 * A finished run compared with the completed run of its blueprint before it (the pair its history
 * and drift check follow; other pairs are stored when first read, db/queries/run-diff.ts), once.
 */
export async function storeDiffWithPrevious(db: Db, runId: string, cache?: PromptResultsCache): Promise<void> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { id: true, blueprintId: true, versionId: true, createdAt: true } });
  if (!run) return;
  const previous = await db.run.findFirst({
    where: { blueprintId: run.blueprintId, status: 'completed', createdAt: { lt: run.createdAt }, promptSummaries: { some: {} } },
    orderBy: { createdAt: 'desc' },
    select: { id: true, versionId: true },
  });
  if (previous) await storeRunDiff(db, previous, run, cache);
}

/**
 * Per model: the verdicts this run made, by class and whether they got a result, plus the
 * points a failed reply never had graded (planned, without a result).
 */
async function coverageByModel(
  db: Db,
  runId: string,
  replyRun: string,
  prompts: readonly { promptKey: string; points: unknown }[],
): Promise<Map<string, Coverage & { failedReplies: number }>> {
  const out = new Map<string, Coverage & { failedReplies: number }>();
  const get = (modelId: string) => out.get(modelId) ?? { ...EMPTY_COVERAGE, failedReplies: 0 };
  // a criterion's class depends on its kind (a judged kind asks a judge), stored as the verdict's fn
  const byKind = await db.$queryRaw<{ model_id: string; kind: string; criterion: string | null; scored: boolean; n: number }[]>`
    SELECT model_id, kind, CASE WHEN kind = 'criterion' THEN fn END AS criterion, (status <> 'error') AS scored, count(*)::int AS n
    FROM verdicts WHERE run_id = ${runId} GROUP BY model_id, kind, CASE WHEN kind = 'criterion' THEN fn END, (status <> 'error')`;
  for (const r of byKind) out.set(r.model_id, { ...addToCoverage(get(r.model_id), r.kind, r.scored, r.n, r.criterion), failedReplies: get(r.model_id).failedReplies });
  const kinds = new Map(
    prompts.map((p) => [p.promptKey, Array.isArray(p.points) ? (p.points as { kind?: string; criterion?: string }[]).map((pt) => ({ kind: pt.kind ?? 'text', criterion: pt.criterion ?? null })) : []]),
  );
  const failed = await db.reply.groupBy({ by: ['modelId', 'promptKey'], where: { runId: replyRun, error: { not: null } }, _count: { _all: true } });
  for (const f of failed) {
    const pointKinds = kinds.get(f.promptKey);
    if (!pointKinds) continue; // a reply of a prompt this version does not grade (a rescore with fewer prompts)
    let c: Coverage & { failedReplies: number } = { ...get(f.modelId), failedReplies: get(f.modelId).failedReplies + f._count._all };
    for (const k of pointKinds) c = { ...addToCoverage(c, k.kind, false, f._count._all, k.criterion), failedReplies: c.failedReplies };
    out.set(f.modelId, c);
  }
  return out;
}
