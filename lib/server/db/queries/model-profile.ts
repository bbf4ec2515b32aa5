/**
 * A model across Assay: every model's scores on the live blueprints (so the view can say how
 * this model compares with the field on each blueprint and tag) and this model's history
 * over runs. Bounded by blueprints × models and by the history limit, never by run size.
 */
import type { Db } from '../client';
import { getBoard } from './leaderboard';

export async function getModelProfile(db: Db, modelId: string, opts: { historyLimit?: number } = {}) {
  const [model, board, history] = await Promise.all([
    db.model.findUnique({ where: { id: modelId }, select: { id: true, provider: true, displayName: true } }),
    getBoard(db),
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
  const scores = board.rows;
  // an embedding model is scored on retrieval blueprints: its runs, for the page's links
  const retrievalRuns = await db.retrievalMetricResult.findMany({
    where: { modelId, primary: true, run: { status: 'completed', draft: false } },
    orderBy: { run: { createdAt: 'desc' } },
    take: 20,
    select: { runId: true, run: { select: { createdAt: true, blueprint: { select: { id: true, title: true } } } } },
  });
  if (!model && !scores.some((s) => s.modelId === modelId) && history.length === 0 && retrievalRuns.length === 0) return null;
  // the prompt scores behind the rows: the same intervals as the leaderboard's (hierarchical bootstrap)
  return { modelId, model, scores, ...(board.prompts.length ? { prompts: board.prompts } : {}), history, retrievalRuns };
}
export type ModelProfile = NonNullable<Awaited<ReturnType<typeof getModelProfile>>>;
