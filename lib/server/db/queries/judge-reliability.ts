/**
 * The reliability data of a run's judged verdicts (one row per verdict that a panel saw, with
 * each judge's value) and its summaries at the levels the pages show α at: the whole run (the
 * blueprint page's panel summary reads its latest completed run), each model in it, and each
 * model over the runs a leaderboard ranks it on. Not one prompt or one cell: over so few
 * verdicts α is not defined (lib/core/judging/alpha.ts), and the prompt page shows each
 * verdict's answers and spread instead. Only the judge, approach and value of each
 * stored record are read out of `verdicts.judges` (not the reasoning), and parsed with the
 * writer's schema narrowed to those fields.
 */
import { Prisma } from '@/generated/prisma/client';
import {
  addAlphaStats,
  EMPTY_ALPHA_STATS,
  judgeKey,
  judgeReliability,
  krippendorffAlpha,
  parseStoredOrNull,
  StoredJudgeRecordSchema,
  StoredJudgeStatsSchema,
  StoredRunJudgeReliabilitySchema,
  type AlphaStats,
  type JudgeAlpha,
  type JudgedVerdict,
  type JudgeReliability,
  type StoredJudgeStats,
} from '@/lib/core';
import { z } from 'zod';
import type { Db } from '../client';

const AssessmentsSchema = z.array(StoredJudgeRecordSchema.pick({ judge: true, approach: true, score: true }));

interface Row {
  modelId: string;
  promptKey: string;
  disagreement: boolean;
  judges: unknown;
}

export interface ReliabilityFilter {
  modelId?: string;
}

/**
 * The judged verdicts of one run, narrowed by model. Sealed prompts count in the run's and the
 * model's figures, as in their scores, but no prompt key leaves this module.
 */
export async function getJudgedVerdicts(db: Db, runId: string, filter: ReliabilityFilter = {}): Promise<JudgedVerdict[]> {
  const byModel = filter.modelId === undefined ? Prisma.empty : Prisma.sql`AND v.model_id = ${filter.modelId}`;
  const rows = await db.$queryRaw<Row[]>`
    SELECT v.model_id AS "modelId", v.prompt_key AS "promptKey", v.disagreement,
           (SELECT jsonb_agg(jsonb_build_object('judge', e -> 'judge', 'approach', e -> 'approach', 'score', e -> 'score') ORDER BY o)
              FROM jsonb_array_elements(v.judges) WITH ORDINALITY AS x(e, o)) AS judges
    FROM verdicts v
    WHERE v.run_id = ${runId} AND v.judges IS NOT NULL AND jsonb_typeof(v.judges) = 'array' ${byModel}
    ORDER BY v.model_id, v.prompt_key, v.reply_id, v.point_index`;
  return rows.map((r) => {
    const parsed = AssessmentsSchema.safeParse(r.judges);
    if (!parsed.success) throw new Error(`verdicts.judges of run ${runId} (${r.modelId}, prompt ${r.promptKey}) does not match the stored judge record: ${parsed.error.message}`);
    return { modelId: r.modelId, disagreement: r.disagreement, judges: parsed.data };
  });
}

export interface RunJudgeReliability {
  run: JudgeReliability;
  /** Per graded model, in model id order; a model with no judged verdict is absent. */
  byModel: { modelId: string; reliability: JudgeReliability }[];
}

function groupByModel(verdicts: readonly JudgedVerdict[]): RunJudgeReliability['byModel'] {
  const groups = new Map<string, JudgedVerdict[]>();
  for (const v of verdicts) {
    const list = groups.get(v.modelId) ?? [];
    list.push(v);
    groups.set(v.modelId, list);
  }
  return [...groups.keys()].sort().map((modelId) => ({ modelId, reliability: judgeReliability(groups.get(modelId)!) }));
}

/** Computed from the run's verdicts (the run as a whole and each model in it): what summarising a finished run stores. */
export async function computeRunJudgeReliability(db: Db, runId: string): Promise<RunJudgeReliability> {
  const verdicts = await getJudgedVerdicts(db, runId);
  return { run: judgeReliability(verdicts), byModel: groupByModel(verdicts) };
}

