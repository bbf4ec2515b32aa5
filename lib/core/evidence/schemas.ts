/**
 * The stored shape of a run's evidence: what the pipeline writes into `verdicts` and
 * `replies` JSON columns, and what every page reads back. One schema per column, used by the
 * writer (lib/server/runs) to build the row and by the reader (queries, views) to parse it,
 * so the two can never drift apart again (a judge's number once went in as `value` and came
 * out as "—" on every page that read `score`). A row the reader cannot parse is an error,
 * never a silent blank: see `parseStored`.
 */
import { z } from 'zod';
import { CorrectPointSchema, CriterionPointSchema, FunctionPointSchema, MessageSchema, QuestionPointSchema, TextPointSchema } from '../blueprint/schema';
import { DistributionMethodSchema } from '../judging/distribution';
import type { JudgeReliability } from '../judging/judge-reliability';
import { GroupScoreSchema, PassRateSchema } from '../scoring/groups';
import { ToolCallSchema } from './tool-call';

/** `verdicts.distribution` and each judge's: probability per label, keyed by the question's labels. */
export const StoredDistributionSchema = z.record(z.string(), z.number().min(0).max(1));
export type StoredDistribution = z.infer<typeof StoredDistributionSchema>;

export const StoredBatchCallSchema = z
  .object({
    call: z.string().min(1),
    question: z.string().regex(/^[A-Z]$/),
    of: z.number().int().min(1),
  })
  .strict();
export type StoredBatchCall = z.infer<typeof StoredBatchCallSchema>;

export const JudgeApproachSchema = z.enum(['standard', 'prompt-aware', 'holistic']);

/**
 * Why a judge's distribution was estimated from sampled answers: the provider returned no
 * log-probabilities (`no-logprobs`), returned them but the label's position could not be read
 * from them (`label-not-in-logprobs`: lib/core/judging/label-position.ts), or the model refuses
 * the log-probability parameters altogether (`logprobs-refused`, e.g. reasoning models).
 */
export const SampledBecauseSchema = z.enum(['no-logprobs', 'label-not-in-logprobs', 'logprobs-refused']);
export type SampledBecause = z.infer<typeof SampledBecauseSchema>;

/**
 * One judge's answer on one point (`verdicts.judges[i]`). `score` is the value of the
 * question under this judge's distribution, in [0,1] before any `should_not` inversion;
 * null when the judge failed or found the question does not apply. Strict: an unknown key
 * (such as the old `value`) is a stored shape nobody reads, so it fails loudly.
 */
export const StoredJudgeRecordSchema = z
  .object({
    /** The judge model id, e.g. `openai:gpt-4o-mini`. */
    judge: z.string().min(1),
    approach: JudgeApproachSchema.nullable().default(null),
    score: z.number().min(0).max(1).nullable(),
    distribution: StoredDistributionSchema.nullable(),
    method: DistributionMethodSchema.nullable().default(null),
    reasoning: z.string().nullable(),
    /** Why this judge gave no answer (provider error, malformed output after retries). */
    error: z.string().nullable(),
    /**
     * `method: samples` only: why the judge was sampled instead of read from log-probabilities
     * (absent on rows written before it was recorded). See `SampledBecauseSchema`.
     */
    sampledBecause: SampledBecauseSchema.optional(),
    /** `method: samples` only: how many sampled answers carried a label (the estimate's n). */
    n: z.number().int().positive().optional(),
    /**
     * Batched judging only (absent for per-point answers): the call that produced this answer
     * (its response-cache key: model, messages, parameters, attempt), the question's letter in
     * it and how many questions it asked, so the exact request can be found and replayed.
     */
    batch: StoredBatchCallSchema.optional(),
  })
  .strict();
export type StoredJudgeRecord = z.output<typeof StoredJudgeRecordSchema>;

/** `verdicts.judges`: the panel's answers in panel order, or null for a point no judge saw. */
export const StoredJudgesSchema = z.array(StoredJudgeRecordSchema).min(1);

/** `verdicts.detail`: the function's or check's explanation, the panel's summary, or the error's reason. */
export const StoredDetailSchema = z.string();

