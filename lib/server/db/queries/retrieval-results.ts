/**
 * A retrieval run's results, per model: every metric with its interval and ladder status, the
 * model's ladder over its thresholded metrics, its embedding cost and calls, and why it was not
 * scored when it was not. What the run page shows and what `assay run --json` writes, read with
 * the schemas the writer used (retrieval/steps.ts).
 */
import { BlueprintSchema, isSealedRetrieval, LadderSchema, RetrievalRunSettingsSchema, StoredQueryMetricsSchema, type Interval, type LadderStatus } from '@/lib/core';
import { loadDataset } from './retrieval-dataset';
import type { Db } from '../client';
import { storedInterval } from '../stored-interval';

export interface RetrievalMetricView {
  metric: string;
  value: number | null;
  interval: Interval | null;
  status: LadderStatus | null;
  threshold: number | null;
  primary: boolean;
  queryCount: number;
}

export interface RetrievalModelResults {
  modelId: string;
  metrics: RetrievalMetricView[];
  /**
   * The model's status on the run over every thresholded metric, as stored when it was scored
   * (retrieval_metric_results.model_status, lib/core retrievalModelStatus): the home board reads the
   * same column. Null without thresholds or scores.
   */
  ladder: LadderStatus | null;
  costUsd: number;
  /** Provider calls its batches made, and texts found in the vector store. */
  calls: number;
  cached: number;
  texts: number;
  /** Why it has no scores (a batch's provider error); null when it was scored or is still running. */
  error: string | null;
}

export interface RetrievalRunResults {
  runId: string;
  blueprintId: string;
  status: string;
  primaryMetric: string;
  metricLabels: string[];
  thresholds: { min: Record<string, number>; warnMargin: number } | null;
  models: RetrievalModelResults[];
  /** The blueprint is sealed (`split: test`): its queries are not listed, only the figures shown. */
  sealed: boolean;
  /** The first queries of the data with each model's primary metric on them (none when sealed). */
  queries: { id: string; text: string; primary: Record<string, number | null> }[];
  queryCount: number;
}

/** Queries listed on the run page; the drill-down moves between all of them. */
export const LISTED_QUERIES = 50;

/** Null when the run is not a retrieval run (or does not exist). */
export async function getRetrievalRunResults(db: Db, runId: string): Promise<RetrievalRunResults | null> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { id: true, kind: true, status: true, blueprintId: true, models: true, config: true, version: { select: { normalized: true } } } });
  if (!run || run.kind !== 'retrieval') return null;
  const bp = BlueprintSchema.parse(run.version.normalized);
  const block = bp.retrieval;
  const settings = RetrievalRunSettingsSchema.safeParse((run.config as { retrieval?: unknown }).retrieval);
  if (!block || !settings.success) return null;
  const sealed = isSealedRetrieval(bp);
  const [metrics, batches] = await Promise.all([
    db.retrievalMetricResult.findMany({ where: { runId } }),
    db.retrievalBatch.groupBy({ by: ['modelId'], where: { runId }, _sum: { costUsd: true, calls: true, cached: true, texts: true } }),
  ]);
  const errors = await db.retrievalBatch.findMany({ where: { runId, error: { not: null } }, distinct: ['modelId'], orderBy: { modelId: 'asc' }, select: { modelId: true, error: true } });
  const order = new Map(block.metrics.map((m, i) => [m.label, i]));
  const models = (Array.isArray(run.models) ? run.models.map(String) : []).map((modelId): RetrievalModelResults => {
    const rows = metrics.filter((m) => m.modelId === modelId).sort((a, b) => (order.get(a.metric) ?? 0) - (order.get(b.metric) ?? 0));
    const views = rows.map((r) => ({
      metric: r.metric,
      value: r.value,
      interval: storedInterval(r),
      status: r.status === null ? null : LadderSchema.parse(r.status),
      threshold: r.threshold,
      primary: r.primary,
      queryCount: r.queryCount,
    }));
    const stored = rows.find((r) => r.modelStatus !== null)?.modelStatus ?? null;
    const sums = batches.find((b) => b.modelId === modelId)?._sum;
    return {
      modelId,
      metrics: views,
      ladder: stored === null ? null : LadderSchema.parse(stored),
      costUsd: sums?.costUsd ?? 0,
      calls: sums?.calls ?? 0,
      cached: sums?.cached ?? 0,
      texts: sums?.texts ?? 0,
      error: views.length ? null : (errors.find((e) => e.modelId === modelId)?.error ?? null),
    };
  });
  const data = await loadDataset(db, settings.data.datasetId);
  const listed = sealed ? [] : data.queries.slice(0, LISTED_QUERIES);
  const perQuery = listed.length
    ? await db.retrievalQueryResult.findMany({ where: { runId, queryId: { in: listed.map((q) => q.id) } }, select: { queryId: true, modelId: true, metrics: true } })
    : [];
  const queries = listed.map((q) => ({
    id: q.id,
    text: q.text,
    primary: Object.fromEntries(
      models.map((m) => {
        const row = perQuery.find((p) => p.queryId === q.id && p.modelId === m.modelId);
        return [m.modelId, row ? (StoredQueryMetricsSchema.parse(row.metrics)[block.primaryMetric] ?? null) : null];
      }),
    ),
  }));
  return { runId, blueprintId: run.blueprintId, status: run.status, primaryMetric: block.primaryMetric, metricLabels: block.metrics.map((m) => m.label), thresholds: block.thresholds, models, sealed, queries, queryCount: data.queries.length };
}
