/**
 * Which judged verdicts people are asked to label: a stated design, so the labels can be weighted
 * back and the estimates built on them stay unbiased (prediction-powered.ts). Each candidate gets
 * an inclusion probability π_i made of two shares of the expected number of labels B:
 *
 *   π_i = min(1, u·B/N + (1 − u)·B · w_i / Σ w)
 *
 * a uniform share u spread evenly over all N candidates (so every item can be drawn: π_i > 0),
 * and the rest in proportion to w_i = the judge's uncertainty (1 − |2p − 1| for its probability
 * p that the point holds: 1 at p = ½, 0 at certainty) plus 1 when the judges of a panel disagreed.
 * Items are then drawn independently (Poisson sampling), each with its π_i stored beside its
 * label. Randomness is a seeded generator passed in.
 */
import { z } from 'zod';
import type { RandomGenerator } from 'pure-rand';
import { unsafeUniformIntDistribution } from 'pure-rand';

export const ReviewCandidateSchema = z.object({
  id: z.string(),
  /** The judges' probability that the point holds, 0–1. */
  probability: z.number().min(0).max(1),
  /** A panel's judges disagreed past their threshold. */
  disagreement: z.boolean(),
});
export type ReviewCandidate = z.infer<typeof ReviewCandidateSchema>;

export const ReviewDesignSchema = z.object({
  /** Labels wanted, in expectation. */
  expectedLabels: z.number().positive(),
  /** The share of them drawn uniformly, in (0, 1]: what keeps every item drawable. */
  uniformShare: z.number().gt(0).max(1),
});
export type ReviewDesign = z.infer<typeof ReviewDesignSchema>;

export const DEFAULT_REVIEW_DESIGN: ReviewDesign = { expectedLabels: 200, uniformShare: 0.5 };

export function uncertaintyOf(probability: number): number {
  return 1 - Math.abs(2 * probability - 1);
}

/** Each candidate's inclusion probability under `design`, in the order given. */
export function inclusionProbabilities(candidates: readonly ReviewCandidate[], design: ReviewDesign = DEFAULT_REVIEW_DESIGN): number[] {
  const n = candidates.length;
  if (n === 0) return [];
  const budget = Math.min(design.expectedLabels, n);
  const w = candidates.map((c) => uncertaintyOf(c.probability) + (c.disagreement ? 1 : 0));
  const total = w.reduce((a, b) => a + b, 0);
  const uniform = (design.uniformShare * budget) / n;
  // with no uncertain item at all, the whole budget is uniform
  const targeted = total > 0 ? (1 - design.uniformShare) * budget : 0;
  return w.map((wi) => Math.min(1, uniform + (total > 0 ? (targeted * wi) / total : ((1 - design.uniformShare) * budget) / n)));
}

/** The candidates drawn for review (Poisson sampling), each with its inclusion probability. */
export function drawForReview(candidates: readonly ReviewCandidate[], rng: RandomGenerator, design: ReviewDesign = DEFAULT_REVIEW_DESIGN): Array<{ id: string; inclusion: number }> {
  const g = rng.clone();
  const pis = inclusionProbabilities(candidates, design);
  const drawn: Array<{ id: string; inclusion: number }> = [];
  candidates.forEach((c, i) => {
    const u = (unsafeUniformIntDistribution(0, 2 ** 30 - 1, g) + 0.5) / 2 ** 30;
    if (u < pis[i]!) drawn.push({ id: c.id, inclusion: pis[i]! });
  });
  return drawn;
}
