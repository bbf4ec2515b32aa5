/**
 * Attempt score: one reply's verdicts → one number, Weval's aggregation over the
 * verdicts that count:
 *
 *   required = weighted mean of the points without a path
 *   path p   = weighted mean of the points of alternative path p;  best = max over paths
 *   score    = mean of [required (if any), best (if any)]
 *
 * computed in Weval's order of operations so that the conformance vectors match to the bit.
 * Where Weval is wrong, Assay differs (docs/compatibility.md, "Scoring"):
 * - an `error` verdict is left out and counted, and a group with no verdict left drops out
 *   (Weval: a group of errored points scores 0);
 * - when verdicts errored and none is left to count, there is no score (null), not 0;
 * - nothing applicable at all → 1, flagged `noApplicable` (Weval: 0 for no points).
 * Gates: a gate is a condition, not a term of the mean; a failed gate makes the
 * score 0.
 */
import { z } from 'zod';
import type { Verdict } from './verdict';

export const AttemptScoreSchema = z.object({
  /** In [0,1]; null = no score (every verdict that could count errored). */
  score: z.number().min(0).max(1).nullable(),
  /** Nothing applicable was left to fail, so the score is the rule's 1 rather than a measurement. */
  noApplicable: z.boolean(),
  gateFailed: z.boolean(),
  /** `pointIndex` of each gate that failed. */
  failedGates: z.array(z.number().int().nonnegative()),
  /** Verdicts with status `error`: excluded from the score, counted and shown. */
  errors: z.number().int().nonnegative(),
  notApplicable: z.number().int().nonnegative(),
  /** Verdicts that entered the mean. */
  counted: z.number().int().nonnegative(),
  /** Weighted mean of the required group, or null when it had no verdict that counted. */
  required: z.number().min(0).max(1).nullable(),
  /** Weighted mean per alternative path that had a verdict that counted. */
  paths: z.record(z.string(), z.number().min(0).max(1)),
  bestPath: z.string().nullable(),
});
export type AttemptScore = z.infer<typeof AttemptScoreSchema>;

/** Weval treats an empty or blank path id as "required". */
export function pathOf(v: Pick<Verdict, 'path'>): string | null {
  return v.path !== null && v.path.trim() !== '' ? v.path : null;
}

/** Σ score·weight / Σ weight, accumulated in input order (as Weval's calculateWeightedAverage). */
export function weightedMean(verdicts: readonly Pick<Verdict, 'score' | 'weight'>[]): number {
  let total = 0;
  let totalWeight = 0;
  for (const v of verdicts) {
    total += (v.score as number) * v.weight;
    totalWeight += v.weight;
  }
  return total / totalWeight;
}

/** What the attempt score reads of a verdict: a stored verdict row has all of it. */
export type ScoredVerdict = Pick<Verdict, 'pointIndex' | 'status' | 'score' | 'weight' | 'gate' | 'path'>;

export function attemptScore(verdicts: readonly ScoredVerdict[]): AttemptScore {
  const errors = verdicts.filter((v) => v.status === 'error').length;
  const notApplicable = verdicts.filter((v) => v.status === 'not_applicable').length;
  const failedGates = verdicts.filter((v) => v.gate && v.status === 'fail').map((v) => v.pointIndex);
  const counting = verdicts.filter((v) => !v.gate && (v.status === 'pass' || v.status === 'fail') && v.score !== null);

  const required = counting.filter((v) => pathOf(v) === null);
  const groups = new Map<string, ScoredVerdict[]>();
  for (const v of counting) {
    const p = pathOf(v);
    if (p !== null) groups.set(p, [...(groups.get(p) ?? []), v]);
  }
  const requiredScore = required.length > 0 ? weightedMean(required) : null;
  const paths: Record<string, number> = {};
  let bestPath: string | null = null;
  for (const [p, vs] of groups) {
    paths[p] = weightedMean(vs);
    if (bestPath === null || (paths[p] as number) > (paths[bestPath] as number)) bestPath = p;
  }

  const common = { failedGates, errors, notApplicable, counted: counting.length, required: requiredScore, paths, bestPath };
  if (failedGates.length > 0) return { ...common, score: 0, noApplicable: false, gateFailed: true };
  if (counting.length === 0) {
    // Errors and nothing else: unknown, not 0. No errors either: nothing was left to fail.
    return errors > 0
      ? { ...common, score: null, noApplicable: false, gateFailed: false }
      : { ...common, score: 1, noApplicable: true, gateFailed: false };
  }
  const groupScores: number[] = [];
  if (requiredScore !== null) groupScores.push(requiredScore);
  if (bestPath !== null) groupScores.push(paths[bestPath] as number);
  const score = groupScores.reduce((s, x) => s + x, 0) / groupScores.length;
  return { ...common, score, noApplicable: false, gateFailed: false };
}
