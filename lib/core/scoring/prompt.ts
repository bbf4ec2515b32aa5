/**
 * Prompt score: the k attempts (repeats, seed 003) of one prompt on one model → one number
 * (SPEC §3). The mean is over the attempts that have a score; an attempt with no score is
 * counted, not averaged in as 0. With a pass threshold: pass@k (some attempt passes) and
 * pass^k (every attempt passes), over the scored attempts.
 */
import { z } from 'zod';

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
  passAtK: z.boolean().nullable(),
  passHatK: z.boolean().nullable(),
});
export type PromptScore = z.infer<typeof PromptScoreSchema>;

export interface AttemptLike {
  score: number | null;
  errors?: number;
}

export function promptScore(attempts: readonly AttemptLike[], opts: { passThreshold?: number } = {}): PromptScore {
  const scores = attempts.map((a) => a.score).filter((s): s is number => s !== null);
  const errors = attempts.reduce((s, a) => s + (a.errors ?? 0), 0);
  const threshold = opts.passThreshold ?? null;
  if (threshold !== null && !(threshold >= 0 && threshold <= 1)) {
    throw new RangeError(`passThreshold must be in [0,1], got ${threshold}`);
  }
  const base = { k: attempts.length, scored: scores.length, unscored: attempts.length - scores.length, errors, passThreshold: threshold };
  if (scores.length === 0) return { ...base, score: null, std: null, passes: null, passAtK: null, passHatK: null };
  const mean = scores.reduce((s, x) => s + x, 0) / scores.length;
  const std = Math.sqrt(scores.reduce((s, x) => s + (x - mean) ** 2, 0) / scores.length);
  if (threshold === null) return { ...base, score: mean, std, passes: null, passAtK: null, passHatK: null };
  const passes = scores.filter((s) => s >= threshold).length;
  return { ...base, score: mean, std, passes, passAtK: passes > 0, passHatK: passes === scores.length };
}
