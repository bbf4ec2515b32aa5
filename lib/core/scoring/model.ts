/**
 * Model score on a blueprint: the prompt-weighted mean of prompt scores, with a 95%
 * interval over prompts chosen from the data (model-interval.ts: Wilson for pass rates, the
 * cluster-robust normal interval from 30 prompts, BCa below) and the count of errors. Prompts
 * with no score are counted and left out of the mean (never a 0).
 */
import type { RandomGenerator } from 'pure-rand';
import { z } from 'zod';
import { checkBootstrapOptions, IntervalSchema, type BootstrapOptions } from './bootstrap';
import { modelInterval } from './model-interval';

export const ModelScoreSchema = z.object({
  score: z.number().min(0).max(1).nullable(),
  /** Null when no interval can be given (one scored prompt that is not a pass rate, or none). */
  interval: IntervalSchema.nullable(),
  prompts: z.number().int().nonnegative(),
  scored: z.number().int().nonnegative(),
  unscored: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  /** Scored attempts over the scored prompts (the observations; more than `scored` when clustered). */
  attempts: z.number().int().nonnegative(),
});
export type ModelScore = z.infer<typeof ModelScoreSchema>;

export interface PromptResult {
  id: string;
  /** The prompt's weight in the blueprint (default 1 there), > 0. */
  weight: number;
  score: number | null;
  errors?: number;
  /** Scored attempts behind `score` (repeats × systems × temperatures that got a score); default 1. */
  attempts?: number;
}

export function weightedPromptMean(items: readonly Pick<PromptResult, 'weight'>[], scores: readonly number[], indices: readonly number[]): number {
  let total = 0;
  let totalWeight = 0;
  for (const i of indices) {
    const w = (items[i] as Pick<PromptResult, 'weight'>).weight;
    total += w * (scores[i] as number);
    totalWeight += w;
  }
  return total / totalWeight;
}

function checkPrompts(prompts: readonly PromptResult[]): void {
  for (const p of prompts) {
    if (!(Number.isFinite(p.weight) && p.weight > 0)) throw new RangeError(`prompt ${p.id} has weight ${p.weight}; prompt weights must be positive`);
    if (p.score !== null && !(p.score >= 0 && p.score <= 1)) throw new RangeError(`prompt ${p.id} has score ${p.score}; scores are in [0,1] or null`);
    if (p.score !== null && p.attempts !== undefined && !(Number.isInteger(p.attempts) && p.attempts >= 1)) {
      throw new RangeError(`prompt ${p.id} has a score from ${p.attempts} scored attempts; a score needs at least 1`);
    }
  }
}

export function modelScore(prompts: readonly PromptResult[], rng: RandomGenerator, opts: BootstrapOptions = {}): ModelScore {
  const { resamples, level } = checkBootstrapOptions(opts);
  checkPrompts(prompts);
  const scored = prompts.filter((p) => p.score !== null);
  const errors = prompts.reduce((s, p) => s + (p.errors ?? 0), 0);
  const clusters = scored.map((p) => ({ weight: p.weight, mean: p.score as number, n: p.attempts ?? 1 }));
  const base = { prompts: prompts.length, scored: scored.length, unscored: prompts.length - scored.length, errors, attempts: clusters.reduce((s, c) => s + c.n, 0) };
  if (scored.length === 0) return { ...base, score: null, interval: null };
  const score = weightedPromptMean(scored, clusters.map((c) => c.mean), scored.map((_p, i) => i));
  return { ...base, score, interval: modelInterval(clusters, rng, { resamples, level }) };
}
