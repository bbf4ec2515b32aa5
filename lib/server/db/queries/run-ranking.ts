/** A run's model ranking: one precomputed summary row per model (run_model_summaries). */
import type { Interval } from '@/lib/core';
import { storedInterval } from '../stored-interval';
import type { Db } from '../client';

export interface RunModelRow {
  modelId: string;
  displayName: string | null;
  score: number | null;
  ciLow: number | null;
  ciHigh: number | null;
  promptCount: number;
  replyCount: number;
  verdictCount: number;
  errorCount: number;
  costUsd: number;
  latencyMsP50: number | null;
  /** The interval with its method, n attempts and clusters (prompts), when the row records them. */
  interval?: Interval | null;
}

/** A model summary's coverage (lib/core coverage.ts) and why its score is withheld, if it is. */
export interface RunModelCoverage {
  judgedVerdicts: number;
  judgedScored: number;
  deterministicVerdicts: number;
  deterministicScored: number;
  /** Why the score is withheld (null: it is not). */
  withheldReason: string | null;
}

export async function getRunRanking(db: Db, runId: string): Promise<(RunModelRow & RunModelCoverage)[]> {
  const rows = await db.runModelSummary.findMany({
    where: { runId },
    orderBy: [{ score: { sort: 'desc', nulls: 'last' } }, { modelId: 'asc' }],
    take: 500,
  });
  const names = await db.model.findMany({ where: { id: { in: rows.map((r) => r.modelId) } }, select: { id: true, displayName: true } });
  const byId = new Map(names.map((n) => [n.id, n.displayName]));
  return rows.map((r) => ({
    modelId: r.modelId,
    displayName: byId.get(r.modelId) ?? null,
    score: r.score,
    ciLow: r.ciLow,
    ciHigh: r.ciHigh,
    promptCount: r.promptCount,
    replyCount: r.replyCount,
    verdictCount: r.verdictCount,
    errorCount: r.errorCount,
    costUsd: r.costUsd,
    latencyMsP50: r.latencyMsP50,
    judgedVerdicts: r.judgedVerdicts,
    judgedScored: r.judgedScored,
    deterministicVerdicts: r.deterministicVerdicts,
    deterministicScored: r.deterministicScored,
    withheldReason: r.withheldReason,
    interval: storedInterval(r),
  }));
}
