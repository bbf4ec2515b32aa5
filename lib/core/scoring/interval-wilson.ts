/**
 * Wilson score interval for a pass rate: `successes` of `n` independent 0/1 observations.
 * Unlike the normal (Wald) interval it never leaves [0,1] and does not collapse to a point at
 * 0/n or n/n, so it holds at small n (Brown, Cai & DasGupta 2001): 5/5 → 56.6%–100% at 95%.
 */
import type { Interval, SampleSize } from './bootstrap';
import { zForLevel } from './distributions';

/**
 * `sample`: what the interval rests on when the n trials are clusters (prompts whose attempts
 * all agree count once each); default n observations in n clusters.
 */
export function wilsonInterval(successes: number, n: number, level: number, sample: SampleSize = { n, clusters: n }): Interval {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`a Wilson interval needs n ≥ 1 observations, got ${n}`);
  if (!Number.isInteger(successes) || successes < 0 || successes > n) throw new RangeError(`successes must be a whole number in [0, ${n}], got ${successes}`);
  const z = zForLevel(level);
  const p = successes / n;
  const z2n = (z * z) / n;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (z / (1 + z2n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  // At 0/n and n/n the bound on that side is exactly 0 or 1; floating point would leave 1e-17 off.
  return {
    low: successes === 0 ? 0 : Math.max(0, centre - half),
    high: successes === n ? 1 : Math.min(1, centre + half),
    level,
    method: 'wilson',
    n: sample.n,
    clusters: sample.clusters,
    resamples: null,
  };
}
