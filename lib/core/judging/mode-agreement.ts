/**
 * How far two ways of judging the same replies agree, verdict by verdict (batched judging is
 * checked against per-point judging before it may become a default; docs/judging.md, "Agreement,
 * and why the default stays per-point"): the share of
 * verdicts with the same status, the mean |score difference| where both have a score, and
 * Krippendorff's α (interval) with the two modes as the two coders.
 */
import { krippendorffAlphaInterval } from './consensus';

export interface ModeVerdict {
  status: string;
  score: number | null;
}

export interface ModeAgreement {
  /** Verdict pairs compared. */
  n: number;
  /** Share of pairs with the same status (pass, fail, error, not_applicable…). */
  sameStatus: number | null;
  /** Pairs where both verdicts have a score. */
  scored: number;
  meanAbsScoreDiff: number | null;
  /** Krippendorff's α over the scored pairs (null when there is nothing to agree on). */
  alpha: number | null;
}

export function modeAgreement(pairs: readonly (readonly [ModeVerdict, ModeVerdict])[]): ModeAgreement {
  const n = pairs.length;
  const same = pairs.filter(([a, b]) => a.status === b.status).length;
  const scored = pairs.filter(([a, b]) => a.score !== null && b.score !== null);
  const diff = scored.reduce((s, [a, b]) => s + Math.abs(a.score! - b.score!), 0);
  return {
    n,
    sameStatus: n === 0 ? null : same / n,
    scored: scored.length,
    meanAbsScoreDiff: scored.length === 0 ? null : diff / scored.length,
    alpha: krippendorffAlphaInterval(pairs.map(([a, b]) => [a.score, b.score])),
  };
}
