/**
 * Bias-corrected and accelerated (BCa) bootstrap interval over prompts (Efron 1987; Efron &
 * Tibshirani 1993, ch. 14), for fewer prompts than the normal approximation needs. Prompts are
 * the resampled unit: when a prompt has several attempts, it is drawn with all of them (a
 * cluster bootstrap), which for a mean of prompt means is resampling the prompt means.
 *
 *   z₀ = Φ⁻¹(share of resampled θ* below θ̂)                 (median bias)
 *   a  = Σ (θ̄₍·₎ − θ₍ᵢ₎)³ / (6 [Σ (θ̄₍·₎ − θ₍ᵢ₎)²]^{3/2})     (skewness, leave-one-prompt-out jackknife)
 *   α₁ = Φ(z₀ + (z₀ + z_{α/2}) / (1 − a(z₀ + z_{α/2}))),  α₂ likewise with z_{1−α/2}
 *   interval = the α₁ and α₂ quantiles of θ*
 *
 * With z₀ = a = 0 it is the percentile interval. Randomness comes from the caller's
 * generator, cloned (see bootstrap.ts), so a seed gives the same interval every time.
 */
import type { RandomGenerator } from 'pure-rand';
import { bootstrapStatistics, quantileSorted, type Interval, type SampleSize } from './bootstrap';
import { normalCdf, normalQuantile } from './distributions';

/** The jackknife acceleration from leave-one-out estimates θ₍ᵢ₎; 0 when they do not vary. */
export function bcaAcceleration(jackknife: readonly number[]): number {
  const mean = jackknife.reduce((s, x) => s + x, 0) / jackknife.length;
  let num = 0;
  let den = 0;
  for (const t of jackknife) {
    const d = mean - t;
    num += d ** 3;
    den += d ** 2;
  }
  return den === 0 ? 0 : num / (6 * den ** 1.5);
}

/**
 * z₀ from the resampled statistics. Resamples equal to θ̂ count half: with discrete scores
 * (0/1, or k-attempt means) many resamples tie the estimate exactly, and counting them all
 * below or all above would bias z₀ where the distribution is symmetric. The share is kept
 * within [1/2B, 1 − 1/2B] so z₀ stays finite when θ̂ lies outside every resample.
 */
export function bcaBiasCorrection(theta: number, stats: readonly number[]): number {
  let below = 0;
  for (const s of stats) below += s < theta ? 1 : s === theta ? 0.5 : 0;
  const b = stats.length;
  const share = Math.min(1 - 1 / (2 * b), Math.max(1 / (2 * b), below / b));
  return normalQuantile(share);
}

/** The BCa interval from θ̂, its resampled values and its jackknife values: deterministic. */
export function bcaFromStatistics(theta: number, stats: readonly number[], jackknife: readonly number[], level: number, sample: SampleSize): Interval {
  const sorted = [...stats].sort((x, y) => x - y);
  const base = { level, method: 'bca-bootstrap' as const, n: sample.n, clusters: sample.clusters, resamples: stats.length };
  // Every resample gives θ̂ up to rounding (no spread between prompts): nothing to correct.
  if ((sorted[sorted.length - 1] as number) - (sorted[0] as number) <= 1e-12 * Math.max(1, Math.abs(theta))) return { ...base, low: theta, high: theta };
  const z0 = bcaBiasCorrection(theta, stats);
  const a = bcaAcceleration(jackknife);
  const adjusted = (zAlpha: number) => normalCdf(z0 + (z0 + zAlpha) / (1 - a * (z0 + zAlpha)));
  const alpha = (1 - level) / 2;
  return { ...base, low: quantileSorted(sorted, adjusted(normalQuantile(alpha))), high: quantileSorted(sorted, adjusted(normalQuantile(1 - alpha))) };
}

/**
 * BCa over `g` clusters for `statistic(indices)`, the statistic on the clusters drawn (indices
 * may repeat). Needs g ≥ 2 (a jackknife of one cluster has nothing to leave out).
 */
export function bcaInterval(
  g: number,
  statistic: (indices: readonly number[]) => number,
  rng: RandomGenerator,
  opts: { resamples: number; level: number; n: number },
): Interval {
  if (g < 2) throw new RangeError(`a BCa interval needs at least 2 prompts, got ${g}`);
  const all = Array.from({ length: g }, (_v, i) => i);
  const theta = statistic(all);
  const stats = bootstrapStatistics(g, statistic, rng, opts.resamples);
  const jackknife = all.map((leave) => statistic(all.filter((i) => i !== leave)));
  return bcaFromStatistics(theta, stats, jackknife, opts.level, { n: opts.n, clusters: g });
}
