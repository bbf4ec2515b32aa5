/**
 * Percentile bootstrap over prompts. Randomness is passed in (a pure-rand generator, e.g.
 * `xoroshiro128plus(seed)`) and cloned, never mutated: the same inputs and seed give the
 * same interval, and the caller's generator is untouched.
 */
import { unsafeUniformIntDistribution, type RandomGenerator } from 'pure-rand';
import { z } from 'zod';

export const DEFAULT_RESAMPLES = 1000;
export const DEFAULT_LEVEL = 0.95;

export const IntervalSchema = z.object({
  low: z.number(),
  high: z.number(),
  level: z.number().gt(0).lt(1),
  resamples: z.number().int().positive(),
  method: z.literal('percentile-bootstrap'),
});
export type Interval = z.infer<typeof IntervalSchema>;

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

export function percentileInterval(stats: readonly number[], level: number): Interval {
  const sorted = [...stats].sort((x, y) => x - y);
  const alpha = 1 - level;
  return {
    low: quantileSorted(sorted, alpha / 2),
    high: quantileSorted(sorted, 1 - alpha / 2),
    level,
    resamples: stats.length,
    method: 'percentile-bootstrap',
  };
}
