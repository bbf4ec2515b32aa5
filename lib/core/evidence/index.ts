/** Stored evidence: the one shape of each JSON column a run writes and the pages read, and how it reads. */
export {
  JudgeApproachSchema,
  parseStored,
  parseStoredOrNull,
  SampledBecauseSchema,
  StoredBatchCallSchema,
  StoredDetailSchema,
  StoredDistributionSchema,
  StoredEvidenceError,
  StoredJudgeRecordSchema,
  StoredJudgesSchema,
  StoredMessagesSchema,
  StoredPointSchema,
  StoredPointsSchema,
  StoredQuestionPointSchema,
  StoredToolCallSchema,
  StoredToolCallsSchema,
  StoredTurnsSchema,
  type SampledBecause,
  type StoredBatchCall,
  type StoredDistribution,
  type StoredJudgeRecord,
  type StoredPoint,
  type StoredToolCall,
  type StoredTurn,
} from './schemas';
export { ToolCallSchema, type ToolCall } from './tool-call';
export { isCutOff, REPLY_OUTCOME_LABELS, replyOutcome, StoredRefusalSchema, type ReplyOutcome, type StoredRefusal } from './reply-outcome';
export { describeCheck, functionName, labelName, orderedDistribution, pointCode, pointDirection, pointLabel, pointLabels, storedPoint } from './labels';
export {
  MAX_SERVED_VALUE,
  NOTHING_SERVED,
  ProviderMetaSchema,
  SERVED_HEADER_ALLOW_LIST,
  servedFrom,
  servedOrNothing,
  ServedSchema,
  type ProviderMeta,
  type Served,
} from './served';
