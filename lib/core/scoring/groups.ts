/**
 * Scores by group (soev's report: per `category` and per `rule`) and the per-attempt pass rate.
 *
 * A group's score is the model score of its prompts, the same named level as the blueprint's
 * (`modelScore`: the prompt-weighted mean of prompt means over scored attempts, with the
 * interval the pages use everywhere, chosen from the data by model-interval.ts). Unscored
 * attempts are left out, never a 0; a prompt without the axis is in no group of it.
 *
 * An attempt passes as soev's `ScoredAttempt.passed`: every verdict `pass` or `not_applicable`,
 * none `error` (a failed reply, with no verdicts, neither passes nor fails).
 */
import type { RandomGenerator } from 'pure-rand';
import { z } from 'zod';
import { compareCodeUnits } from '../blueprint/text';
import { IntervalSchema, type BootstrapOptions } from './bootstrap';
import { modelScore } from './model';

export const GROUP_AXES = ['category', 'rule'] as const;
export type GroupAxis = (typeof GROUP_AXES)[number];

export interface GroupedAttempt {
  promptId: string;
  /** The prompt's weight in the blueprint, > 0. */
  weight: number;
  category: string | null;
  rule: string | null;
  /** The attempt's score in [0,1], or null when it has none. */
  score: number | null;
  /** `attemptPassed` of its verdicts. */
  passed: boolean | null;
}

export const PassRateSchema = z.object({
  passed: z.number().int().nonnegative(),
  /** Attempts that passed or failed (a failed reply is neither). */
  attempts: z.number().int().nonnegative(),
  /** passed / attempts, or null without attempts. */
  rate: z.number().min(0).max(1).nullable(),
});
export type PassRate = z.infer<typeof PassRateSchema>;

export const GroupScoreSchema = z.object({
  key: z.string(),
  prompts: z.number().int().nonnegative(),
  scored: z.number().int().nonnegative(),
  attempts: z.number().int().nonnegative(),
  score: z.number().min(0).max(1).nullable(),
  interval: IntervalSchema.nullable(),
  pass: PassRateSchema,
});
export type GroupScore = z.infer<typeof GroupScoreSchema>;

export function attemptPassed(verdicts: readonly { status: string }[]): boolean | null {
  if (verdicts.length === 0) return null;
  return verdicts.every((v) => v.status === 'pass' || v.status === 'not_applicable');
}

export function passRate(attempts: readonly Pick<GroupedAttempt, 'passed'>[]): PassRate {
  const decided = attempts.filter((a) => a.passed !== null);
  const passed = decided.filter((a) => a.passed).length;
  return { passed, attempts: decided.length, rate: decided.length === 0 ? null : passed / decided.length };
}

/** One entry per value of the axis, in key order; `rng` is drawn in that order (seed it per run for stable intervals). */
export function scoresByGroup(attempts: readonly GroupedAttempt[], axis: GroupAxis, rng: RandomGenerator, opts: BootstrapOptions = {}): GroupScore[] {
  const byKey = new Map<string, GroupedAttempt[]>();
  for (const a of attempts) {
    const key = a[axis];
    if (key === null) continue;
    (byKey.get(key) ?? byKey.set(key, []).get(key)!).push(a);
  }
  return [...byKey.keys()].sort().map((key) => {
    const group = byKey.get(key)!;
    const byPrompt = new Map<string, GroupedAttempt[]>();
    for (const a of group) (byPrompt.get(a.promptId) ?? byPrompt.set(a.promptId, []).get(a.promptId)!).push(a);
    const prompts = [...byPrompt.entries()].sort(([a], [b]) => compareCodeUnits(a, b)).map(([id, list]) => {
      const scored = list.filter((a) => a.score !== null).map((a) => a.score as number);
      return { id, weight: list[0]!.weight, score: scored.length ? scored.reduce((s, x) => s + x, 0) / scored.length : null, attempts: Math.max(1, scored.length) };
    });
    const m = modelScore(prompts, rng, opts);
    return { key, prompts: m.prompts, scored: m.scored, attempts: m.attempts, score: m.score, interval: m.interval, pass: passRate(group) };
  });
}
