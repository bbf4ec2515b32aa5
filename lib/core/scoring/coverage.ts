/**
 * Coverage: how much of the planned grading a score actually rests on. A verdict that erred
 * (a judge that never answered in the protocol, a `$js` that threw) or was never made (its
 * reply failed) is left out of a score, never counted as 0 — so a score can silently rest on
 * a fraction of its points. Coverage says which fraction, for judged points (plain-string
 * criteria and questions) and deterministic points (functions and `correct:` checks) apart,
 * and the publication rule below refuses a score that rests on too little of either.
 */
import { z } from 'zod';
import { criterionKind } from '../criteria/registry';

export const CoverageSchema = z.object({
  /** Judged verdicts planned (plain-string and question points) and how many got an answer. */
  judgedVerdicts: z.number().int().nonnegative(),
  judgedScored: z.number().int().nonnegative(),
  /** Deterministic verdicts planned (functions and `correct:` checks) and how many got a result. */
  deterministicVerdicts: z.number().int().nonnegative(),
  deterministicScored: z.number().int().nonnegative(),
});
export type Coverage = z.infer<typeof CoverageSchema>;

export const EMPTY_COVERAGE: Coverage = { judgedVerdicts: 0, judgedScored: 0, deterministicVerdicts: 0, deterministicScored: 0 };

export type PointClass = 'judged' | 'deterministic';

/**
 * A point's or verdict's kind (`text`, `question`, `function`, `correct`, `criterion`) → its class.
 * A criterion is judged when its kind asks a judge (`nuggets.coverage`, `rubric.judge`…): pass the
 * kind's name (the verdict's `fn`, the point's `criterion`).
 */
export function pointClass(kind: string, criterion?: string | null): PointClass {
  if (kind === 'criterion') return criterion && criterionKind(criterion)?.needs.includes('judge') ? 'judged' : 'deterministic';
  return kind === 'text' || kind === 'question' ? 'judged' : 'deterministic';
}

/**
 * Adds `count` planned verdicts of `kind` to a coverage; `scored` says whether they got a
 * result (any status but `error`: a judge's "not applicable" is an answer).
 */
export function addToCoverage(c: Coverage, kind: string, scored: boolean, count = 1, criterion?: string | null): Coverage {
  if (pointClass(kind, criterion) === 'judged') return { ...c, judgedVerdicts: c.judgedVerdicts + count, judgedScored: c.judgedScored + (scored ? count : 0) };
  return { ...c, deterministicVerdicts: c.deterministicVerdicts + count, deterministicScored: c.deterministicScored + (scored ? count : 0) };
}

export function sumCoverage(items: readonly Coverage[]): Coverage {
  return items.reduce<Coverage>(
    (s, c) => ({
      judgedVerdicts: s.judgedVerdicts + c.judgedVerdicts,
      judgedScored: s.judgedScored + c.judgedScored,
      deterministicVerdicts: s.deterministicVerdicts + c.deterministicVerdicts,
      deterministicScored: s.deterministicScored + c.deterministicScored,
    }),
    EMPTY_COVERAGE,
  );
}

/** The share in [0,1] of one class that scored; null when the class has no points. */
export function coverageShare(c: Coverage, cls: PointClass): number | null {
  const [total, scored] = cls === 'judged' ? [c.judgedVerdicts, c.judgedScored] : [c.deterministicVerdicts, c.deterministicScored];
  return total === 0 ? null : scored / total;
}

/**
 * The publication rule: a score is withheld when fewer than half of its judged verdicts, or
 * fewer than half of its deterministic verdicts, got a result (each where such points
 * exist). Half, because below it the number describes mostly the other kind of point — e.g. a
 * run whose judge never answered would otherwise publish the function points' score as the
 * blueprint's. Stated on the pages as `COVERAGE_RULE`.
 */
export const MIN_CLASS_COVERAGE = 0.5;
export const COVERAGE_RULE = 'A score is withheld when fewer than half of its judged verdicts, or fewer than half of its deterministic verdicts, got a result.';

/** Why a score with this coverage must not be published, or null when it may be. */
export function withheldReason(c: Coverage): string | null {
  const reasons: string[] = [];
  for (const [cls, total, scored] of [
    ['judged', c.judgedVerdicts, c.judgedScored],
    ['deterministic', c.deterministicVerdicts, c.deterministicScored],
  ] as const) {
    if (total > 0 && scored / total < MIN_CLASS_COVERAGE) reasons.push(`${scored} of ${total} ${cls} verdicts got a result`);
  }
  return reasons.length === 0 ? null : `only ${reasons.join(' and ')} (under half)`;
}
