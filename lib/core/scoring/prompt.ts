/**
 * Prompt score: the k attempts (the blueprint's `repeats`) of one prompt on one model → one
 * number. The mean is over the attempts that have a score; an attempt with no score is
 * counted, not averaged in as 0. With a pass threshold (the blueprint's `pass_threshold`):
 * the passes, and the unbiased pass@k / pass^k for every k up to the scored attempts
 * (pass-at-k.ts); `passAtK`/`passHatK` are those at k = n (any / every attempt passed).
 */
import { z } from 'zod';
import { passCurve, PassCurveSchema } from './pass-at-k';

export const PromptScoreSchema = z.object({
  score: z.number().min(0).max(1).nullable(),
  /** Attempts made. */
  k: z.number().int().nonnegative(),
  scored: z.number().int().nonnegative(),
  /** Attempts with no score (all their verdicts errored). */
  unscored: z.number().int().nonnegative(),
  /** Error verdicts across the attempts. */
  errors: z.number().int().nonnegative(),
  /** Population standard deviation of the scored attempts (how stable the model is on this prompt). */
  std: z.number().nonnegative().nullable(),
  passThreshold: z.number().min(0).max(1).nullable(),
  /** Scored attempts at or above the threshold; null without a threshold. */
  passes: z.number().int().nonnegative().nullable(),
  /** pass@n and pass^n (n = scored attempts): 1 or 0; null without a threshold or a score. */
  passAtK: z.number().min(0).max(1).nullable(),
  passHatK: z.number().min(0).max(1).nullable(),
  /** pass@k and pass^k for k = 1..scored; null without a threshold or a score. */
  passCurve: PassCurveSchema.nullable(),
});
export type PromptScore = z.infer<typeof PromptScoreSchema>;

export interface AttemptLike {
  score: number | null;
  errors?: number;
}

export function promptScore(attempts: readonly AttemptLike[], opts: { passThreshold?: number | null } = {}): PromptScore {
  const scores = attempts.map((a) => a.score).filter((s): s is number => s !== null);
  const errors = attempts.reduce((s, a) => s + (a.errors ?? 0), 0);
  const threshold = opts.passThreshold ?? null;
  if (threshold !== null && !(threshold >= 0 && threshold <= 1)) {
    throw new RangeError(`passThreshold must be in [0,1], got ${threshold}`);
  }
  const base = { k: attempts.length, scored: scores.length, unscored: attempts.length - scores.length, errors, passThreshold: threshold };
  const none = { passes: null, passAtK: null, passHatK: null, passCurve: null };
  if (scores.length === 0) return { ...base, score: null, std: null, ...none };
  const mean = scores.reduce((s, x) => s + x, 0) / scores.length;
  const std = Math.sqrt(scores.reduce((s, x) => s + (x - mean) ** 2, 0) / scores.length);
  if (threshold === null) return { ...base, score: mean, std, ...none };
  const passes = scores.filter((s) => s >= threshold).length;
  const curve = passCurve(scores.length, passes);
  const last = curve[curve.length - 1]!;
  return { ...base, score: mean, std, passes, passAtK: last.passAtK, passHatK: last.passHatK, passCurve: curve };
}
