/**
 * The judge class scale for plain-string points (Weval's): five classes from "absent" to
 * "fully present", equidistant 0, 0.25, 0.5, 0.75, 1. In Assay a plain-string point is a
 * `score` question over these classes, so its value is the expected class under the judge's
 * distribution; a single parsed label (Weval's way) is the special case of a point mass.
 */
import type { ScoreQuestion } from './questions';
import { scoreValue, type LabelDistribution } from './values';

/** Worst first: the order is the meaning (level i is worth i / 4). */
export const JUDGE_SCALE = [
  'CLASS_ABSENT',
  'CLASS_SLIGHTLY_PRESENT',
  'CLASS_PARTIALLY_PRESENT',
  'CLASS_MAJORLY_PRESENT',
  'CLASS_FULLY_PRESENT',
] as const;
export type JudgeClass = (typeof JUDGE_SCALE)[number];

/** Weval's numeric mapping, as Weval documents it and as `scoreValue` derives it. */
export const JUDGE_CLASS_VALUES: Readonly<Record<JudgeClass, number>> = {
  CLASS_ABSENT: 0,
  CLASS_SLIGHTLY_PRESENT: 0.25,
  CLASS_PARTIALLY_PRESENT: 0.5,
  CLASS_MAJORLY_PRESENT: 0.75,
  CLASS_FULLY_PRESENT: 1,
};

/**
 * Weval's later prompt wording names the same five levels differently (CLASS_UNMET …
 * CLASS_EXACTLY_MET, same values); a judge that answers in either vocabulary is understood.
 */
export const JUDGE_CLASS_ALIASES: Readonly<Record<string, JudgeClass>> = {
  CLASS_UNMET: 'CLASS_ABSENT',
  CLASS_PARTIALLY_MET: 'CLASS_SLIGHTLY_PRESENT',
  CLASS_MODERATELY_MET: 'CLASS_PARTIALLY_PRESENT',
  CLASS_MAJORLY_MET: 'CLASS_MAJORLY_PRESENT',
  CLASS_EXACTLY_MET: 'CLASS_FULLY_PRESENT',
};

/** The canonical class for a label as a judge wrote it (case and spacing forgiven), or null. */
export function canonicalJudgeClass(label: string): JudgeClass | null {
  const key = label.trim().toUpperCase().replace(/[\s-]+/g, '_');
  if ((JUDGE_SCALE as readonly string[]).includes(key)) return key as JudgeClass;
  return JUDGE_CLASS_ALIASES[key] ?? null;
}

/** A plain-string point as the `score` question it is: "how present is this criterion?". */
export function judgeScaleQuestion(criterion: string): ScoreQuestion {
  return { type: 'score', question: criterion, levels: [...JUDGE_SCALE] };
}

/** Folds alias labels into the canonical classes (summing their probability). */
export function canonicaliseClassDistribution(distribution: LabelDistribution): Record<JudgeClass, number> {
  const out = Object.fromEntries(JUDGE_SCALE.map((c) => [c, 0])) as Record<JudgeClass, number>;
  for (const [label, p] of Object.entries(distribution)) {
    const c = canonicalJudgeClass(label);
    if (c) out[c] += p;
  }
  return out;
}

/** The value of a plain-string point: the expected class under the distribution. */
export function judgeScaleValue(distribution: LabelDistribution): number {
  return scoreValue(JUDGE_SCALE, canonicaliseClassDistribution(distribution));
}
