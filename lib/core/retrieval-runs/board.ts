/**
 * The retrieval leaderboard's order: each embedding model's mean of the primary metrics of the
 * retrieval blueprints it was scored on (each blueprint's latest completed run), best first, ties
 * by model id, and its rank: models whose means agree to the three decimals the board prints
 * share one. One function for the home page's board and the public API's, so the two cannot
 * order, average or rank differently.
 */
import { roundHalfUp } from '../scoring/leaderboard';
export interface RetrievalBoardInput {
  modelId: string;
  tags: readonly string[];
  value: number | null;
}

export interface RankedRetrievalModel<R> {
  modelId: string;
  /** Mean over the blueprints with a value; null when none has one. */
  mean: number | null;
  rank: number;
  rows: R[];
}

/** The rows of `tag` (all for null) grouped by model, ranked by their mean, best first. */
export function rankRetrievalModels<R extends RetrievalBoardInput>(rows: readonly R[], tag: string | null): Array<RankedRetrievalModel<R>> {
  const byModel = new Map<string, R[]>();
  for (const r of rows) if (tag === null || r.tags.includes(tag)) byModel.set(r.modelId, [...(byModel.get(r.modelId) ?? []), r]);
  const sorted = [...byModel]
    .map(([modelId, mine]) => {
      const values = mine.flatMap((r) => (r.value === null ? [] : [r.value]));
      return { modelId, rows: mine, mean: values.length ? values.reduce((a, b) => a + b, 0) / values.length : null };
    })
    .sort((a, b) => (b.mean ?? -1) - (a.mean ?? -1) || a.modelId.localeCompare(b.modelId));
  const printed = (m: number | null) => (m === null ? null : roundHalfUp(m, 3));
  return sorted.map((m, i) => ({ ...m, rank: sorted.findIndex((o) => printed(o.mean) === printed(m.mean)) + 1 || i + 1 }));
}
