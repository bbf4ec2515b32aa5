/**
 * Intervals, and the percentile bootstrap over prompts. Randomness is passed in (a pure-rand
 * generator, e.g. `xoroshiro128plus(seed)`) and cloned, never mutated: the same inputs and
 * seed give the same interval, and the caller's generator is untouched.
 *
 * Every interval says how it was made (`method`), what it rests on (`n` observations — attempts
 * — in `clusters` independent units — prompts) and its `level`, so a page can print
 * "95% CI 61–74 · 40 prompts, 120 attempts · clustered" beside it. `resamples` is null for the
 * closed-form methods.
 */
import { unsafeUniformIntDistribution, type RandomGenerator } from 'pure-rand';
import { z } from 'zod';

export const DEFAULT_RESAMPLES = 1000;
export const DEFAULT_LEVEL = 0.95;

/**
 * - `percentile-bootstrap`: quantiles of the resampled statistic (paired differences, leaderboard).
 * - `bca-bootstrap`: bias-corrected and accelerated bootstrap over prompts (Efron 1987), a
 *   cluster bootstrap when prompts have several attempts (each prompt resampled with all of them).
 * - `normal-clustered`: mean ± z·SE with the cluster-robust SE and the G/(G−1) correction
 *   (Miller 2024); with one attempt per prompt it is the ordinary SE of the mean.
 * - `wilson`: Wilson score interval for a pass rate (every observation 0 or 1, independent).
 */
export const IntervalMethodSchema = z.enum(['percentile-bootstrap', 'bca-bootstrap', 'normal-clustered', 'wilson']);
export type IntervalMethod = z.infer<typeof IntervalMethodSchema>;

export const IntervalSchema = z.object({
  low: z.number(),
  high: z.number(),
  level: z.number().gt(0).lt(1),
  method: IntervalMethodSchema,
  /** Observations the interval rests on (attempts; pairs for a paired difference). */
  n: z.number().int().nonnegative(),
  /** Independent units resampled or clustered on (prompts); n > clusters means clustered. */
  clusters: z.number().int().nonnegative(),
  /** Bootstrap resamples B; null for closed-form methods (normal, Wilson). */
  resamples: z.number().int().positive().nullable(),
});
export type Interval = z.infer<typeof IntervalSchema>;

/** What an interval rests on: observations and independent clusters. */
export interface SampleSize {
  n: number;
  clusters: number;
}

export interface BootstrapOptions {
  /** Number of bootstrap resamples B (default 1000). */
  resamples?: number;
  /** Confidence level (default 0.95). */
  level?: number;
}

export function checkBootstrapOptions(opts: BootstrapOptions): { resamples: number; level: number } {
  const resamples = opts.resamples ?? DEFAULT_RESAMPLES;
  const level = opts.level ?? DEFAULT_LEVEL;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0,1), e.g. 0.95; got ${level}`);
  return { resamples, level };
}

/** Linear-interpolation quantile of sorted values (R type 7). */
export function quantileSorted(sorted: readonly number[], q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (h - lo) * (b - a);
}

/**
 * Statistic values on B resamples of `n` items drawn with replacement. `statistic` gets the
 * drawn indices (the same index may repeat).
 */
export function bootstrapStatistics(n: number, statistic: (indices: readonly number[]) => number, rng: RandomGenerator, resamples: number): number[] {
  const g = rng.clone();
  const out: number[] = [];
  const indices = new Array<number>(n).fill(0);
  for (let b = 0; b < resamples; b++) {
    for (let i = 0; i < n; i++) indices[i] = unsafeUniformIntDistribution(0, n - 1, g);
    out.push(statistic(indices));
  }
  return out;
}

/** `sample` is what was resampled: for a paired difference, n = clusters = the pairs. */
export function percentileInterval(stats: readonly number[], level: number, sample: SampleSize): Interval {
  const sorted = [...stats].sort((x, y) => x - y);
  const alpha = 1 - level;
  return {
    low: quantileSorted(sorted, alpha / 2),
    high: quantileSorted(sorted, 1 - alpha / 2),
    level,
    method: 'percentile-bootstrap',
    n: sample.n,
    clusters: sample.clusters,
    resamples: stats.length,
  };
}
