/**
 * One query of a retrieval run, for its drill-down: the query's text, and for each model its
 * ranking (each retrieved document with its score, text and relevance), the relevant documents
 * it missed, and each metric for the query; with the run's other queries to move between.
 * Null when the run is not a retrieval run, the query is not in its data, or the blueprint is
 * sealed (its queries and documents are never shown, as sealed prompts are not).
 */
import { BlueprintSchema, displayDepth, isSealedRetrieval, RetrievalRunSettingsSchema, StoredQueryMetricsSchema, StoredRankingSchema, StoredRelevantRanksSchema } from '@/lib/core';
import type { Db } from '../client';
import { loadDataset } from './retrieval-dataset';

export interface RetrievedDoc {
  rank: number;
  docId: string;
  score: number;
  text: string;
  /** The qrels' grade; null when the document is not judged for the query. */
  relevance: number | null;
}

export interface RetrievalQueryModel {
  modelId: string;
  ranking: RetrievedDoc[];
  /** Relevant documents (relevance ≥ 1) below the shown top-k: their rank within the search depth, or null when not retrieved that deep. */
  missed: { docId: string; text: string; relevance: number; rank: number | null }[];
  metrics: Record<string, number>;
}

export interface RetrievalQueryDetail {
  runId: string;
  queryId: string;
  queryText: string;
  metricLabels: string[];
  /** Documents shown per model: the largest k of the metrics, at least MIN_SEARCH_DEPTH. */
  shown: number;
  models: RetrievalQueryModel[];
  queryIds: string[];
}

export async function getRetrievalQuery(db: Db, runId: string, queryId: string): Promise<RetrievalQueryDetail | null> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { kind: true, config: true, models: true, version: { select: { normalized: true } } } });
  if (!run || run.kind !== 'retrieval') return null;
  const bp = BlueprintSchema.parse(run.version.normalized);
  const settings = RetrievalRunSettingsSchema.safeParse((run.config as { retrieval?: unknown }).retrieval);
  if (!bp.retrieval || !settings.success || isSealedRetrieval(bp)) return null;
  const data = await loadDataset(db, settings.data.datasetId);
  const query = data.queries.find((q) => q.id === queryId);
  if (!query) return null;
  const docs = new Map(data.corpus.map((d) => [d.id, d.text]));
  const judged = new Map(data.qrels.filter((q) => q.queryId === queryId).map((q) => [q.docId, q.relevance]));
  const shown = displayDepth(bp.retrieval.metrics);
  const rows = await db.retrievalQueryResult.findMany({ where: { runId, queryId }, select: { modelId: true, ranking: true, relevantRanks: true, metrics: true } });
  const order = Array.isArray(run.models) ? run.models.map(String) : [];
  const models = rows
    .sort((a, b) => order.indexOf(a.modelId) - order.indexOf(b.modelId))
    .map((r): RetrievalQueryModel => {
      const stored = StoredRankingSchema.parse(r.ranking);
      const rankOf = new Map([...stored.map((d, i): [string, number] => [d.docId, i + 1]), ...Object.entries(StoredRelevantRanksSchema.parse(r.relevantRanks))]);
      const ranking = stored.slice(0, shown).map((d, i) => ({ rank: i + 1, docId: d.docId, score: d.score, text: docs.get(d.docId) ?? '', relevance: judged.get(d.docId) ?? null }));
      const missed = [...judged]
        .filter(([docId, rel]) => rel >= 1 && (rankOf.get(docId) ?? Infinity) > shown)
        .map(([docId, relevance]) => ({ docId, text: docs.get(docId) ?? '', relevance, rank: rankOf.get(docId) ?? null }));
      return { modelId: r.modelId, ranking, missed, metrics: StoredQueryMetricsSchema.parse(r.metrics) };
    });
  return { runId, queryId, queryText: query.text, metricLabels: bp.retrieval.metrics.map((m) => m.label), shown, models, queryIds: data.queries.map((q) => q.id) };
}
