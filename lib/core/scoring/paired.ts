/**
 * Two models on the same prompts (SPEC §3 leaderboards): the prompt-weighted mean of the
 * per-prompt differences A − B with a paired percentile-bootstrap interval (prompts are
 * resampled together, so prompt difficulty cancels), and an exact two-sided sign test on
 * wins and losses. Only prompts scored for both models are paired; the rest are counted.
 */
import type { RandomGenerator } from 'pure-rand';
import { z } from 'zod';
import { bootstrapStatistics, checkBootstrapOptions, IntervalSchema, percentileInterval, type BootstrapOptions } from './bootstrap';
import { weightedPromptMean, type PromptResult } from './model';

export const PairedComparisonSchema = z.object({
  paired: z.number().int().nonnegative(),
  /** Prompts scored for one model only, or for neither. */
  unpaired: z.number().int().nonnegative(),
  meanA: z.number().nullable(),
  meanB: z.number().nullable(),
  /** Weighted mean of A − B over paired prompts; > 0 favours A. */
  meanDiff: z.number().nullable(),
  interval: IntervalSchema.nullable(),
  wins: z.number().int().nonnegative(),
  losses: z.number().int().nonnegative(),
  ties: z.number().int().nonnegative(),
  /** Exact two-sided binomial sign-test p-value over wins vs losses (ties dropped); null with no untied pair. */
  signTestP: z.number().min(0).max(1).nullable(),
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

export function pairedComparison(
  a: readonly PromptResult[],
  b: readonly PromptResult[],
  rng: RandomGenerator,
  opts: BootstrapOptions = {},
): PairedComparison {
  const { resamples, level } = checkBootstrapOptions(opts);
  const byId = new Map(b.map((p) => [p.id, p]));
  const pairs: { weight: number; a: number; b: number }[] = [];
  for (const pa of a) {
    const pb = byId.get(pa.id);
    if (pb && pa.score !== null && pb.score !== null) {
      if (pa.weight !== pb.weight) throw new RangeError(`prompt ${pa.id} has weight ${pa.weight} for A and ${pb.weight} for B; compare runs of the same blueprint version`);
      pairs.push({ weight: pa.weight, a: pa.score, b: pb.score });
    }
  }
  const ids = new Set([...a.map((p) => p.id), ...b.map((p) => p.id)]);
  const unpaired = ids.size - pairs.length;
  const diffs = pairs.map((p) => p.a - p.b);
  const wins = diffs.filter((d) => d > TIE).length;
  const losses = diffs.filter((d) => d < -TIE).length;
  const ties = diffs.length - wins - losses;
  const base = { paired: pairs.length, unpaired, wins, losses, ties, signTestP: signTest(wins, losses) };
  if (pairs.length === 0) return { ...base, meanA: null, meanB: null, meanDiff: null, interval: null };
  const all = pairs.map((_p, i) => i);
  const meanA = weightedPromptMean(pairs, pairs.map((p) => p.a), all);
  const meanB = weightedPromptMean(pairs, pairs.map((p) => p.b), all);
  const meanDiff = weightedPromptMean(pairs, diffs, all);
  if (pairs.length < 2) return { ...base, meanA, meanB, meanDiff, interval: null };
  const stats = bootstrapStatistics(pairs.length, (idx) => weightedPromptMean(pairs, diffs, idx), rng, resamples);
  return { ...base, meanA, meanB, meanDiff, interval: percentileInterval(stats, level, { n: pairs.length, clusters: pairs.length }) };
}