/** One tool call as the model made it: the arguments parsed JSON when they parsed, else the raw string. */
export const StoredToolCallSchema = ToolCallSchema.strict();
export type StoredToolCall = z.infer<typeof StoredToolCallSchema>;

/** `replies.tool_calls`: in the order the model made them; null (not []) when it made none. */
export const StoredToolCallsSchema = z.array(StoredToolCallSchema).min(1);

/**
 * `replies.turns`: the conversation as sent, system prompt first, generated turns filled in,
 * ending with the final reply; a reply that failed keeps the planned turns (`assistant: null`).
 */
export const StoredTurnsSchema = z.array(MessageSchema);
export type StoredTurn = z.infer<typeof MessageSchema>;

/**
 * One point of `version_prompts.points`. A question point also stores its `labels` in the
 * order written: JSONB keeps object keys in its own order, so a `choice`'s options would
 * otherwise come back sorted by length.
 */
export const StoredQuestionPointSchema = QuestionPointSchema.extend({ labels: z.array(z.string()).optional() });
export const StoredPointSchema = z.discriminatedUnion('kind', [TextPointSchema, FunctionPointSchema, StoredQuestionPointSchema, CorrectPointSchema, CriterionPointSchema]);
export type StoredPoint = z.infer<typeof StoredPointSchema>;
export const StoredPointsSchema = z.array(StoredPointSchema);

/** `version_prompts.messages`: the prompt's turns as written (`assistant: null` = generated by the model under test). */
export const StoredMessagesSchema = z.array(MessageSchema);

const JudgeAlphaBasisSchema = z.object({ units: z.number().int().min(0), values: z.number().int().min(0), pairs: z.number().int().min(0) });
const JudgeAlphaSchema = z.discriminatedUnion('kind', [
  JudgeAlphaBasisSchema.extend({ kind: z.literal('alpha'), value: z.number() }),
  JudgeAlphaBasisSchema.extend({ kind: z.literal('not-enough'), minUnits: z.number().int() }),
]);
const SelfJudgingKindSchema = z.enum(['same-model', 'same-family']);

/** One level's judge reliability (lib/core/judging/judge-reliability.ts `judgeReliability`). */
export const StoredJudgeReliabilitySchema = z.object({
  verdicts: z.number().int().min(0),
  pairable: z.number().int().min(0),
  alpha: JudgeAlphaSchema,
  disagreements: z.number().int().min(0),
  disagreementShare: z.number().min(0).max(1).nullable(),
  judges: z.array(
    z.object({
      id: z.string(),
      model: z.string(),
      approach: z.string().nullable(),
      assessments: z.number().int().min(0),
      missing: z.number().int().min(0),
      meanScore: z.number().nullable(),
      meanAbsDeviation: z.number().nullable(),
      compared: z.number().int().min(0),
      selfJudging: z.array(z.object({ modelId: z.string(), kind: SelfJudgingKindSchema })),
    }),
  ),
  selfJudging: z.array(z.object({ judge: z.string(), modelId: z.string(), kind: SelfJudgingKindSchema })),
}) satisfies z.ZodType<JudgeReliability>;

/**
 * `runs.judge_reliability`: a finished run's judge reliability, for the run as a whole and each
 * graded model with judged verdicts (in model id order), computed once when the run is summarised
 * and read by every page that shows it.
 */
export const StoredRunJudgeReliabilitySchema = z.object({
  run: StoredJudgeReliabilitySchema,
  byModel: z.array(z.object({ modelId: z.string(), reliability: StoredJudgeReliabilitySchema })),
});

/** One judge's answers read one way over a run: per judge, approach, method, why it was sampled and from how many answers. */
export const JudgeMethodCountSchema = z.object({
  judge: z.string(),
  approach: z.string().nullable(),
  method: z.string(),
  sampledBecause: SampledBecauseSchema.nullable(),
  n: z.number().int().nullable(),
  /** Verdicts this judge answered this way. */
  count: z.number().int(),
});
export type JudgeMethodCount = z.infer<typeof JudgeMethodCountSchema>;

/** `runs.judge_methods`: how a finished run's judges were read, counted once when it is summarised (the run page's judges line, the CLI report). */
export const StoredJudgeMethodsSchema = z.array(JudgeMethodCountSchema);

