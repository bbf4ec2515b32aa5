/**
 * A ranking from people's pairwise preferences: the Bradley–Terry model, P(i preferred to j) =
 * s_i / (s_i + s_j), fitted by Hunter's MM algorithm (Annals of Statistics 2004), a tie counting
 * half a win to each side. Every model also plays one virtual win and one virtual loss against a
 * reference of strength 1, a weak prior that keeps an unbeaten or winless model's strength finite
 * and the fit defined when the comparisons do not connect every model.
 *
 * Intervals come from the bootstrap over comparisons (each resample draws the same number of
 * comparisons with replacement, and is refitted). A pair's p-value is the two-sided normal one of
 * its strength difference over the difference's bootstrap standard error: the share of resamples
 * that flip the order cannot go below 1/(B + 1), and Holm over 28 pairs of 8 models needs 0.05/28,
 * which 1,000 resamples cannot reach, so no two models would ever be told apart. Bands are then the rubric leaderboard's
 * (scoring/bands.ts): all pairs Holm-corrected, best rank = 1 + models clearly ahead, worst =
 * N − models clearly behind. Randomness is a seeded generator passed in.
 */
import { z } from 'zod';
import type { RandomGenerator } from 'pure-rand';
import { unsafeUniformIntDistribution } from 'pure-rand';
import { rankBands, RankBandSchema, type PairTest } from '../scoring/bands';
import { normalCdf } from '../scoring/distributions';

export const PreferenceSchema = z.object({
  a: z.string(),
  b: z.string(),
  /** Which reply people preferred: `a`, `b`, or neither (`tie`). */
  outcome: z.enum(['a', 'b', 'tie']),
});
export type Preference = z.infer<typeof PreferenceSchema>;

export const PairwiseRankingSchema = z.object({
  models: z.array(
    z.object({
      model: z.string(),
      /** log-strength, centred so the models' mean is 0 */
      strength: z.number(),
      low: z.number(),
      high: z.number(),
      rank: z.number().int().positive(),
      band: RankBandSchema,
      comparisons: z.number().int().nonnegative(),
    }),
  ),
  comparisons: z.number().int().nonnegative(),
  resamples: z.number().int().nonnegative(),
  level: z.number(),
});
export type PairwiseRanking = z.infer<typeof PairwiseRankingSchema>;

const ITERATIONS = 500;
const TOLERANCE = 1e-9;

/** Log-strengths (mean 0) of `n` models from comparisons given as index pairs and the first one's score (1, 0.5, 0). */
export function fitBradleyTerry(n: number, games: ReadonlyArray<readonly [number, number, number]>): number[] {
  // wins[i]: i's wins (ties as halves) plus the prior's one; pairs[i][j]: comparisons of i and j
  const wins = new Array<number>(n).fill(1);
  const pairs = Array.from({ length: n }, () => new Map<number, number>());
  for (const [i, j, score] of games) {
    wins[i]! += score;
    wins[j]! += 1 - score;
    pairs[i]!.set(j, (pairs[i]!.get(j) ?? 0) + 1);
    pairs[j]!.set(i, (pairs[j]!.get(i) ?? 0) + 1);
  }
  let s = new Array<number>(n).fill(1);
  for (let it = 0; it < ITERATIONS; it++) {
    const next = s.map((si, i) => {
      // the prior: two games against a reference of strength 1
      let denom = 2 / (si + 1);
      for (const [j, count] of pairs[i]!) denom += count / (si + s[j]!);
      return wins[i]! / denom;
    });
    const logMean = next.reduce((acc, x) => acc + Math.log(x), 0) / n;
    const scaled = next.map((x) => x / Math.exp(logMean));
    const change = Math.max(...scaled.map((x, i) => Math.abs(Math.log(x) - Math.log(s[i]!))));
    s = scaled;
    if (change < TOLERANCE) break;
  }
  return s.map((x) => Math.log(x));
}

/** Models ranked by people's preferences, with bootstrap intervals and tied bands. */
export function pairwiseRanking(preferences: readonly Preference[], rng: RandomGenerator, opts: { resamples?: number; level?: number } = {}): PairwiseRanking {
  const resamples = opts.resamples ?? 1000;
  const level = opts.level ?? 0.95;
  const models = [...new Set(preferences.flatMap((p) => [p.a, p.b]))].sort();
  const index = new Map(models.map((m, i) => [m, i]));
  const games = preferences.map((p) => [index.get(p.a)!, index.get(p.b)!, p.outcome === 'a' ? 1 : p.outcome === 'b' ? 0 : 0.5] as const);
  const n = models.length;
  const fitted = fitBradleyTerry(n, games);
  const g = rng.clone();
  const draws: number[][] = [];
  for (let r = 0; r < resamples && games.length > 0; r++) {
    const sample = Array.from({ length: games.length }, () => games[unsafeUniformIntDistribution(0, games.length - 1, g)]!);
    draws.push(fitBradleyTerry(n, sample));
  }
  const quantile = (xs: number[], p: number) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(p * (sorted.length - 1))))]!;
  };
  const order = fitted.map((x, i) => [x, i] as const).sort((a, b) => b[0] - a[0]).map(([, i]) => i);
  const tests: PairTest[] = [];
  for (let x = 0; x < n; x++) {
    for (let y = x + 1; y < n; y++) {
      const [i, j] = [order[x]!, order[y]!];
      const diff = fitted[i]! - fitted[j]!;
      const diffs = draws.map((d) => d[i]! - d[j]!);
      const mean = diffs.reduce((a, b) => a + b, 0) / Math.max(1, diffs.length);
      const se = diffs.length > 1 ? Math.sqrt(diffs.reduce((a, d) => a + (d - mean) ** 2, 0) / (diffs.length - 1)) : 0;
      tests.push({ i: x, j: y, p: se > 0 ? 2 * (1 - normalCdf(Math.abs(diff) / se)) : null, diff });
    }
  }
  const bands = rankBands(n, tests);
  const counts = new Array<number>(n).fill(0);
  for (const [i, j] of games) {
    counts[i]!++;
    counts[j]!++;
  }
  return {
    models: order.map((i, rankIndex) => ({
      model: models[i]!,
      strength: fitted[i]!,
      low: draws.length ? quantile(draws.map((d) => d[i]!), (1 - level) / 2) : fitted[i]!,
      high: draws.length ? quantile(draws.map((d) => d[i]!), 1 - (1 - level) / 2) : fitted[i]!,
      rank: rankIndex + 1,
      band: bands[rankIndex]!,
      comparisons: counts[i]!,
    })),
    comparisons: games.length,
    resamples: draws.length,
    level,
  };
}
