/**
 * Reading a judge's probability distribution over labels, recorded with how it was
 * obtained: from the token log-probabilities at the label position where the
 * provider returns them, otherwise estimated from several sampled answers.
 */
import { z } from 'zod';

export const DistributionMethodSchema = z.enum(['logprobs', 'samples']);
export type DistributionMethod = z.infer<typeof DistributionMethodSchema>;

export const JudgeDistributionSchema = z.object({
  /** Probability per label; every label of the question is present (0 when unseen); sums to 1. */
  probs: z.record(z.string(), z.number().min(0).max(1)),
  method: DistributionMethodSchema,
  /** `samples`: how many sampled answers carried a valid label. */
  n: z.number().int().positive().optional(),
  /** `samples`: how many sampled answers had no valid label (not counted in `probs`). */
  invalid: z.number().int().nonnegative().optional(),
  /** `logprobs`: raw probability mass the label tokens held before renormalising (how much to trust it). */
  coverage: z.number().min(0).max(1).optional(),
});
export type JudgeDistribution = z.infer<typeof JudgeDistributionSchema>;

export interface TopLogprob {
  token: string;
  logprob: number;
}

export type DistributionResult = JudgeDistribution | { error: string };

function labelIndex(labels: readonly string[]): Map<string, string> {
  const index = new Map<string, string>();
  for (const label of labels) index.set(label.trim().toLowerCase(), label);
  return index;
}

/**
 * Softmax over the label tokens found among the top log-probabilities at the answer position.
 * A token names a label when it equals it ignoring case and surrounding whitespace (`" A"`,
 * `"a"` → `A`); several tokens of one label add up. Tokens that are no label are ignored, so
 * the result is renormalised over the labels found; `coverage` keeps the mass they held.
 */
export function distributionFromLogprobs(topLogprobs: readonly TopLogprob[], labels: readonly string[]): DistributionResult {
  const index = labelIndex(labels);
  const perLabel = new Map<string, number[]>();
  for (const { token, logprob } of topLogprobs) {
    const label = index.get(token.trim().toLowerCase());
    if (label === undefined || !Number.isFinite(logprob)) continue;
    perLabel.set(label, [...(perLabel.get(label) ?? []), logprob]);
  }
  if (perLabel.size === 0) {
    return { error: `no label (${labels.join(', ')}) among the top log-probabilities; ask the judge for one label token, or fall back to samples` };
  }
  // log-sum-exp per label, then softmax across labels; subtract the max for stability.
  const lse = new Map<string, number>();
  for (const [label, lps] of perLabel) {
    const m = Math.max(...lps);
    lse.set(label, m + Math.log(lps.reduce((s, lp) => s + Math.exp(lp - m), 0)));
  }
  const max = Math.max(...lse.values());
  let denom = 0;
  for (const v of lse.values()) denom += Math.exp(v - max);
  const probs: Record<string, number> = {};
  for (const label of labels) {
    const v = lse.get(label);
    probs[label] = v === undefined ? 0 : Math.exp(v - max) / denom;
  }
  const coverage = Math.min(1, [...lse.values()].reduce((s, v) => s + Math.exp(v), 0));
  return { probs, method: 'logprobs', coverage };
}

/**
 * The empirical distribution of several sampled answers (each already parsed to a label, or
 * null when the judge's output had none). Unparsable samples are counted, not spread.
 */
export function distributionFromSamples(samples: readonly (string | null)[], labels: readonly string[]): DistributionResult {
  const index = labelIndex(labels);
  const counts = new Map<string, number>();
  let n = 0;
  let invalid = 0;
  for (const s of samples) {
    const label = s === null ? undefined : index.get(s.trim().toLowerCase());
    if (label === undefined) {
      invalid += 1;
      continue;
    }
    counts.set(label, (counts.get(label) ?? 0) + 1);
    n += 1;
  }
  if (n === 0) {
    return { error: `none of ${samples.length} sampled judge answers carried a valid label (${labels.join(', ')})` };
  }
  const probs: Record<string, number> = {};
  for (const label of labels) probs[label] = (counts.get(label) ?? 0) / n;
  return { probs, method: 'samples', n, invalid };
}
