/**
 * Two models on the same prompts (the paired comparison behind the leaderboards). Only prompts
 * scored for both models are paired; the rest are counted. Over the paired prompts:
 *
 *  - the prompt-weighted mean of the per-prompt differences A − B (> 0 favours A);
 *  - its 95% interval and p-value from a **paired t-test** on the per-prompt differences
 *    (`tInterval`, `tTestP`). Why t and not only the bootstrap: a difference of two bounded
 *    scores averaged over tens of prompts is close to normal, the t interval keeps its
 *    coverage at small n where a percentile bootstrap is too narrow, and interval and p agree
 *    (the interval excludes 0 exactly when p < 1 − level), which the tied bands rely on. With
 *    unequal prompt weights the standard error is the linearised (sandwich) one of a weighted
 *    mean, n/(n−1) · Σ wᵢ²(dᵢ − d̄)² / (Σw)², which is s²/n when the weights are equal; df = n − 1
 *    (n − strata for a stratified comparison, see `boardPairedComparison`);
 *  - the paired percentile-bootstrap interval (`interval`, prompts resampled together, so prompt
 *    difficulty cancels), kept beside it as a check that does not assume normality;
 *  - the exact two-sided sign test on wins and losses (`signTestP`), which uses only the signs;
 *  - the (weighted) Pearson correlation of the two models' per-prompt scores: the higher it is,
 *    the more pairing gains over comparing two independent means.
 */
import type { RandomGenerator } from 'pure-rand';
import { z } from 'zod';
import { bootstrapStatistics, checkBootstrapOptions, IntervalSchema, percentileInterval, type BootstrapOptions } from './bootstrap';
import { weightedPromptMean, type PromptResult } from './model';
import { tCritical, tTwoSidedP } from './distributions';

export const PairedTIntervalSchema = z.object({
  low: z.number(),
  high: z.number(),
  level: z.number().gt(0).lt(1),
  method: z.literal('paired-t'),
});
export type PairedTInterval = z.infer<typeof PairedTIntervalSchema>;

export const PairedComparisonSchema = z.object({
  paired: z.number().int().nonnegative(),
  /** Prompts scored for one model only, or for neither. */
  unpaired: z.number().int().nonnegative(),
  meanA: z.number().nullable(),
  meanB: z.number().nullable(),
  /** Weighted mean of A − B over paired prompts; > 0 favours A. */
  meanDiff: z.number().nullable(),
  /** Paired percentile bootstrap; null with fewer than two pairs or when not computed (a stratified board comparison). */
  interval: IntervalSchema.nullable(),
  wins: z.number().int().nonnegative(),
  losses: z.number().int().nonnegative(),
  ties: z.number().int().nonnegative(),
  /** Exact two-sided binomial sign-test p-value over wins vs losses (ties dropped); null with no untied pair. */
  signTestP: z.number().min(0).max(1).nullable(),
  /** Paired prompts (the same as `paired`, named as pages show it). */
  n: z.number().int().nonnegative(),
  /** Standard error of `meanDiff`; null with fewer than two pairs. */
  se: z.number().nonnegative().nullable(),
  /** Degrees of freedom of the t-test; null with fewer than two pairs. */
  df: z.number().int().positive().nullable(),
  /** The paired-t interval of `meanDiff`; null with fewer than two pairs. */
  tInterval: PairedTIntervalSchema.nullable(),
  /** Two-sided paired t-test p-value of meanDiff = 0; null with fewer than two pairs. */
  tTestP: z.number().min(0).max(1).nullable(),
  /** Pearson correlation of the two models' per-prompt scores; null when either is constant. */
  correlation: z.number().min(-1).max(1).nullable(),
});
export type PairedComparison = z.infer<typeof PairedComparisonSchema>;

/** Differences smaller than this are ties (scores are means of floats). */
const TIE = 1e-9;

/** P(X ≤ m) for X ~ Binomial(n, 1/2), summed in log space so large n does not underflow. */
export function binomialHalfCdf(m: number, n: number): number {
  if (m < 0) return 0;
  if (m >= n) return 1;
  let logPmf = -n * Math.LN2;
  let maxLog = logPmf;
  const logs = [logPmf];
  for (let i = 0; i < m; i++) {
    logPmf += Math.log(n - i) - Math.log(i + 1);
    logs.push(logPmf);
    maxLog = Math.max(maxLog, logPmf);
  }
  return Math.min(1, Math.exp(maxLog) * logs.reduce((s, l) => s + Math.exp(l - maxLog), 0));
}

