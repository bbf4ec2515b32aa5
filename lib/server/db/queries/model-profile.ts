/**
 * A model across Assay: every model's row on the live blueprints (so the page can find the
 * stored boards the model sits on: overall, its tags, its blueprints) and this model's history
 * over runs. Bounded by blueprints × models and by the history limit, never by run size: the
 * prompt scores behind the boards are read only when a board is made (db/commands/board-snapshots.ts).
 */
import type { Db } from '../client';
import { getLeaderboardRows } from './leaderboard';

export async function getModelProfile(db: Db, modelId: string, opts: { historyLimit?: number } = {}) {
  const [model, scores, history] = await Promise.all([
    db.model.findUnique({ where: { id: modelId }, select: { id: true, provider: true, displayName: true } }),
    getLeaderboardRows(db),
    db.runModelSummary.findMany({
      // an author's draft (try-it) run is not public history
      where: { modelId, run: { status: 'completed', draft: false } },
      orderBy: { run: { createdAt: 'desc' } },
      take: opts.historyLimit ?? 200,
      select: {
        runId: true,
        score: true,
        ciLow: true,
        ciHigh: true,
        errorCount: true,
        run: { select: { createdAt: true, blueprint: { select: { id: true, title: true } } } },
      },
    }),
  ]);
  // an embedding model is scored on retrieval blueprints: its runs, for the page's links
  const retrievalRuns = await db.retrievalMetricResult.findMany({
    where: { modelId, primary: true, run: { status: 'completed', draft: false } },
    orderBy: { run: { createdAt: 'desc' } },
    take: 20,
    select: { runId: true, run: { select: { createdAt: true, blueprint: { select: { id: true, title: true } } } } },
  });
  if (!model && !scores.some((s) => s.modelId === modelId) && history.length === 0 && retrievalRuns.length === 0) return null;
  return { modelId, model, scores, history, retrievalRuns };
}
export type ModelProfile = NonNullable<Awaited<ReturnType<typeof getModelProfile>>>;
