/**
 * The verdict: one point graded on one attempt. The zod schema is the type (the
 * TypeScript type is inferred from it) and every verdict stores the spec that produced it: the function name
 * and arguments, the `correct:` tree, or the judge question, so any score can be reproduced.
 */
import { z } from 'zod';
import type { Point } from '../blueprint/schema';
import { CorrectNodeSchema } from '../correct/schema';
import { DistributionMethodSchema, JudgeDistributionSchema, type JudgeDistribution } from '../judging/distribution';
import type { RegexEngine } from '../points/types';
import { JudgeQuestionSchema } from '../judging/questions';
import { judgeScaleQuestion } from '../judging/scale';

export const VerdictStatusSchema = z.enum(['pass', 'fail', 'not_applicable', 'error']);
export type VerdictStatus = z.infer<typeof VerdictStatusSchema>;

/** What produced the verdict, enough to produce it again. */
export const VerdictSpecSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('function'),
    /** The point's function name as stored (canonical, e.g. `not_contains`). */
    fn: z.string(),
    args: z.unknown(),
    /** Whether the registry resolved `fn` as the negation (`not_*`) of another function. */
    negated: z.boolean(),
  }),
  z.object({ kind: z.literal('correct'), check: CorrectNodeSchema }),
  z.object({
    kind: z.literal('criterion'),
    /** The kind's registry name (`reply.language`) and its validated parameters. */
    criterion: z.string(),
    params: z.unknown(),
  }),
  z.object({
    kind: z.literal('judge'),
    /** Plain-string points are `score` questions over the judge class scale. */
    question: JudgeQuestionSchema,
    /** Judge ids of the panel that answered. */
    judges: z.array(z.string()).optional(),
  }),
]);
export type VerdictSpec = z.infer<typeof VerdictSpecSchema>;

/** A judge panel's spread for one point: stored and shown, flagged when wide. */
export const PanelSchema = z.object({
  answered: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  std: z.number().nonnegative().nullable(),
  range: z.number().nonnegative().nullable(),
  disagree: z.boolean(),
});
export type Panel = z.infer<typeof PanelSchema>;

/** How a judged value was obtained: token log-probabilities, or sampled answers (one parsed label is a sample of 1). */
export const JudgeMethodSchema = DistributionMethodSchema;
export type JudgeMethod = z.infer<typeof JudgeMethodSchema>;

export const RegexEngineSchema = z.enum(['re2', 'sandbox']);

/**
 * The longest explanation (`detail`) a verdict keeps: a `$js` point can return any string as
 * its `explain` (a 3 MB one was once stored per verdict). Longer ones are cut
 * here, in core, before anything stores them, with a note of how much was cut.
 */
export const MAX_DETAIL_CHARS = 2_000;

