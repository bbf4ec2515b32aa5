/** Retrieval runs: the plan (depth, batches, identity) and the results (metric intervals over queries, ladder, stored shapes, the end). */
export {
  batchRange,
  EmbedKindSchema,
  FULL_RANKING_DEPTH,
  isSealedRetrieval,
  MIN_SEARCH_DEPTH,
  planEmbedUnits,
  RETRIEVAL_BATCH_TEXTS,
  RetrievalRunSettingsSchema,
  retrievalRunIdentity,
  searchDepth,
  type EmbedKind,
  type EmbedUnit,
  type RetrievalRunSettings,
} from './plan';
export {
  LadderSchema,
  metricResults,
  MetricResultSchema,
  retrievalFinalStatus,
  StoredQueryMetricsSchema,
  StoredRankingSchema,
  type MetricResult,
  type RetrievalOutcome,
  type StoredQueryMetrics,
  type StoredRanking,
} from './results';
