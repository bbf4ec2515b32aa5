/**
 * soev's attempt score (soev's ScoredAttempt; docs/criteria.md, "Scoring"), a named level beside
 * Weval's `attemptScore`:
 *
 *   score  = weight of the passed criteria ÷ weight of the passed and failed ones (gates apart);
 *            `error` and `not_applicable` do not count; a failed gate makes it 0; with no passed
 *            or failed criterion that is not a gate, it is 1
 *   passed = every verdict is pass or not_applicable (an `error` makes the attempt fail)
 *
 * It reads the status, not the verdict's score, so a criterion's share (2 of 3 groups cited)
 * fails it whole, as in soev. A prompt made only of criteria is scored this way; a prompt that
 * mixes criteria with Weval points keeps Weval's aggregation, where a criterion verdict counts
 * 1 (pass) or 0 (fail) at its weight — the same number whenever no criterion errored.
 */
import type { Point } from '../blueprint/schema';
import type { ScoredVerdict } from './attempt';

export interface CriteriaAttempt {
  score: number;
  passed: boolean;
  gateFailed: boolean;
  /** Passed and failed weight that entered the score (gates excluded). */
  passedWeight: number;
  countedWeight: number;
}

export function criteriaAttemptScore(verdicts: readonly Pick<ScoredVerdict, 'status' | 'weight' | 'gate'>[]): CriteriaAttempt {
  const passed = verdicts.every((v) => v.status === 'pass' || v.status === 'not_applicable');
  const gateFailed = verdicts.some((v) => v.gate && v.status === 'fail');
  let passedWeight = 0;
  let countedWeight = 0;
  for (const v of verdicts) {
    if (v.gate || (v.status !== 'pass' && v.status !== 'fail')) continue;
    countedWeight += v.weight;
    if (v.status === 'pass') passedWeight += v.weight;
  }
  const score = gateFailed ? 0 : countedWeight === 0 ? 1 : passedWeight / countedWeight;
  return { score, passed, gateFailed, passedWeight, countedWeight };
}

/** Whether a prompt is graded as a soev case: it has criteria and nothing else. */
export function isCriteriaOnly(points: readonly Pick<Point, 'kind'>[]): boolean {
  return points.length > 0 && points.every((p) => p.kind === 'criterion');
}