/** Exact two-sided sign test: 2 · P(X ≤ min(wins, losses)), capped at 1. */
export function signTest(wins: number, losses: number): number | null {
  const n = wins + losses;
  if (n === 0) return null;
  return Math.min(1, 2 * binomialHalfCdf(Math.min(wins, losses), n));
}

/** One paired prompt: its weight, both scores, and (for a stratified comparison) its stratum. */
export interface Pair {
  weight: number;
  a: number;
  b: number;
  stratum?: string;
}

export interface PairedTTest {
  n: number;
  meanDiff: number;
  se: number;
  df: number;
  tInterval: PairedTInterval;
  tTestP: number;
}

/**
 * The paired t-test of the weighted mean difference. Pairs with a `stratum` are a stratified
 * sample (the strata's shares of the total weight are fixed, e.g. blueprints on a board): the
 * variance is summed within strata, df = n − strata, and a stratum of one pair adds no variance
 * it could estimate. Null below two pairs or with no degrees of freedom left.
 */
export function pairedTTest(pairs: readonly Pair[], level = 0.95): PairedTTest | null {
  const n = pairs.length;
  const strata = new Map<string, Pair[]>();
  for (const p of pairs) {
    const group = strata.get(p.stratum ?? '');
    if (group) group.push(p);
    else strata.set(p.stratum ?? '', [p]);
  }
  const df = n - strata.size;
  if (n < 2 || df < 1) return null;
  const total = pairs.reduce((s, p) => s + p.weight, 0);
  const meanDiff = pairs.reduce((s, p) => s + p.weight * (p.a - p.b), 0) / total;
  let variance = 0;
  for (const group of strata.values()) {
    if (group.length < 2) continue;
    const w = group.reduce((s, p) => s + p.weight, 0);
    const m = group.reduce((s, p) => s + p.weight * (p.a - p.b), 0) / w;
    const ss = group.reduce((s, p) => s + p.weight ** 2 * (p.a - p.b - m) ** 2, 0);
    variance += (group.length / (group.length - 1)) * ss;
  }
  // float noise from differences that are equal on paper is no spread
  const raw = Math.sqrt(variance) / total;
  const se = raw < 1e-12 ? 0 : raw;
  const half = tCritical(level, df) * se;
  // Identical differences everywhere: no spread, so the difference is exact (p 0 unless it is 0).
  const tTestP = se === 0 ? (Math.abs(meanDiff) <= TIE ? 1 : 0) : tTwoSidedP(meanDiff / se, df);
  return { n, meanDiff, se, df, tInterval: { low: meanDiff - half, high: meanDiff + half, level, method: 'paired-t' }, tTestP };
}

/** Weighted Pearson correlation of the A and B scores of the pairs; null when either side is constant. */
export function pairedCorrelation(pairs: readonly Pair[]): number | null {
  if (pairs.length < 2) return null;
  const w = pairs.reduce((s, p) => s + p.weight, 0);
  const ma = pairs.reduce((s, p) => s + p.weight * p.a, 0) / w;
  const mb = pairs.reduce((s, p) => s + p.weight * p.b, 0) / w;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (const p of pairs) {
    sab += p.weight * (p.a - ma) * (p.b - mb);
    saa += p.weight * (p.a - ma) ** 2;
    sbb += p.weight * (p.b - mb) ** 2;
  }
  if (saa <= 1e-18 || sbb <= 1e-18) return null;
  return Math.max(-1, Math.min(1, sab / Math.sqrt(saa * sbb)));
}