/** As stored when the run was summarised (runs.judge_reliability), or null: not finished yet. */
async function storedRunJudgeReliability(db: Db, runId: string): Promise<RunJudgeReliability | null> {
  const row = await db.run.findUnique({ where: { id: runId }, select: { judgeReliability: true } });
  return parseStoredOrNull(StoredRunJudgeReliabilitySchema, row?.judgeReliability, `runs.judge_reliability of run ${runId}`);
}

/**
 * The run as a whole and each model in it: a finished run's as stored when it was summarised
 * (one read, whatever the run's size), a run still going computed from its verdicts so far.
 */
export async function getRunJudgeReliability(db: Db, runId: string): Promise<RunJudgeReliability> {
  return (await storedRunJudgeReliability(db, runId)) ?? computeRunJudgeReliability(db, runId);
}

/** One model in a run, from the same stored figures (a model with no judged verdict: the empty level). */
export async function getModelJudgeReliability(db: Db, runId: string, modelId: string): Promise<JudgeReliability> {
  const stored = await storedRunJudgeReliability(db, runId);
  if (stored) return stored.byModel.find((m) => m.modelId === modelId)?.reliability ?? judgeReliability([]);
  return judgeReliability(await getJudgedVerdicts(db, runId, { modelId }));
}

/** A model's judge reliability over many runs, from sums (no verdict loaded): the leaderboard's. */
export interface PooledModelReliability {
  modelId: string;
  verdicts: number;
  pairable: number;
  disagreements: number;
  /** Pooled α over every judged verdict of the model's runs (krippendorffAlpha of the summed statistics), with its units and pairs. */
  alpha: JudgeAlpha;
  stats: AlphaStats;
  judges: { id: string; model: string; approach: string | null; assessments: number }[];
}

type RunModel = { runId: string; modelId: string };
const pairKey = (p: RunModel) => `${p.runId}\u0000${p.modelId}`;
const EMPTY_STATS: StoredJudgeStats = { verdicts: 0, pairable: 0, disagreements: 0, n: 0, pairs: 0, sum: 0, sumSq: 0, within: 0, judges: [] };

/**
 * Each (run, model) pair's judge statistics summed in SQL over its judged verdicts (the core's
 * judge-reliability.ts says why the sums are exact): what summarising stores per model
 * (`run_model_summaries.judge_stats`). The judge values are read as the numbers the writer
 * stored through StoredJudgeRecordSchema ([0, 1] or null). A pair without judged verdicts has
 * the empty statistics.
 */
export async function computeJudgeStats(db: Db, pairs: readonly RunModel[]): Promise<Map<string, StoredJudgeStats>> {
  const out = new Map(pairs.map((p) => [pairKey(p), { ...EMPTY_STATS, judges: [] as StoredJudgeStats['judges'] }]));
  if (pairs.length === 0) return out;
  const from = Prisma.sql`
    FROM verdicts v
    JOIN (SELECT DISTINCT * FROM unnest(${pairs.map((p) => p.runId)}::text[], ${pairs.map((p) => p.modelId)}::text[]) AS t(run_id, model_id)) p ON p.run_id = v.run_id AND p.model_id = v.model_id`;
  const judged = Prisma.sql`v.judges IS NOT NULL AND jsonb_typeof(v.judges) = 'array'`;
  const [sums, judges] = await Promise.all([
    db.$queryRaw<({ runId: string; modelId: string } & Omit<StoredJudgeStats, 'judges'>)[]>`
      WITH u AS (
        SELECT v.run_id, v.model_id, v.disagreement, s.m, s.sx, s.sxx
        ${from}
        CROSS JOIN LATERAL (
          SELECT count(x)::int AS m, coalesce(sum(x), 0)::float8 AS sx, coalesce(sum(x * x), 0)::float8 AS sxx
          FROM (SELECT (e ->> 'score')::float8 AS x FROM jsonb_array_elements(v.judges) e WHERE jsonb_typeof(e -> 'score') = 'number') q
        ) s
        WHERE ${judged}
      )
      SELECT run_id AS "runId", model_id AS "modelId", count(*)::int AS verdicts,
             (count(*) FILTER (WHERE m >= 2))::int AS pairable,
             (count(*) FILTER (WHERE m >= 2 AND disagreement))::int AS disagreements,
             coalesce(sum(m) FILTER (WHERE m >= 2), 0)::int AS n,
             coalesce(sum(m * (m - 1) / 2) FILTER (WHERE m >= 2), 0)::int AS pairs,
             coalesce(sum(sx) FILTER (WHERE m >= 2), 0)::float8 AS sum,
             coalesce(sum(sxx) FILTER (WHERE m >= 2), 0)::float8 AS "sumSq",
             coalesce(sum(2 * (m * sxx - sx * sx) / (m - 1)) FILTER (WHERE m >= 2), 0)::float8 AS within
      FROM u GROUP BY run_id, model_id`,
    db.$queryRaw<{ runId: string; modelId: string; judge: string; approach: string | null; assessments: number }[]>`
      SELECT v.run_id AS "runId", v.model_id AS "modelId", e ->> 'judge' AS judge, e ->> 'approach' AS approach,
             (count(*) FILTER (WHERE jsonb_typeof(e -> 'score') = 'number'))::int AS assessments
      ${from}
      CROSS JOIN LATERAL jsonb_array_elements(v.judges) e
      WHERE ${judged}
      GROUP BY 1, 2, 3, 4`,
  ]);
  for (const { runId, modelId, ...s } of sums) out.set(pairKey({ runId, modelId }), { ...s, judges: [] });
  for (const j of judges) out.get(pairKey(j))?.judges.push({ judge: j.judge, approach: j.approach, assessments: j.assessments });
  return out;
}

