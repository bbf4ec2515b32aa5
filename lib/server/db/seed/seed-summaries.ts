/**
 * STAND-IN for `summariseRun(db, runId)` of lib/server/runs/summarise.ts (the run pipeline,
 * not written yet): fills run_cell_summaries, run_model_summaries and, when the run is its
 * blueprint's latest completed one, blueprint_model_summaries from the run's attempt_scores.
 * Once summariseRun exists, the seeder calls it instead and this file goes.
 */
import { xoroshiro128plus } from 'pure-rand';
import { modelScore } from '@/lib/core';
import type { Db } from '../client';

export async function seedSummaries(db: Db, runId: string): Promise<void> {
  await db.runCellSummary.deleteMany({ where: { runId } });
  // a cell is the mean over its attempts; errors are counted, never averaged in as zeros
  await db.$executeRaw`
    INSERT INTO run_cell_summaries (id, run_id, prompt_key, model_id, score, attempts, error_count)
    SELECT gen_random_uuid()::text, run_id, prompt_key, model_id, avg(score), count(*)::int, sum(error_count)::int
    FROM attempt_scores WHERE run_id = ${runId}
    GROUP BY run_id, prompt_key, model_id`;

  const cells = await db.$queryRaw<{ model_id: string; prompt_key: string; weight: number; score: number | null; error_count: number }[]>`
    SELECT c.model_id, c.prompt_key, vp.weight, c.score, c.error_count
    FROM run_cell_summaries c
    JOIN runs r ON r.id = c.run_id
    JOIN version_prompts vp ON vp.version_id = r.version_id AND vp.prompt_key = c.prompt_key
    WHERE c.run_id = ${runId}`;
  const byModel = new Map<string, { id: string; weight: number; score: number | null; errors: number }[]>();
  for (const c of cells) {
    const list = byModel.get(c.model_id) ?? [];
    list.push({ id: c.prompt_key, weight: c.weight, score: c.score, errors: c.error_count });
    byModel.set(c.model_id, list);
  }

  const replies = await db.$queryRaw<{ model_id: string; replies: number; cost: number; p50: number | null; failed: number }[]>`
    SELECT model_id, count(*)::int AS replies, coalesce(sum(cost_usd), 0)::float8 AS cost,
           (percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms) FILTER (WHERE error IS NULL))::float8 AS p50,
           (count(*) FILTER (WHERE error IS NOT NULL))::int AS failed
    FROM replies WHERE run_id = ${runId} GROUP BY model_id`;
  const verdicts = await db.$queryRaw<{ model_id: string; verdicts: number; errors: number }[]>`
    SELECT model_id, count(*)::int AS verdicts, (count(*) FILTER (WHERE status = 'error'))::int AS errors
    FROM verdicts WHERE run_id = ${runId} GROUP BY model_id`;
  const replyStats = new Map(replies.map((r) => [r.model_id, r]));
  const verdictStats = new Map(verdicts.map((v) => [v.model_id, v]));

  await db.runModelSummary.deleteMany({ where: { runId } });
  const rows = [...byModel.entries()].map(([modelId, prompts]) => {
    const ms = modelScore(prompts, xoroshiro128plus(20_261_130));
    const r = replyStats.get(modelId);
    const v = verdictStats.get(modelId);
    return {
      runId,
      modelId,
      score: ms.score,
      ciLow: ms.interval?.low ?? null,
      ciHigh: ms.interval?.high ?? null,
      promptCount: prompts.length,
      replyCount: r?.replies ?? 0,
      verdictCount: v?.verdicts ?? 0,
      errorCount: (v?.errors ?? 0) + (r?.failed ?? 0),
      costUsd: r?.cost ?? 0,
      latencyMsP50: r?.p50 == null ? null : Math.round(r.p50),
    };
  });
  await db.runModelSummary.createMany({ data: rows });

  const run = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { blueprintId: true, createdAt: true, status: true } });
  const newer = await db.run.count({ where: { blueprintId: run.blueprintId, status: 'completed', createdAt: { gt: run.createdAt } } });
  if (run.status !== 'completed' || newer > 0) return;
  await db.blueprintModelSummary.deleteMany({ where: { blueprintId: run.blueprintId } });
  await db.blueprintModelSummary.createMany({
    data: rows.map((r) => ({ blueprintId: run.blueprintId, modelId: r.modelId, runId, score: r.score, ciLow: r.ciLow, ciHigh: r.ciHigh, errorCount: r.errorCount })),
  });
}
