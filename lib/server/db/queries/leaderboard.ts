/**
 * What the leaderboards read: each model's score on each live blueprint from that
 * blueprint's latest completed run in which the model scored (blueprint_model_summaries, maintained by the run
 * summariser). One row per blueprint × model; the aggregation is a pure view model.
 */
import type { Db } from '../client';

export interface LeaderboardRow {
  blueprintId: string;
  blueprintTitle: string;
  tags: string[];
  modelId: string;
  runId: string;
  score: number | null;
  ciLow: number | null;
  ciHigh: number | null;
  errorCount: number;
  judgedVerdicts: number;
  judgedScored: number;
  deterministicVerdicts: number;
  deterministicScored: number;
}

export async function getLeaderboardRows(db: Db, opts: { modelId?: string } = {}): Promise<LeaderboardRow[]> {
  const rows = await db.blueprintModelSummary.findMany({
    where: { blueprint: { removedAt: null }, ...(opts.modelId ? { modelId: opts.modelId } : {}) },
    select: {
      blueprintId: true,
      modelId: true,
      runId: true,
      score: true,
      ciLow: true,
      ciHigh: true,
      errorCount: true,
      judgedVerdicts: true,
      judgedScored: true,
      deterministicVerdicts: true,
      deterministicScored: true,
      blueprint: { select: { title: true, tags: true } },
    },
    take: 100_000,
  });
  return rows.map(({ blueprint, ...r }) => ({ ...r, blueprintTitle: blueprint.title, tags: blueprint.tags }));
}

/** Display names of models, for labels. */
export async function getModelNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.model.findMany({ where: { id: { in: ids } }, select: { id: true, displayName: true } });
  return new Map(rows.map((r) => [r.id, r.displayName]));
}
