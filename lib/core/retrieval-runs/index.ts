/** Retrieval runs: the plan (depth, batches, identity) and the results (metric intervals over queries, ladder, stored shapes, the end). */
export {
  batchRange,
  displayDepth,
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
  retrievalModelStatus,
  StoredQueryMetricsSchema,
  StoredRelevantRanksSchema,
  StoredRankingSchema,
  type MetricResult,
  type RetrievalOutcome,
  type StoredQueryMetrics,
  type StoredRelevantRanks,
  type StoredRanking,
} from './results';
export { rankRetrievalModels, type RankedRetrievalModel, type RetrievalBoardInput } from './board';
