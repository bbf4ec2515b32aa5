/**
 * How well a judge agrees with people, on the items both answered: weighted Cohen's κ on the
 * answer options (ordinal: the judge's chosen option against the reviewer's), the judge's bias
 * (mean of judge − human value, with its interval), and calibration: the judge's probability
 * that a point holds against how often people said it does, bin by bin, and the expected
 * calibration error (the bins' weighted mean gap; Guo et al., ICML 2017). People's agreement with
 * each other is Krippendorff's α over reviewers (judging/alpha.ts), the ceiling a judge is read
 * against.
 */
import { z } from 'zod';
import { tCritical } from '../scoring/distributions';

/**
 * κ weights: for ordered options a near miss counts partly (linear) or mostly (quadratic); for
 * unordered options (a choice) every miss is a full miss (nominal: unweighted Cohen's κ).
 */
export type KappaWeights = 'linear' | 'quadratic' | 'nominal';

/**
 * The disagreement weights of `k` options, row-major (`w[i·k + j]` for the first rater's option i
 * against the second's j): 0 on the diagonal; for ordered options the distance |i − j| / (k − 1)
 * (linear) or its square (quadratic); 1 off the diagonal for unordered ones (nominal).
 */
export function kappaWeightMatrix(k: number, weights: KappaWeights = 'quadratic'): number[] {
  const w = new Array<number>(k * k);
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) {
      if (weights === 'nominal') w[i * k + j] = i === j ? 0 : 1;
      else {
        const d = Math.abs(i - j) / (k - 1);
        w[i * k + j] = weights === 'linear' ? d : d * d;
      }
    }
  return w;
}

/**
 * What weighted κ rests on, tallied from paired answers: the number of pairs, how often each
 * rater gave each option (`rowTotals` the first rater, `colTotals` the second, each of length
 * k), and `observed`, the pairs' disagreement weights summed in the order the pairs came.
 * Tallies let a bootstrap add up precomputed pairs per resample instead of building them again.
 * `observed` is a running sum rather than Σ count_ij·w_ij over a k×k table: with weights such as
 * quadratic over 4 options (1/9, 4/9) the two round differently in the last bits, and the running
 * sum is what κ over the pairs has always been.
 */
export interface KappaTallies {
  n: number;
  rowTotals: ArrayLike<number>;
  colTotals: ArrayLike<number>;
  observed: number;
}

/**
 * Weighted κ from its tallies over `k` options with the weights of `kappaWeightMatrix(k, …)`:
 * 1 − observed / expected, expected the disagreement chance gives from each rater's own mix of
 * answers (Σ r_i c_j w_ij / n). Null without pairs, under two options, or when chance agreement
 * is already total (both raters always gave the same one answer).
 */
export function weightedKappaFromTallies(tallies: KappaTallies, k: number, weightMatrix: ArrayLike<number>): number | null {
  const { n, rowTotals, colTotals, observed } = tallies;
  if (n === 0 || k < 2) return null;
  let expected = 0;
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) expected += (rowTotals[i]! * colTotals[j]! * weightMatrix[i * k + j]!) / n;
  return expected === 0 ? null : 1 - observed / expected;
}

/**
 * Weighted κ of two raters over `k` options (0 … k−1, in order unless weighted 'nominal'), from
 * paired answers. 1 is perfect agreement, 0 what chance gives from each rater's own mix of
 * answers; null when chance agreement is already total (both always gave the same one answer).
 */
export function weightedKappa(pairs: ReadonlyArray<readonly [number, number]>, k: number, weights: KappaWeights = 'quadratic'): number | null {
  if (pairs.length === 0 || k < 2) return null;
  const w = kappaWeightMatrix(k, weights);
  const rowTotals = new Array<number>(k).fill(0);
  const colTotals = new Array<number>(k).fill(0);
  let observed = 0;
  for (const [a, b] of pairs) {
    if (!Number.isInteger(a) || !Number.isInteger(b) || a < 0 || b < 0 || a >= k || b >= k) throw new RangeError(`answers are options 0…${k - 1}; got (${a}, ${b})`);
    rowTotals[a]!++;
    colTotals[b]!++;
    observed += w[a * k + b]!;
  }
  return weightedKappaFromTallies({ n: pairs.length, rowTotals, colTotals, observed }, k, w);
}

export const JudgeBiasSchema = z.object({ mean: z.number(), low: z.number(), high: z.number(), n: z.number().int() });
export type JudgeBias = z.infer<typeof JudgeBiasSchema>;

/** Mean of judge − human over the labelled items, with a t interval; null under two items. */
export function judgeBias(items: ReadonlyArray<{ judge: number; human: number }>, level = 0.95): JudgeBias | null {
  const n = items.length;
  if (n < 2) return null;
  const d = items.map((i) => i.judge - i.human);
  const mean = d.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(d.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1));
  const half = (tCritical(level, n - 1) * sd) / Math.sqrt(n);
  return { mean, low: mean - half, high: mean + half, n };
}

export const CalibrationSchema = z.object({
  bins: z.array(z.object({ from: z.number(), to: z.number(), n: z.number().int(), meanProbability: z.number().nullable(), observed: z.number().nullable() })),
  /** Expected calibration error: Σ (n_b / N) |observed_b − meanProbability_b|. */
  ece: z.number().nullable(),
  n: z.number().int(),
});
export type Calibration = z.infer<typeof CalibrationSchema>;

/**
 * Equal-width bins of the judge's probability against what people said: an outcome is 1 (yes),
 * 0 (no), or in between when several people labelled the item (their mean: 2 of 3 saying yes is
 * 0.667). A bin's observed rate is the mean outcome of its items.
 */
export function calibration(items: ReadonlyArray<{ probability: number; outcome: number }>, binCount = 10): Calibration {
  const bins = Array.from({ length: binCount }, (_v, b) => ({ from: b / binCount, to: (b + 1) / binCount, n: 0, sumP: 0, sumY: 0 }));
  for (const { probability, outcome } of items) {
    if (!(probability >= 0 && probability <= 1)) throw new RangeError(`a probability is 0–1; got ${probability}`);
    if (!(outcome >= 0 && outcome <= 1)) throw new RangeError(`an outcome is people's mean answer, 0–1; got ${outcome}`);
    const bin = bins[Math.min(binCount - 1, Math.floor(probability * binCount))]!;
    bin.n++;
    bin.sumP += probability;
    bin.sumY += outcome;
  }
  const n = items.length;
  const ece = n === 0 ? null : bins.reduce((acc, b) => acc + (b.n === 0 ? 0 : (b.n / n) * Math.abs(b.sumY / b.n - b.sumP / b.n)), 0);
  return { bins: bins.map((b) => ({ from: b.from, to: b.to, n: b.n, meanProbability: b.n ? b.sumP / b.n : null, observed: b.n ? b.sumY / b.n : null })), ece, n };
}
