/**
 * Value functions for judge questions whose answers are probabilities (docs/judging.md).
 *
 * Each judge answer is a probability distribution over the question's labels; these
 * functions turn it into the question's value in [0,1]. They validate their input and
 * throw `JudgeValueError` with a message that says how to fix it; `questionValue` is the
 * non-throwing entry point the judge pipeline uses (an invalid answer becomes a verdict
 * with status `error`, never a 0, which would read as a bad reply).
 */
import type { ChoiceQuestion, JudgeQuestion } from './questions';

/** A judge's answer: probability per label (keyed by label, never by position). */
export type LabelDistribution = Readonly<Record<string, number>>;

export class JudgeValueError extends Error {
  override name = 'JudgeValueError';
}

function checkProbability(p: number, what: string): void {
  if (!Number.isFinite(p) || p < 0 || p > 1) {
    throw new JudgeValueError(`${what} must be a probability in [0,1], got ${String(p)}; check how the judge's answer was read`);
  }
}

/** A Noul's value is the probability of "true"; there is no conversion step. */
export function noulValue(pTrue: number): number {
  checkProbability(pTrue, 'P(true)');
  return pTrue;
}

/**
 * Mass-weighted mean of `valueOf(label)` over the labels of `values` (labels absent from
 * the distribution have probability 0; labels of the distribution not in `values` are
 * ignored). The distribution is renormalised over the known labels so that a reading that
 * lost some mass to unknown tokens is not biased toward 0.
 */
export function expectedFromDistribution(distribution: LabelDistribution, values: Readonly<Record<string, number>>): number {
  let mass = 0;
  let sum = 0;
  for (const [label, value] of Object.entries(values)) {
    const p = distribution[label] ?? 0;
    checkProbability(p, `P(${label})`);
    if (!Number.isFinite(value)) throw new JudgeValueError(`the value of label "${label}" is not a finite number`);
    mass += p;
    sum += p * value;
  }
  if (mass === 0) {
    throw new JudgeValueError(
      `the answer puts no probability on any known label (${Object.keys(values).join(', ')}); the judge answered outside the scale`,
    );
  }
  return sum / mass;
}

/**
 * A Score's value: the expected level (levels counted from 0, worst first) over the top
 * level. Written best-first, the same answer gives 1 − value, silently; the loader rejects
 * levels that are not an explicit worst-to-best list, this function only trusts the order.
 */
export function scoreValue(levels: readonly string[], distribution: LabelDistribution): number {
  if (levels.length < 2) throw new JudgeValueError('a score question needs at least two levels, written worst first');
  if (new Set(levels).size !== levels.length) throw new JudgeValueError(`score levels must be distinct: ${levels.join(', ')}`);
  const top = levels.length - 1;
  const values: Record<string, number> = {};
  levels.forEach((label, level) => {
    values[label] = level / top;
  });
  return expectedFromDistribution(distribution, values);
}

/** `applicable: false` is the Choice's "does not apply": it drops out with its weight. */
export type ChoiceResult =
  | { applicable: true; value: number; nullMass: number }
  | { applicable: false; nullMass: number };

/** Null-credited options holding at least this share of the probability make a Choice not apply. */
export const CHOICE_NOT_APPLICABLE_AT = 0.5;

/**
 * A Choice's value: the credit the answer earns over the probability on options that count.
 * When the `null` ("does not apply") options hold ≥ 0.5 of the mass, the question does not
 * apply. Probabilities on labels that are not options are ignored (mass is renormalised
 * over the options).
 */
export function choiceValue(options: ChoiceQuestion['options'], distribution: LabelDistribution): ChoiceResult {
  let total = 0;
  let nullMass = 0;
  let mass = 0;
  let earned = 0;
  for (const [option, credit] of Object.entries(options)) {
    const p = distribution[option] ?? 0;
    checkProbability(p, `P(${option})`);
    total += p;
    if (credit === null) {
      nullMass += p;
      continue;
    }
    if (!Number.isFinite(credit) || credit < 0 || credit > 1) {
      throw new JudgeValueError(`the credit of option "${option}" must be in [0,1] or null, got ${String(credit)}`);
    }
    mass += p;
    earned += p * credit;
  }
  if (total === 0) {
    throw new JudgeValueError(
      `the answer puts no probability on any option (${Object.keys(options).join(', ')}); the judge answered outside the options`,
    );
  }
  const nullShare = nullMass / total;
  if (nullShare >= CHOICE_NOT_APPLICABLE_AT) return { applicable: false, nullMass: nullShare };
  // mass > 0 here: nullShare < 0.5 and total > 0.
  return { applicable: true, value: earned / mass, nullMass: nullShare };
}

export interface WeightedAnswer {
  weight: number;
  /** The question's value, or null when it does not apply. */
  value: number | null;
}

export interface QuestionsValue {
  value: number;
  /** How many answers counted (applicable ones). */
  counted: number;
  /** True when no question applied, so the value is the rule's 1, not a measurement. */
  noneApplied: boolean;
}

/**
 * Weighted mean over the questions that apply. A question that does not apply leaves both
 * sums (its weight too: keeping it in the denominator would punish what did not happen).
 * None applying gives 1: nothing applicable was left to fail.
 */
export function questionsValue(answers: readonly WeightedAnswer[]): QuestionsValue {
  let weighted = 0;
  let totalWeight = 0;
  let counted = 0;
  for (const a of answers) {
    if (a.value === null) continue;
    checkProbability(a.value, 'a question value');
    if (!Number.isFinite(a.weight) || a.weight <= 0) throw new JudgeValueError(`question weights must be positive, got ${String(a.weight)}`);
    weighted += a.weight * a.value;
    totalWeight += a.weight;
    counted += 1;
  }
  if (totalWeight === 0) return { value: 1, counted: 0, noneApplied: true };
  return { value: weighted / totalWeight, counted, noneApplied: false };
}

export type QuestionOutcome =
  | { applicable: true; value: number }
  | { applicable: false; detail: string }
  | { error: string };

/**
 * The value of any judge question from a distribution over its labels. A noul's labels are
 * `true`/`false` (the value is P(true) after renormalising the two). Never throws.
 */
export function questionValue(question: JudgeQuestion, distribution: LabelDistribution): QuestionOutcome {
  try {
    switch (question.type) {
      case 'noul':
        return { applicable: true, value: noulValue(expectedFromDistribution(distribution, { true: 1, false: 0 })) };
      case 'score':
        return { applicable: true, value: scoreValue(question.levels, distribution) };
      case 'choice': {
        const r = choiceValue(question.options, distribution);
        if (!r.applicable) {
          return { applicable: false, detail: `does not apply: options credited null hold ${r.nullMass.toFixed(3)} of the probability` };
        }
        return { applicable: true, value: r.value };
      }
    }
  } catch (e) {
    if (e instanceof JudgeValueError) return { error: e.message };
    throw e;
  }
}

/** The labels a judge may answer with for a question (what a distribution is keyed by). */
export function questionLabels(question: JudgeQuestion): string[] {
  switch (question.type) {
    case 'noul':
      return ['true', 'false'];
    case 'score':
      return [...question.levels];
    case 'choice':
      return Object.keys(question.options);
  }
}
