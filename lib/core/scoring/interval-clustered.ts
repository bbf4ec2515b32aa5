/**
 * Cluster-robust standard error of a mean over prompts, and the normal interval on it
 * (Miller 2024, "Adding Error Bars to Evals", arXiv 2411.00640, §2.2). The attempts of one
 * prompt (repeats, system prompts, temperatures) are not independent, so the unit of
 * sampling is the prompt: cluster c contributes its weighted residual w_c·(m_c − θ), and
 *
 *   θ      = Σ w_c m_c / Σ w_c
 *   SE²    = G/(G−1) · Σ_c w_c² (m_c − θ)² / (Σ_c w_c)²
 *
 * (the CR1 sandwich with the finite-cluster correction G/(G−1)). With w_c = n_c, the attempts
 * of the prompt, θ is the mean over all attempts and Σ_c n_c²(m_c − θ)² = Σ_c (Σ_i (s_ic − θ))²
 * is Miller's within-cluster cross terms plus the CLT term; with one attempt per prompt and
 * equal weights, SE² = s²/G, the textbook standard error of the mean.
 */
import type { Interval } from './bootstrap';
import { zForLevel } from './distributions';

/** One prompt: its weight in the mean, its mean over scored attempts, and how many attempts. */
export interface Cluster {
  weight: number;
  mean: number;
  /** Scored attempts (observations) in the cluster, ≥ 1. */
  n: number;
}

export function clusteredMean(clusters: readonly Cluster[]): number {
  let total = 0;
  let weight = 0;
  for (const c of clusters) {
    total += c.weight * c.mean;
    weight += c.weight;
  }
  return total / weight;
}

/** The cluster-robust SE with the G/(G−1) correction; needs G ≥ 2 clusters. */
export function clusteredStandardError(clusters: readonly Cluster[]): number {
  const g = clusters.length;
  if (g < 2) throw new RangeError(`a clustered standard error needs at least 2 prompts, got ${g}`);
  const theta = clusteredMean(clusters);
  let sum = 0;
  let weight = 0;
  for (const c of clusters) {
    sum += (c.weight * (c.mean - theta)) ** 2;
    weight += c.weight;
  }
  return Math.sqrt((g / (g - 1)) * (sum / (weight * weight)));
}

/** θ ± z·SE, clipped to the score range [0,1]. */
export function clusteredNormalInterval(clusters: readonly Cluster[], level: number): Interval {
  const theta = clusteredMean(clusters);
  const half = zForLevel(level) * clusteredStandardError(clusters);
  return {
    low: Math.max(0, theta - half),
    high: Math.min(1, theta + half),
    level,
    method: 'normal-clustered',
    n: clusters.reduce((s, c) => s + c.n, 0),
    clusters: clusters.length,
    resamples: null,
  };
}