export function capDetail(detail: string): string {
  if (detail.length <= MAX_DETAIL_CHARS) return detail;
  // Cut on a code point boundary so no lone surrogate is stored.
  let end = MAX_DETAIL_CHARS;
  const last = detail.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${detail.slice(0, end)}… (${detail.length - end} characters more)`;
}

// z.number() rejects NaN and ±Infinity, so a NaN can never be stored as a score (defect 10).
const Unit = z.number().min(0).max(1);

export const VerdictSchema = z
  .object({
    /** Index of the point in its prompt's flat `points` list. */
    pointIndex: z.number().int().nonnegative(),
    kind: z.enum(['text', 'function', 'question', 'correct', 'criterion']),
    /** The point as written, for display. */
    text: z.string(),
    status: VerdictStatusSchema,
    /** The score that counts (after `not_*` negation and `should_not` inversion); null when not applicable or errored. */
    score: Unit.nullable(),
    /** The check's own score before negation and inversion (what the function or the judges said). */
    rawScore: Unit.nullable(),
    /** The function's explanation, the `correct:` explanation, or the error's reason. */
    detail: z.string(),
    /** The judges' reasoning, where judged. */
    reasoning: z.string().nullable(),
    distribution: JudgeDistributionSchema.optional(),
    method: JudgeMethodSchema.optional(),
    panel: PanelSchema.optional(),
    weight: z.number().positive(),
    gate: z.boolean(),
    /** Alternative path id, or null for a required point. */
    path: z.string().nullable(),
    source: z.enum(['should', 'should_not']),
    spec: VerdictSpecSchema,
    /** For regex points: `re2` (linear-time engine) or `sandbox` (JS engine, for lookaround and backreferences). */
    regexEngine: RegexEngineSchema.nullable().optional(),
    /** A criterion's facts behind the verdict (matched ids, sentences not in the language…), JSON. */
    data: z.unknown().optional(),
  })
  .superRefine((v, ctx) => {
    const scored = v.status === 'pass' || v.status === 'fail';
    if (scored && v.score === null) ctx.addIssue({ code: 'custom', path: ['score'], message: `a ${v.status} verdict needs a score` });
    if (!scored && v.score !== null) ctx.addIssue({ code: 'custom', path: ['score'], message: `a ${v.status} verdict has no score (it is not a 0)` });
    if (v.status === 'error' && v.detail.trim() === '') ctx.addIssue({ code: 'custom', path: ['detail'], message: 'an error verdict must say what went wrong' });
  });
export type Verdict = z.infer<typeof VerdictSchema>;

/**
 * A graded score at or above this is a `pass`. The status is a summary for pages and gates;
 * aggregation always uses the graded score itself.
 */
export const PASS_AT = 0.5;

/** What a check or a judge panel produced, before the point's policy is applied. */
export type Outcome =
  | {
      score: number | boolean;
      regexEngine?: RegexEngine;
      detail?: string;
      reasoning?: string | null;
      distribution?: JudgeDistribution;
      method?: JudgeMethod;
      panel?: Panel;
    }
  | { notApplicable: true; detail?: string; reasoning?: string | null; distribution?: JudgeDistribution; method?: JudgeMethod; panel?: Panel }
  | { error: string; panel?: Panel; regexEngine?: RegexEngine };

/** The spec a point implies (function points: `negated` as the registry resolved the name). */
export function specFromPoint(point: Point, opts: { negated?: boolean; judges?: string[] } = {}): VerdictSpec {
  switch (point.kind) {
    case 'function':
      return { kind: 'function', fn: point.fn, args: point.args, negated: opts.negated ?? false };
    case 'correct':
      return { kind: 'correct', check: point.check };
    case 'question':
      return { kind: 'judge', question: point.question, ...(opts.judges ? { judges: opts.judges } : {}) };
    case 'text':
      return { kind: 'judge', question: judgeScaleQuestion(point.text), ...(opts.judges ? { judges: opts.judges } : {}) };
    case 'criterion':
      return { kind: 'criterion', criterion: point.criterion, params: point.params };
  }
}

/**
 * The verdict for one point from what its check produced. Applies, in Weval's order:
 * booleans → 1/0, numbers clamped to [0,1], then `not_*` negation (1 − s), then `should_not`
 * (judged and `correct:` points only; a should_not function point is stored as its `not_*` form)
 * inversion (1 − s). A NaN score is an `error` verdict, never a number (Weval lets it
 * through: defect 10); ±Infinity clamps as in Weval.
 */
export function verdictFromOutcome(
  point: Point,
  pointIndex: number,
  outcome: Outcome,
  opts: { negated?: boolean; spec?: VerdictSpec; judges?: string[] } = {},
): Verdict {
  const base = {
    pointIndex,
    kind: point.kind,
    text: point.text,
    weight: point.weight,
    gate: point.gate,
    path: point.path,
    source: point.source,
    spec: opts.spec ?? specFromPoint(point, opts),
    ...('regexEngine' in outcome && outcome.regexEngine ? { regexEngine: outcome.regexEngine } : {}),
  };
  const extras = (o: { distribution?: JudgeDistribution; method?: JudgeMethod; panel?: Panel }) => ({
    ...(o.distribution ? { distribution: o.distribution } : {}),
    ...(o.method ? { method: o.method } : {}),
    ...(o.panel ? { panel: o.panel } : {}),
  });

  if ('error' in outcome) {
    return {
      ...base,
      status: 'error',
      score: null,
      rawScore: null,
      detail: outcome.error.trim() === '' ? 'the check failed without a reason' : capDetail(outcome.error),
      reasoning: null,
      ...(outcome.panel ? { panel: outcome.panel } : {}),
    };
  }
  if ('notApplicable' in outcome) {
    return {
      ...base,
      status: 'not_applicable',
      score: null,
      rawScore: null,
      detail: capDetail(outcome.detail ?? 'does not apply to this reply'),
      reasoning: outcome.reasoning ?? null,
      ...extras(outcome),
    };
  }

  const n = typeof outcome.score === 'boolean' ? (outcome.score ? 1 : 0) : outcome.score;
  if (Number.isNaN(n)) {
    return {
      ...base,
      status: 'error',
      score: null,
      rawScore: null,
      detail: capDetail(`the check returned NaN, which is not a score; make it return a boolean or a number in [0,1]${outcome.detail ? ` (${outcome.detail})` : ''}`),
      reasoning: outcome.reasoning ?? null,
      ...extras(outcome),
    };
  }
  const raw = Math.max(0, Math.min(1, n));
  let score = raw;
  if (opts.negated) score = 1 - score;
  // A `should_not` function point already carries its negation in `fn` (the loader stores
  // `$contains` under should_not as `not_contains`); only judged and check points are inverted.
  if (point.source === 'should_not' && point.kind !== 'function') score = 1 - score;
  return {
    ...base,
    status: score >= PASS_AT ? 'pass' : 'fail',
    score,
    rawScore: raw,
    detail: capDetail(outcome.detail ?? ''),
    reasoning: outcome.reasoning ?? null,
    ...extras(outcome),
  };
}
