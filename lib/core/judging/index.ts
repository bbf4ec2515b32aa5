/** Judging: question values, the judge class scale, distributions, panel consensus, hardening. */
export * from './questions';
export {
  CHOICE_NOT_APPLICABLE_AT,
  choiceValue,
  expectedFromDistribution,
  JudgeValueError,
  noulValue,
  questionLabels,
  questionsValue,
  questionValue,
  scoreValue,
  type ChoiceResult,
  type LabelDistribution,
  type QuestionOutcome,
  type QuestionsValue,
  type WeightedAnswer,
} from './values';
export {
  canonicalJudgeClass,
  canonicaliseClassDistribution,
  JUDGE_CLASS_ALIASES,
  JUDGE_CLASS_VALUES,
  JUDGE_SCALE,
  judgeScaleQuestion,
  judgeScaleValue,
  type JudgeClass,
} from './scale';
export {
  distributionFromLogprobs,
  distributionFromSamples,
  DistributionMethodSchema,
  JudgeDistributionSchema,
  type DistributionMethod,
  type DistributionResult,
  type JudgeDistribution,
  type TopLogprob,
} from './distribution';
export { DISAGREEMENT_STD, panelConsensus, type PanelConsensus } from './consensus';
export { JUDGE_DELIMITERS, neutraliseDelimiters, parseLastLabel, type LabelReader, type ParsedLabel } from './hardening';
export { buildJudgeRequest, judgeOptions, judgeStatement, readJudgeOutput, readJudgeSamples, judgeLabels, type JudgeApproach, type JudgeInput, type JudgeRequest, type JudgeOutputToken, type JudgeReading } from './prompt';
export { addAlphaStats, ALPHA_MIN_UNITS, alphaStatsOf, EMPTY_ALPHA_STATS, krippendorffAlpha, readAlpha, unitAlphaStats, type AlphaMatrix, type AlphaReading, type AlphaStats, type JudgeAlpha } from './alpha';
export { judgeKey, judgeReliability, type JudgeAssessment, type JudgedVerdict, type JudgeReliability, type JudgeSummary } from './judge-reliability';
export { modelIdentity, selfJudging, type ModelIdentity, type SelfJudgingKind } from './self-judging';
export { BATCH_SYSTEM, buildJudgeBatchRequest, JUDGE_BATCH_MAX_QUESTIONS, splitIntoBatches, type BatchQuestionKey, type JudgeBatchInput, type JudgeBatchRequest } from './batch-prompt';
export { readJudgeBatchOutput, readJudgeBatchSamples, type BatchAnswerReading, type JudgeBatchReading } from './batch-reading';
export { readLabelPosition, UNSEEN_LABEL_TOLERANCE, type LabelPositionReading, type LabelSpan } from './label-position';
export { modeAgreement, type ModeAgreement, type ModeVerdict } from './mode-agreement';