/**
 * Per model, over the (run, model) pairs a leaderboard ranks it on: each pair's statistics as
 * stored when its run was summarised (or summed now for a pair stored before they were), added
 * up over the pairs, so the home page never loads the verdicts. The db test holds the result to
 * `judgeReliability` over the parsed records.
 */
export async function getPooledJudgeReliability(db: Db, pairs: readonly RunModel[]): Promise<PooledModelReliability[]> {
  if (pairs.length === 0) return [];
  const unique = [...new Map(pairs.map((p) => [pairKey(p), { runId: p.runId, modelId: p.modelId }])).values()];
  const rows = await db.$queryRaw<{ runId: string; modelId: string; judgeStats: unknown }[]>`
    SELECT s.run_id AS "runId", s.model_id AS "modelId", s.judge_stats AS "judgeStats"
    FROM run_model_summaries s
    JOIN unnest(${unique.map((p) => p.runId)}::text[], ${unique.map((p) => p.modelId)}::text[]) AS t(run_id, model_id) ON t.run_id = s.run_id AND t.model_id = s.model_id`;
  const stats = new Map<string, StoredJudgeStats>();
  for (const r of rows) {
    const stored = parseStoredOrNull(StoredJudgeStatsSchema, r.judgeStats, `run_model_summaries (${r.runId}, ${r.modelId}).judge_stats`);
    if (stored) stats.set(pairKey(r), stored);
  }
  const missing = unique.filter((p) => !stats.has(pairKey(p)));
  if (missing.length > 0) for (const [k, s] of await computeJudgeStats(db, missing)) stats.set(k, s);
  // summed in one order (by run id) whatever order the pairs came in: the same figure on every page
  const byModel = new Map<string, StoredJudgeStats[]>();
  for (const p of [...unique].sort((a, b) => (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0))) {
    const s = stats.get(pairKey(p));
    if (s && s.verdicts > 0) (byModel.get(p.modelId) ?? byModel.set(p.modelId, []).get(p.modelId)!).push(s);
  }
  return [...byModel.keys()].sort().map((modelId) => {
    const list = byModel.get(modelId)!;
    const alphaStats = list.map((s): AlphaStats => ({ units: s.pairable, n: s.n, pairs: s.pairs, sum: s.sum, sumSq: s.sumSq, within: s.within })).reduce(addAlphaStats, EMPTY_ALPHA_STATS);
    const count = (field: 'verdicts' | 'disagreements') => list.reduce((n, s) => n + s[field], 0);
    const judges = new Map<string, { id: string; model: string; approach: string | null; assessments: number }>();
    for (const j of list.flatMap((s) => s.judges)) {
      const id = judgeKey({ judge: j.judge, approach: j.approach });
      const seen = judges.get(id);
      if (seen) seen.assessments += j.assessments;
      else judges.set(id, { id, model: j.judge, approach: j.approach, assessments: j.assessments });
    }
    return {
      modelId,
      verdicts: count('verdicts'),
      pairable: alphaStats.units,
      disagreements: count('disagreements'),
      alpha: krippendorffAlpha(alphaStats),
      stats: alphaStats,
      judges: [...judges.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
    };
  });
}
