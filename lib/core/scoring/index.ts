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
export { criteriaAttemptScore, isCriteriaOnly, type CriteriaAttempt } from './criteria-attempt';
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
export { DEFAULT_LEVEL, DEFAULT_RESAMPLES, IntervalMethodSchema, IntervalSchema, type BootstrapOptions, type Interval, type IntervalMethod, type SampleSize } from './bootstrap';
export { normalCdf, normalQuantile, studentTQuantile, tCritical, tTwoSidedP, zForLevel } from './distributions';
export { clusteredMean, clusteredNormalInterval, clusteredStandardError, type Cluster } from './interval-clustered';
export { bcaAcceleration, bcaBiasCorrection, bcaFromStatistics, bcaInterval } from './interval-bca';
export { wilsonInterval } from './interval-wilson';
export { chooseIntervalMethod, isPassRate, MIN_PROMPTS_FOR_NORMAL, modelInterval } from './model-interval';
export { modelPassCurve, ModelPassCurveSchema, passAtK, passCurve, PassCurveSchema, passHatK, PassPointSchema, type ModelPassCurve, type PassCurve, type PromptPasses } from './pass-at-k';
export {
  aggregateByModel,
  aggregateRows,
  boardBands,
  boardPairTests,
  boardPlaceLabel,
  type BoardPairTest,
  BoardPairTestSchema,
  LeaderboardSchema,
  RankedAggregateSchema,
  BoardRowSchema,
  DEFAULT_BOARD_SEED,
  hashSeed,
  hierarchicalBootstrap,
  BoardIntervalMethodSchema,
  type BoardIntervalMethod,
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
export {
  BlueprintPlanSchema,
  DEFAULT_ALPHA,
  DEFAULT_POWER,
  effectiveSize,
  minimumDetectableEffect,
  pairedDifferenceVariance,
  PairPlanSchema,
  planBlueprint,
  PlanOptionsSchema,
  promptsNeeded,
  zSum,
  type BlueprintPlan,
  type ModelPrompts,
  type PairPlan,
  type PlanOptions,
} from './planner';
export {
  driftDifference,
  driftRule,
  DriftMovedListSchema,
  DriftMovedSchema,
  driftTest,
  DriftTestSchema,
  expandedLevel,
  mostMoved,
  MOVED_KEPT,
  servedChanged,
  typicalServed,
  type DriftDifference,
  type DriftMoved,
  type DriftTest,
  type ServedIdentity,
} from './drift';
export { attemptPassed, GROUP_AXES, GroupScoreSchema, passRate, PassRateSchema, scoresByGroup, type GroupAxis, type GroupedAttempt, type GroupScore, type PassRate } from './groups';
export { FEW_PROMPTS, MIN_PROMPTS_FOR_INTERVAL, sampleReading, type SampleReading } from './sample-size';
