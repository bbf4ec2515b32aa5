/**
 * Model score on a blueprint (SPEC §3): the prompt-weighted mean of prompt scores, with a
 * percentile-bootstrap interval over prompts and the count of errors. Prompts with no score
 * are counted and left out of the mean (never a 0).
 */
import type { RandomGenerator } from 'pure-rand';
import { z } from 'zod';
import { bootstrapStatistics, checkBootstrapOptions, IntervalSchema, percentileInterval, type BootstrapOptions } from './bootstrap';

export const ModelScoreSchema = z.object({
  score: z.number().min(0).max(1).nullable(),
  /** Null when fewer than two prompts have a score (no spread to resample). */
  interval: IntervalSchema.nullable(),
  prompts: z.number().int().nonnegative(),
  scored: z.number().int().nonnegative(),
  unscored: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
});
export type ModelScore = z.infer<typeof ModelScoreSchema>;

export interface PromptResult {
  id: string;
  /** The prompt's weight in the blueprint (default 1 there), > 0. */
  weight: number;
  score: number | null;
  errors?: number;
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

function checkWeights(prompts: readonly PromptResult[]): void {
  for (const p of prompts) {
    if (!(Number.isFinite(p.weight) && p.weight > 0)) throw new RangeError(`prompt ${p.id} has weight ${p.weight}; prompt weights must be positive`);
    if (p.score !== null && !(p.score >= 0 && p.score <= 1)) throw new RangeError(`prompt ${p.id} has score ${p.score}; scores are in [0,1] or null`);
  }
}

export function modelScore(prompts: readonly PromptResult[], rng: RandomGenerator, opts: BootstrapOptions = {}): ModelScore {
  const { resamples, level } = checkBootstrapOptions(opts);
  checkWeights(prompts);
  const scored = prompts.filter((p) => p.score !== null);
  const errors = prompts.reduce((s, p) => s + (p.errors ?? 0), 0);
  const base = { prompts: prompts.length, scored: scored.length, unscored: prompts.length - scored.length, errors };
  if (scored.length === 0) return { ...base, score: null, interval: null };
  const scores = scored.map((p) => p.score as number);
  const all = scored.map((_p, i) => i);
  const score = weightedPromptMean(scored, scores, all);
  if (scored.length < 2) return { ...base, score, interval: null };
  const stats = bootstrapStatistics(scored.length, (idx) => weightedPromptMean(scored, scores, idx), rng, resamples);
  return { ...base, score, interval: percentileInterval(stats, level) };
}
