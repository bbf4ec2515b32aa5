/** Scoring, one named level each: verdict → attempt → prompt (k repeats) → model → leaderboard, and paired comparison. */
export {
  capDetail,
  JudgeMethodSchema,
  MAX_DETAIL_CHARS,
  RegexEngineSchema,
  PanelSchema,
  PASS_AT,
  specFromPoint,
  verdictFromOutcome,
  VerdictSchema,
  VerdictSpecSchema,
  VerdictStatusSchema,
  type JudgeMethod,
  type Outcome,
  type Panel,
  type Verdict,
  type VerdictSpec,
  type VerdictStatus,
} from './verdict';
export { evaluateDeterministicPoint, type DeterministicContext, type ReplyInput } from './deterministic';
export { outcomeFromJudges, type JudgeAnswer } from './judged';
export { attemptScore, AttemptScoreSchema, pathOf, weightedMean, type AttemptScore, type ScoredVerdict } from './attempt';
export { promptScore, PromptScoreSchema, type AttemptLike, type PromptScore } from './prompt';
export { modelScore, ModelScoreSchema, type ModelScore, type PromptResult } from './model';
export {
  binomialHalfCdf,
  boardPairedComparison,
  comparePairs,
  pairedComparison,
  PairedComparisonSchema,
  pairedCorrelation,
  pairedTTest,
  PairedTIntervalSchema,
  signTest,
  type BoardPromptScore,
  type Pair,
  type PairedComparison,
  type PairedTInterval,
  type PairedTTest,
} from './paired';
export { holm, type HolmResult } from './holm';
export { BANDS_ALPHA, bandLabel, rankBands, RankBandSchema, type PairTest, type RankBand } from './bands';
export { normalQuantile, tCritical, tTwoSidedP } from './student-t';
export { DEFAULT_LEVEL, DEFAULT_RESAMPLES, IntervalSchema, type BootstrapOptions, type Interval } from './bootstrap';
export {
  aggregateByModel,
  aggregateRows,
  boardBands,
  BoardRowSchema,
  DEFAULT_BOARD_SEED,
  hashSeed,
  hierarchicalBootstrap,
  IntervalMethodSchema,
  promptsByModel,
  type BlueprintSample,
  type BoardBootstrapOptions,
  type BoardPromptRow,
  compareAggregates,
  competitionRanks,
  DEFAULT_MIN_BLUEPRINT_COVERAGE,
  leaderboard,
  ModelAggregateSchema,
  requiredBlueprints,
  roundHalfUp,
  type BoardRow,
  type Leaderboard,
  type ModelAggregate,
  type RankedAggregate,
} from './leaderboard';
export {
  addToCoverage,
  COVERAGE_RULE,
  CoverageSchema,
  coverageShare,
  EMPTY_COVERAGE,
  MIN_CLASS_COVERAGE,
  pointClass,
  sumCoverage,
  withheldReason,
  type Coverage,
  type PointClass,
} from './coverage';
