/**
 * Scores that include the judge's error: prediction-powered inference (Angelopoulos, Bates,
 * Fannjiang, Jordan, Zrnic, Science 2023) for a mean, under the design that chose which items
 * people labelled.
 *
 * Every item i (a judged verdict, or an attempt's score) has the judge's value f_i in [0, 1]; a
 * few were labelled by people (y_i), each chosen independently with a known inclusion
 * probability π_i (the review queue's design: a uniform share plus over-sampling of uncertain
 * and disputed items, stored with each label). The estimate is
 *
 *   θ̂ = (1/N) Σ_i z_i,   z_i = f_i + ξ_i (y_i − f_i) / π_i   (ξ_i = 1 when i was labelled)
 *
 * the judge's mean corrected by the inverse-probability-weighted mean of human − judge on the
 * labelled items (the "rectifier"). Each z_i has expectation E[y_i] whatever the judge's bias,
 * and weighting by 1/π_i keeps it so when uncertain items were labelled more often
 * (Zrnic & Candès, "Active statistical inference", ICML 2024). The z_i are independent across
 * items, so the interval is θ̂ ± z·sd(z)/√N: it covers both the judge's error (through the
 * rectifier's spread) and the sampling of items. With too few labels the rectifier's spread is
 * not estimable: the estimate is then not given, and the reason says so.
 */
import { z } from 'zod';
import { normalQuantile } from '../scoring/distributions';

export const PPI_MIN_LABELS = 10;

export const PpiItemSchema = z.object({
  /** The judge's value, 0–1. */
  judge: z.number().min(0).max(1),
  /** People's value, 0–1, when the item was labelled (several reviewers: their mean). */
  human: z.number().min(0).max(1).nullable(),
  /** The probability the design gave this item of being labelled, in (0, 1]. */
  inclusion: z.number().gt(0).max(1),
});
export type PpiItem = z.infer<typeof PpiItemSchema>;

export const PpiEstimateSchema = z.object({
  /** The prediction-powered mean; null when too few items were labelled. */
  estimate: z.number().nullable(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  level: z.number(),
  /** The judge-only mean and its interval (sampling of items alone: blind to the judge's bias). */
  judgeMean: z.number(),
  judgeLow: z.number(),
  judgeHigh: z.number(),
  /** The weighted mean of human − judge on the labelled items: the judge's bias, corrected for. */
  rectifier: z.number().nullable(),
  items: z.number().int(),
  labelled: z.number().int(),
  /** Why there is no estimate (too few labels, no items). */
  reason: z.string().nullable(),
});
export type PpiEstimate = z.infer<typeof PpiEstimateSchema>;

function meanAndSd(xs: readonly number[]): { mean: number; sd: number } {
  const n = xs.length;
  const mean = xs.reduce((a, b) => a + b, 0) / n;
  const sd = n > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1)) : 0;
  return { mean, sd };
}

const clip01 = (x: number) => Math.min(1, Math.max(0, x));

export function predictionPoweredMean(items: readonly PpiItem[], opts: { level?: number; minLabels?: number } = {}): PpiEstimate {
  const level = opts.level ?? 0.95;
  const minLabels = opts.minLabels ?? PPI_MIN_LABELS;
  const n = items.length;
  if (n === 0) return { estimate: null, low: null, high: null, level, judgeMean: 0, judgeLow: 0, judgeHigh: 0, rectifier: null, items: 0, labelled: 0, reason: 'no judged items' };
  const q = normalQuantile(1 - (1 - level) / 2);
  const judge = meanAndSd(items.map((i) => i.judge));
  const half = (q * judge.sd) / Math.sqrt(n);
  const judgeOnly = { judgeMean: judge.mean, judgeLow: clip01(judge.mean - half), judgeHigh: clip01(judge.mean + half) };
  const labelled = items.filter((i) => i.human !== null);
  if (labelled.length < minLabels) {
    return { estimate: null, low: null, high: null, level, ...judgeOnly, rectifier: null, items: n, labelled: labelled.length, reason: `${labelled.length} of ${n} items have human labels; at least ${minLabels} are needed to correct for the judge` };
  }
  const zs = items.map((i) => (i.human === null ? i.judge : i.judge + (i.human - i.judge) / i.inclusion));
  const { mean, sd } = meanAndSd(zs);
  const weights = labelled.reduce((a, i) => a + 1 / i.inclusion, 0);
  const rectifier = labelled.reduce((a, i) => a + (i.human! - i.judge) / i.inclusion, 0) / weights;
  const ppiHalf = (q * sd) / Math.sqrt(n);
  // the interval's ends stay on the score's scale; the estimate itself is left unclipped (clipping it would bias it at 0 and 1)
  return { estimate: mean, low: clip01(mean - ppiHalf), high: clip01(mean + ppiHalf), level, ...judgeOnly, rectifier, items: n, labelled: labelled.length, reason: null };
}