/**
 * `runs.groups`: a finished run's scores per category and per rule of its prompts and its
 * per-attempt pass rate, per model (lib/core/scoring/groups.ts), computed once when it is
 * summarised (intervals seeded by the run id) and read by the run and blueprint pages and the CLI.
 */
export const StoredRunGroupsSchema = z.array(z.object({ model: z.string(), pass: PassRateSchema, byCategory: z.array(GroupScoreSchema), byRule: z.array(GroupScoreSchema) }));

/** One model in the comparison of two runs (the diff page's row). */
export const DiffModelRowSchema = z.object({
  modelId: z.string(),
  /** Prompts both runs scored for the model (sealed ones included). */
  paired: z.number().int(),
  /** Each run's stored score for the model (its run page's); null when withheld or unscored. */
  olderScore: z.number().nullable(),
  newerScore: z.number().nullable(),
  /** Newer − older over the paired prompts, prompt-weighted (driftDifference); > 0: the newer run scored higher. */
  difference: z.number().nullable(),
  /** The difference is the stored drift check's between these two runs. */
  fromDriftCheck: z.boolean(),
  better: z.number().int(),
  worse: z.number().int(),
  same: z.number().int(),
});
export type DiffModelRow = z.infer<typeof DiffModelRowSchema>;

/** A visible prompt × model cell that moved between two runs. */
export const DiffCellRowSchema = z.object({ promptKey: z.string(), modelId: z.string(), scoreA: z.number().nullable(), scoreB: z.number().nullable(), delta: z.number() });
export type DiffCellRow = z.infer<typeof DiffCellRowSchema>;

/**
 * `run_diffs.diff`: two finished runs of one blueprint compared, computed once (when the newer is
 * summarised, or when a reader first compares the pair) and read by the diff page.
 */
export const StoredRunDiffSchema = z.object({
  models: z.array(DiffModelRowSchema),
  /** The visible cells that moved most, largest change first. */
  cells: z.array(DiffCellRowSchema),
  /** Visible prompt × model cells scored the same in both runs (counted, not listed). */
  unchangedCells: z.number().int(),
  modelsOnlyInA: z.number().int(),
  modelsOnlyInB: z.number().int(),
});
export type StoredRunDiff = z.infer<typeof StoredRunDiffSchema>;

/** `runs.unpriced_models`: the models whose calls a finished run could not price, found once when it is summarised (every run page's header). */
export const StoredUnpricedModelsSchema = z.array(z.string());

/**
 * `run_model_summaries.judge_stats`: one model's judged verdicts in one finished run as sums that
 * add up exactly over runs (lib/core/judging/alpha.ts AlphaStats), its counts and each judge's
 * assessments; the leaderboards pool α over their runs from these.
 */
export const StoredJudgeStatsSchema = z.object({
  verdicts: z.number().int().min(0),
  pairable: z.number().int().min(0),
  disagreements: z.number().int().min(0),
  n: z.number().int().min(0),
  pairs: z.number().int().min(0),
  sum: z.number(),
  sumSq: z.number(),
  within: z.number(),
  judges: z.array(z.object({ judge: z.string(), approach: z.string().nullable(), assessments: z.number().int().min(0) })),
});
export type StoredJudgeStats = z.infer<typeof StoredJudgeStatsSchema>;

/** A stored row that does not have the shape its schema says: a defect in the writer, or data from an older one. */
export class StoredEvidenceError extends Error {
  override name = 'StoredEvidenceError';
  constructor(
    readonly where: string,
    readonly issues: string,
  ) {
    super(`stored ${where} does not have the expected shape: ${issues}. A writer stored something the pages cannot read; fix the writer (or migrate the rows), do not hide it.`);
  }
}

/** Parses a stored JSON value; throws StoredEvidenceError naming the column and row. */
export function parseStored<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw new StoredEvidenceError(where, z.prettifyError(r.error).replace(/\n/g, '; '));
}

/** Same, for nullable columns: SQL NULL (and JSON null) is null. */
export function parseStoredOrNull<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> | null {
  return value === null || value === undefined ? null : parseStored(schema, value, where);
}
