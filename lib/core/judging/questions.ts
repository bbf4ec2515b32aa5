/**
 * Judge questions whose answers are probabilities (docs/judging.md).
 *
 * - `noul`: one true/false statement; value = P(true). Phrase it so that true is good.
 * - `score`: ordered levels written worst first; value = expected level ÷ top level.
 * - `choice`: unordered options with credits in [0,1], or `null` = "does not apply".
 */
import { z } from 'zod';

export const NoulQuestionSchema = z.object({
  type: z.literal('noul'),
  statement: z.string().min(1),
});

export const ScoreQuestionSchema = z.object({
  type: z.literal('score'),
  question: z.string().min(1),
  /** Worst first. The order is the meaning, so it must be written explicitly. */
  levels: z.array(z.string().min(1)).min(2),
});

export const ChoiceQuestionSchema = z.object({
  type: z.literal('choice'),
  question: z.string().min(1),
  /** option label → credit in [0,1], or null for "this question does not apply". */
  options: z.record(z.string().min(1), z.number().min(0).max(1).nullable()),
});

export const JudgeQuestionSchema = z.discriminatedUnion('type', [
  NoulQuestionSchema,
  ScoreQuestionSchema,
  ChoiceQuestionSchema,
]);
export type JudgeQuestion = z.infer<typeof JudgeQuestionSchema>;
export type NoulQuestion = z.infer<typeof NoulQuestionSchema>;
export type ScoreQuestion = z.infer<typeof ScoreQuestionSchema>;
export type ChoiceQuestion = z.infer<typeof ChoiceQuestionSchema>;
