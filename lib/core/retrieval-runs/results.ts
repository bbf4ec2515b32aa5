/**
 * A retrieval run's results, from the scores of one model's rankings: each metric's mean over
 * the scored queries with its bootstrap interval over queries (the project's seeded BCa
 * bootstrap, the queries the resampled unit), and its ladder status against the blueprint's
 * thresholds. Also the stored shapes of the per-query rows (one schema for the writer and the
 * readers) and how a retrieval run ends. Pure: the seed comes in as a key.
 */
import { xoroshiro128plus } from 'pure-rand';
import { z } from 'zod';
import { bcaInterval, DEFAULT_LEVEL, DEFAULT_RESAMPLES, hashSeed, IntervalSchema } from '../scoring';
import { ladderStatus, worstLadder, type LadderStatus, type RetrievalBlock, type RetrievalScores } from '../retrieval';
import type { FinalStatus } from '../runs/status';

/** A stored ladder status (`retrieval_metric_results.status`), read back with this schema. */
export const LadderSchema = z.enum(['pass', 'warn', 'fail']) satisfies z.ZodType<LadderStatus>;

/** A query's top retrieved documents, best first, to the display depth (`retrieval_query_results.ranking`). */
export const StoredRankingSchema = z.array(z.object({ docId: z.string(), score: z.number() }));
export type StoredRanking = z.infer<typeof StoredRankingSchema>;

/**
 * The rank of each relevant document (relevance ≥ 1) retrieved below the stored top, within the
 * search depth (`retrieval_query_results.relevant_ranks`): a missed document's rank for the drill-down.
 */
export const StoredRelevantRanksSchema = z.record(z.string(), z.number().int().positive());
export type StoredRelevantRanks = z.infer<typeof StoredRelevantRanksSchema>;

/** A query's value on each metric, by label (`retrieval_query_results.metrics`). */
export const StoredQueryMetricsSchema = z.record(z.string(), z.number());
export type StoredQueryMetrics = z.infer<typeof StoredQueryMetricsSchema>;

export const MetricResultSchema = z.object({
  metric: z.string(),
  /** The mean over the scored queries; null when no query could be scored on it. */
  value: z.number().nullable(),
  interval: IntervalSchema.nullable(),
  status: LadderSchema.nullable(),
  threshold: z.number().nullable(),
  primary: z.boolean(),
  queryCount: z.number().int().nonnegative(),
});
export type MetricResult = z.infer<typeof MetricResultSchema>;

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/**
 * One result per metric of the block, in the block's order. The interval resamples the
 * queries that count in the metric's mean (those `scores.queries` gives a value for), so
 * its centre is the reported value; with fewer than two queries there is no spread and no
 * interval. `seedKey` (run, model) makes the interval the same on every recomputation.
 */
export function metricResults(scores: RetrievalScores, block: Pick<RetrievalBlock, 'metrics' | 'thresholds' | 'primaryMetric'>, seedKey: string, opts: { resamples?: number; level?: number } = {}): MetricResult[] {
  const queries = Object.keys(scores.queries).sort();
  return block.metrics.map(({ label }) => {
    const values = queries.map((q) => scores.queries[q]?.[label]).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
    const overall = scores.overall[label];
    const value = typeof overall === 'number' && Number.isFinite(overall) ? overall : values.length ? mean(values) : null;
    const interval =
      values.length >= 2
        ? bcaInterval(values.length, (idx) => mean(idx.map((i) => values[i] as number)), xoroshiro128plus(hashSeed(`${seedKey}|${label}`)), {
            resamples: opts.resamples ?? DEFAULT_RESAMPLES,
            level: opts.level ?? DEFAULT_LEVEL,
            n: values.length,
          })
        : null;
    const threshold = block.thresholds?.min[label] ?? null;
    const status = value === null ? null : ladderStatus(value, label, block.thresholds);
    return { metric: label, value, interval, status, threshold, primary: label === block.primaryMetric, queryCount: values.length };
  });
}

/**
 * A model's status on a retrieval run: the worst of its metrics' ladder statuses (one failing
 * metric fails the model), null when no metric has both a threshold and a value. Computed once
 * when the model is scored and stored with each of its metric rows
 * (`retrieval_metric_results.model_status`); the run page and the home board read it from there,
 * so they cannot say two different things about one model on one run. A metric's own status (the
 * primary metric's, say) is another figure.
 */
export function retrievalModelStatus(results: readonly Pick<MetricResult, 'status'>[]): LadderStatus | null {
  return worstLadder(results.map((r) => r.status));
}

export interface RetrievalOutcome {
  /** Embedding batches and model scorings still to do. */
  unitsLeft: number;
  budgetStop: string | null;
  models: number;
  /** Models whose rankings were scored. */
  scoredModels: number;
  /** Why models could not be scored (a provider error after the retries), most common first. */
  failures: { modelId: string; message: string }[];
}

/**
 * How a retrieval run ends: work left is a budget stop (when the budget stopped it) or a
 * failure; a run that scored no model failed (it has nothing for the leaderboard); otherwise
 * it completed, and models that could not be scored show why on the run page.
 */
export function retrievalFinalStatus(o: RetrievalOutcome): { status: FinalStatus; error: string | null } {
  if (o.unitsLeft > 0) {
    if (o.budgetStop) return { status: 'budget_exceeded', error: o.budgetStop };
    return { status: 'failed', error: `embedding or search failed after its retries with ${o.unitsLeft} units of work left` };
  }
  if (o.scoredModels === 0) {
    const first = o.failures[0];
    return { status: 'failed', error: `no model could be scored${first ? `: ${first.modelId}: ${first.message}` : ''}` };
  }
  return { status: 'completed', error: null };
}
