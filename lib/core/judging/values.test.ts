import { describe, expect, it } from 'vitest';
import {
  choiceValue,
  expectedFromDistribution,
  JudgeValueError,
  noulValue,
  questionLabels,
  questionsValue,
  questionValue,
  scoreValue,
} from './values';

// The worked example of seed 004, number for number.
const LEVELS = ['Fabricated', 'Mostly fabricated', 'Mostly grounded', 'Fully grounded'];
const GROUNDED = { Fabricated: 0.05, 'Mostly fabricated': 0.3, 'Mostly grounded': 0.55, 'Fully grounded': 0.1 };
const MISSING_CREDITS = {
  left_it_out: 1,
  flagged_it_as_unknown: 1,
  hedged_it: 0.5,
  stated_it_as_fact: 0,
  nothing_missing: null,
};
const SOMETHING_MISSING = { left_it_out: 0.05, flagged_it_as_unknown: 0.05, hedged_it: 0.25, stated_it_as_fact: 0.6, nothing_missing: 0.05 };
const NOTHING_MISSING = { left_it_out: 0.05, flagged_it_as_unknown: 0.05, hedged_it: 0.1, stated_it_as_fact: 0.2, nothing_missing: 0.6 };
const r3 = (x: number) => Number(x.toFixed(3));

describe('seed 004 worked example', () => {
  it('a noul is P(true): 0.3', () => {
    expect(noulValue(0.3)).toBe(0.3);
  });

  it('two questions weighted 2:1 give 0.500', () => {
    expect(questionsValue([{ weight: 2, value: 0.3 }, { weight: 1, value: 0.9 }]).value).toBeCloseTo(0.5, 12);
  });

  it('a score written worst first: (0·0.05 + 1·0.30 + 2·0.55 + 3·0.10) ÷ 3 = 0.567', () => {
    expect(r3(scoreValue(LEVELS, GROUNDED))).toBe(0.567);
  });

  it('the same answer with the levels written best first silently gives 0.433 = 1 − 0.567 (why order is meaning)', () => {
    const reversed = scoreValue([...LEVELS].reverse(), GROUNDED);
    expect(r3(reversed)).toBe(0.433);
    expect(reversed).toBeCloseTo(1 - scoreValue(LEVELS, GROUNDED), 12);
    const total = questionsValue([
      { weight: 2, value: 0.3 },
      { weight: 1, value: 0.9 },
      { weight: 1, value: reversed },
    ]).value;
    expect(r3(total)).toBe(0.483);
  });

  it('a choice: 0.225 ÷ 0.95 = 0.237 (null options leave both sums)', () => {
    const r = choiceValue(MISSING_CREDITS, SOMETHING_MISSING);
    expect(r.applicable).toBe(true);
    if (r.applicable) expect(r3(r.value)).toBe(0.237);
  });

  it('the four questions give the docs’ 0.461', () => {
    const choice = choiceValue(MISSING_CREDITS, SOMETHING_MISSING);
    if (!choice.applicable) throw new Error('expected applicable');
    const total = questionsValue([
      { weight: 2, value: 0.3 },
      { weight: 1, value: 0.9 },
      { weight: 1, value: scoreValue(LEVELS, GROUNDED) },
      { weight: 1, value: choice.value },
    ]);
    expect(r3(total.value)).toBe(0.461);
    expect(total.counted).toBe(4);
  });

  it('without the null rule the nothing-missing case scores 0.375 and the total 0.488 (the stage that fails)', () => {
    // What ignoring the null options would do: (0.05 + 0.05 + 0.1·0.5) ÷ 0.4.
    const naive = (0.05 * 1 + 0.05 * 1 + 0.1 * 0.5 + 0.2 * 0) / (0.05 + 0.05 + 0.1 + 0.2);
    expect(naive).toBeCloseTo(0.375, 12);
    const naiveTotal = questionsValue([
      { weight: 2, value: 0.3 },
      { weight: 1, value: 0.9 },
      { weight: 1, value: scoreValue(LEVELS, GROUNDED) },
      { weight: 1, value: naive },
    ]).value;
    expect(r3(naiveTotal)).toBe(0.488);
  });

  it('with the null rule the choice does not apply (0.6 ≥ 0.5) and the total rises to 0.517', () => {
    const r = choiceValue(MISSING_CREDITS, NOTHING_MISSING);
    expect(r).toEqual({ applicable: false, nullMass: 0.6 });
    const total = questionsValue([
      { weight: 2, value: 0.3 },
      { weight: 1, value: 0.9 },
      { weight: 1, value: scoreValue(LEVELS, GROUNDED) },
      { weight: 1, value: null },
    ]);
    expect(r3(total.value)).toBe(0.517);
    expect(total.counted).toBe(3);
    // Keeping the dropped weight in the denominator would give 2.067 ÷ 5 = 0.413: we do not.
    expect(r3(total.value)).not.toBe(0.413);
  });

  it('no question applying gives 1, flagged', () => {
    expect(questionsValue([{ weight: 1, value: null }])).toEqual({ value: 1, counted: 0, noneApplied: true });
    expect(questionsValue([])).toEqual({ value: 1, counted: 0, noneApplied: true });
  });
});

describe('edges', () => {
  it('null mass exactly 0.5 does not apply; just under does', () => {
    expect(choiceValue({ a: 1, n: null }, { a: 0.5, n: 0.5 }).applicable).toBe(false);
    expect(choiceValue({ a: 1, n: null }, { a: 0.51, n: 0.49 })).toEqual({ applicable: true, value: 1, nullMass: 0.49 });
  });

  it('labels outside the options are ignored and the rest renormalised', () => {
    const r = choiceValue({ good: 1, bad: 0 }, { good: 0.3, bad: 0.3, junk: 0.4 });
    expect(r).toEqual({ applicable: true, value: 0.5, nullMass: 0 });
  });

  it('rejects non-probabilities with a message that says what to check', () => {
    expect(() => noulValue(Number.NaN)).toThrow(JudgeValueError);
    expect(() => noulValue(1.2)).toThrow(/probability in \[0,1\]/);
    expect(() => scoreValue(['a', 'b'], { a: -0.1, b: 1 })).toThrow(JudgeValueError);
  });

  it('an answer with no mass on the scale is an error, not a 0', () => {
    expect(() => scoreValue(['a', 'b'], { c: 1 })).toThrow(/outside the scale/);
    expect(() => choiceValue({ a: 1 }, {})).toThrow(/outside the options/);
    expect(questionValue({ type: 'score', question: 'q', levels: ['a', 'b'] }, { c: 1 })).toHaveProperty('error');
  });

  it('expectedFromDistribution is the mass-weighted mean over known labels', () => {
    expect(expectedFromDistribution({ x: 0.25, y: 0.25 }, { x: 0, y: 1 })).toBe(0.5);
  });

  it('questionValue dispatches per type', () => {
    expect(questionValue({ type: 'noul', statement: 's' }, { true: 0.3, false: 0.7 })).toEqual({ applicable: true, value: 0.3 });
    expect(questionValue({ type: 'choice', question: 'q', options: MISSING_CREDITS }, NOTHING_MISSING)).toMatchObject({ applicable: false });
    expect(questionLabels({ type: 'choice', question: 'q', options: { a: 1, b: null } })).toEqual(['a', 'b']);
  });
});
