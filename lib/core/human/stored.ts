/**
 * The stored shapes of human judgement: what the review queue writes (a draw's design, an item
 * as a reviewer saw it) and the figures made from people's labels (`human_figures.body`). The
 * writer and every reader parse with these schemas.
 */
import { z } from 'zod';
import { MessageSchema } from '../blueprint/schema';
import { JudgeQuestionSchema } from '../judging/questions';
import { CalibrationSchema, JudgeBiasSchema } from './agreement';
import { PairwiseRankingSchema } from './bradley-terry';
import { PpiEstimateSchema } from './prediction-powered';
import { ReviewDesignSchema } from './review-design';

/** A review draw's design as stored: the design, the seed of its random draw and order, and the overlap. */
export const StoredReviewDesignSchema = ReviewDesignSchema.extend({
  seed: z.number().int(),
  /** Items that go to at least two reviewers (in the draw's random order, the first ones). */
  overlapItems: z.number().int().nonnegative(),
  /** Reviewers each of those items goes to (≥ 2), and each later item (≥ 1). */
  overlapReviewers: z.number().int().min(2),
  otherReviewers: z.number().int().min(1),
}).strict();
export type StoredReviewDesign = z.infer<typeof StoredReviewDesignSchema>;

export const ReviewFlagSchema = z.enum(['bad-question', 'unreadable-reply']);
export type ReviewFlag = z.infer<typeof ReviewFlagSchema>;

export const ReviewActionSchema = z.enum(['label', 'skip', 'flag']);
export type ReviewAction = z.infer<typeof ReviewActionSchema>;

/**
 * A judged verdict as a reviewer sees it: the conversation, the reply and the judge's question
 * with its options in the judge's order. Blinded: neither the model nor the judges' answers.
 */
export const ShownReviewItemSchema = z
  .object({
    itemId: z.string(),
    blueprintTitle: z.string(),
    /** The conversation that led to the reply (without the reply itself). */
    conversation: z.array(MessageSchema),
    reply: z.string(),
    question: JudgeQuestionSchema,
    /** The question as the judge read it (judgeStatement). */
    statement: z.string(),
    /** The options in the order the judge saw them (judgeOptions): `label` is what is stored. */
    options: z.array(z.object({ label: z.string(), text: z.string() })).min(2),
  })
  .strict();
export type ShownReviewItem = z.infer<typeof ShownReviewItemSchema>;

/** Why a pair was chosen: the two models' places in the ranking it was drawn from. */
export const StoredPairDesignSchema = z
  .object({
    /** rubric: the blueprint's model scores; pairwise: people's Bradley–Terry ranking. */
    ranking: z.enum(['rubric', 'pairwise']),
    scoreA: z.number().nullable(),
    scoreB: z.number().nullable(),
    /** |scoreA − scoreB|: pairs were taken closest first. */
    gap: z.number().nullable(),
    seed: z.number().int(),
  })
  .strict();
export type StoredPairDesign = z.infer<typeof StoredPairDesignSchema>;

/** A pair as a reviewer sees it: one prompt, two anonymous replies in the order shown. */
export const ShownPairSchema = z
  .object({
    pairId: z.string(),
    blueprintTitle: z.string(),
    conversation: z.array(MessageSchema),
    replyA: z.string(),
    replyB: z.string(),
  })
  .strict();
export type ShownPair = z.infer<typeof ShownPairSchema>;

/** An estimate with its interval; all null when there is too little to say. */
export const IntervalFigureSchema = z.object({ value: z.number().nullable(), low: z.number().nullable(), high: z.number().nullable() });
export type IntervalFigure = z.infer<typeof IntervalFigureSchema>;

/** One judge (or the panel as a whole) against people. */
export const AgreementRowSchema = z.object({
  /** A judge model id, or 'panel' for the panel's combined answer. */
  rater: z.string(),
  kind: z.enum(['judge', 'panel']),
  /** Items with at least one human label and an answer from this rater. */
  items: z.number().int().nonnegative(),
  /** Human labels on those items. */
  labels: z.number().int().nonnegative(),
  /** Krippendorff's α (interval) between the rater's value and people's mean value, bootstrap interval over items. */
  alpha: IntervalFigureSchema,
  /** Weighted Cohen's κ between the rater's most likely option and each human label (quadratic for ordered options, nominal for choices). */
  kappa: IntervalFigureSchema,
  bias: JudgeBiasSchema.nullable(),
  calibration: CalibrationSchema,
});
export type AgreementRow = z.infer<typeof AgreementRowSchema>;

/** A model's judged-point mean, judge-only and prediction-powered. */
export const ModelPpiSchema = z.object({
  modelId: z.string(),
  runId: z.string(),
  ppi: PpiEstimateSchema,
});
export type ModelPpi = z.infer<typeof ModelPpiSchema>;

export const CalibrationFiguresSchema = z.object({
  kind: z.literal('calibration'),
  /** A blueprint's id, or null for every blueprint together (the methodology page). */
  blueprintId: z.string().nullable(),
  labels: z.number().int().nonnegative(),
  items: z.number().int().nonnegative(),
  reviewers: z.number().int().nonnegative(),
  /** People against each other on items two or more labelled: the ceiling a judge is read against. */
  humanAlpha: IntervalFigureSchema.extend({ items: z.number().int().nonnegative() }),
  /** The panel first, then each judge. */
  rows: z.array(AgreementRowSchema),
  /** Per model, on the blueprint's latest run with labels (empty for every blueprint together). */
  models: z.array(ModelPpiSchema),
  level: z.number(),
  resamples: z.number().int().nonnegative(),
  seed: z.number().int(),
});
export type CalibrationFigures = z.infer<typeof CalibrationFiguresSchema>;

export const PairwiseFiguresSchema = z.object({
  kind: z.literal('pairwise'),
  ranking: PairwiseRankingSchema,
  labels: z.number().int().nonnegative(),
  reviewers: z.number().int().nonnegative(),
  blueprints: z.array(z.string()),
  /** Rank correlation with the rubric leaderboard on the models both rank (null under three). */
  correlation: z
    .object({ spearman: z.number().nullable(), kendall: z.number().nullable(), models: z.number().int().nonnegative() })
    .nullable(),
  seed: z.number().int(),
});
export type PairwiseFigures = z.infer<typeof PairwiseFiguresSchema>;

export const HumanFiguresSchema = z.discriminatedUnion('kind', [CalibrationFiguresSchema, PairwiseFiguresSchema]);
export type HumanFigures = z.infer<typeof HumanFiguresSchema>;

export const humanFiguresKey = {
  blueprint: (id: string) => `blueprint:${id}`,
  all: 'all',
  pairs: 'pairs',
} as const;