/** Everything but the bootstrap, from pairs already matched. */
export function comparePairs(pairs: readonly Pair[], unpaired: number, level = 0.95): PairedComparison {
  const diffs = pairs.map((p) => p.a - p.b);
  const wins = diffs.filter((d) => d > TIE).length;
  const losses = diffs.filter((d) => d < -TIE).length;
  const ties = diffs.length - wins - losses;
  const base = { paired: pairs.length, n: pairs.length, unpaired, wins, losses, ties, signTestP: signTest(wins, losses), interval: null };
  const none = { se: null, df: null, tInterval: null, tTestP: null };
  if (pairs.length === 0) return { ...base, ...none, meanA: null, meanB: null, meanDiff: null, correlation: null };
  const all = pairs.map((_p, i) => i);
  const meanA = weightedPromptMean(pairs, pairs.map((p) => p.a), all);
  const meanB = weightedPromptMean(pairs, pairs.map((p) => p.b), all);
  const meanDiff = weightedPromptMean(pairs, diffs, all);
  const t = pairedTTest(pairs, level);
  const tFields = t ? { se: t.se, df: t.df, tInterval: t.tInterval, tTestP: t.tTestP } : none;
  return { ...base, ...tFields, meanA, meanB, meanDiff, correlation: pairedCorrelation(pairs) };
}

/**
 * The prompts scored in both lists, as pairs (A's score, B's score, the prompt's weight), and how
 * many prompts of either list are not paired. A prompt weighted differently on the two sides is
 * refused: the pair would have no one weight.
 */
export function matchPairs(a: readonly PromptResult[], b: readonly PromptResult[]): { pairs: Pair[]; unpaired: number } {
  const byId = new Map(b.map((p) => [p.id, p]));
  const pairs: Pair[] = [];
  for (const pa of a) {
    const pb = byId.get(pa.id);
    if (pb && pa.score !== null && pb.score !== null) {
      if (pa.weight !== pb.weight) throw new RangeError(`prompt ${pa.id} has weight ${pa.weight} for A and ${pb.weight} for B; compare runs of the same blueprint version`);
      pairs.push({ weight: pa.weight, a: pa.score, b: pb.score });
    }
  }
  const ids = new Set([...a.map((p) => p.id), ...b.map((p) => p.id)]);
  return { pairs, unpaired: ids.size - pairs.length };
}

export function pairedComparison(
  a: readonly PromptResult[],
  b: readonly PromptResult[],
  rng: RandomGenerator,
  opts: BootstrapOptions = {},
): PairedComparison {
  const { resamples, level } = checkBootstrapOptions(opts);
  const { pairs, unpaired } = matchPairs(a, b);
  const result = comparePairs(pairs, unpaired, level);
  if (pairs.length < 2) return result;
  const diffs = pairs.map((p) => p.a - p.b);
  const stats = bootstrapStatistics(pairs.length, (idx) => weightedPromptMean(pairs, diffs, idx), rng, resamples);
  return { ...result, interval: percentileInterval(stats, level, { n: pairs.length, clusters: pairs.length }) };
}

/** One model's score on one prompt of one blueprint of a board. */
export interface BoardPromptScore {
  blueprintId: string;
  promptKey: string;
  weight: number;
  score: number | null;
}

/**
 * Two models on a board (the blueprints they were both scored on): the difference of their
 * board scores restricted to the prompts they share. A board score is the plain mean of
 * blueprint scores, so each blueprint gets an equal share of the weight, split over its shared
 * prompts by prompt weight; the t-test is stratified by blueprint (the board is about these
 * blueprints: their shares are fixed, the prompts inside them are the sample). Prompt weights
 * may differ when the two models' latest runs are of different versions: the pair takes the
 * mean of the two. No bootstrap here (`interval` null): the t interval is the one shown.
 */
export function boardPairedComparison(a: readonly BoardPromptScore[], b: readonly BoardPromptScore[], level = 0.95): PairedComparison {
  const key = (p: BoardPromptScore) => `${p.blueprintId}\u0000${p.promptKey}`;
  const byKey = new Map(b.map((p) => [key(p), p]));
  const raw: (Pair & { stratum: string })[] = [];
  for (const pa of a) {
    const pb = byKey.get(key(pa));
    if (pb && pa.score !== null && pb.score !== null) raw.push({ stratum: pa.blueprintId, weight: (pa.weight + pb.weight) / 2, a: pa.score, b: pb.score });
  }
  const stratumWeight = new Map<string, number>();
  for (const p of raw) stratumWeight.set(p.stratum, (stratumWeight.get(p.stratum) ?? 0) + p.weight);
  const pairs = raw.map((p) => ({ ...p, weight: p.weight / (stratumWeight.get(p.stratum) as number) }));
  const keys = new Set([...a.map(key), ...b.map(key)]);
  return comparePairs(pairs, keys.size - pairs.length, level);
}
