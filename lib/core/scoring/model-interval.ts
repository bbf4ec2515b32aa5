/**
 * The interval of a model's score on a blueprint, by a method chosen from the data:
 *
 * - a pass rate (every prompt scored 0 or 1, equal weights): Wilson, at any n — the normal
 *   interval is poor for proportions even at large n near 0% or 100%. With several attempts
 *   per prompt a 0 or 1 means they all agreed (intra-prompt correlation 1), so the trials are
 *   the prompts: Wilson over prompts, the attempts adding no independent information. (Without
 *   this, a model passing every attempt of every prompt would get the zero-width interval
 *   [1, 1] from any resampling of its prompts.);
 * - 30 prompts or more: the normal interval on the cluster-robust SE (Miller 2024), where the
 *   central limit theorem has taken hold;
 * - 2 to 29 prompts: the BCa cluster bootstrap, which holds at small n and for skewed scores;
 * - fewer than 2 prompts otherwise: none (there is no spread to measure).
 *
 * Clusters are prompts; n counts their scored attempts. The returned interval carries its
 * method, n, clusters and level.
 */
import type { RandomGenerator } from 'pure-rand';
import type { Interval, IntervalMethod } from './bootstrap';
import { bcaInterval } from './interval-bca';
import { clusteredMean, clusteredNormalInterval, type Cluster } from './interval-clustered';
import { wilsonInterval } from './interval-wilson';

/** Below this many prompts the normal approximation is not trusted (Miller 2024 §2; the usual rule of thumb). */
import { MIN_PROMPTS_FOR_INTERVAL } from './sample-size';

export const MIN_PROMPTS_FOR_NORMAL = 30;

/** Every prompt scored 0 or 1 (all its attempts failed, or all passed), at equal weights. */
export function isPassRate(clusters: readonly Cluster[]): boolean {
  const w = clusters[0]?.weight;
  return clusters.length > 0 && clusters.every((c) => (c.mean === 0 || c.mean === 1) && c.weight === w);
}

/** Which interval the data call for; null when none can be given. */
export function chooseIntervalMethod(clusters: readonly Cluster[]): IntervalMethod | null {
  // one prompt has nothing to resample (even a pass rate of 1 of 1): no interval, said as such on every page
  if (clusters.length < MIN_PROMPTS_FOR_INTERVAL) return null;
  if (isPassRate(clusters)) return 'wilson';
  return clusters.length >= MIN_PROMPTS_FOR_NORMAL ? 'normal-clustered' : 'bca-bootstrap';
}

function checkClusters(clusters: readonly Cluster[]): void {
  for (const [i, c] of clusters.entries()) {
    if (!(Number.isFinite(c.weight) && c.weight > 0)) throw new RangeError(`prompt ${i + 1} has weight ${c.weight}; prompt weights must be positive`);
    if (!(c.mean >= 0 && c.mean <= 1)) throw new RangeError(`prompt ${i + 1} has mean score ${c.mean}; scores are in [0,1]`);
    if (!(Number.isInteger(c.n) && c.n >= 1)) throw new RangeError(`prompt ${i + 1} has ${c.n} scored attempts; a prompt with a score has at least 1`);
  }
}

export function modelInterval(clusters: readonly Cluster[], rng: RandomGenerator, opts: { resamples: number; level: number }): Interval | null {
  checkClusters(clusters);
  const method = chooseIntervalMethod(clusters);
  const n = clusters.reduce((s, c) => s + c.n, 0);
  if (method === 'wilson') return wilsonInterval(clusters.filter((c) => c.mean === 1).length, clusters.length, opts.level, { n, clusters: clusters.length });
  if (method === 'normal-clustered') return clusteredNormalInterval(clusters, opts.level);
  if (method === 'bca-bootstrap') return bcaInterval(clusters.length, (idx) => clusteredMean(idx.map((i) => clusters[i] as Cluster)), rng, { ...opts, n });
  return null;
}
