import { describe, expect, it } from 'vitest';
import { canonicalJudgeClass, JUDGE_CLASS_VALUES, JUDGE_SCALE, judgeScaleQuestion, judgeScaleValue } from './scale';
import { JudgeQuestionSchema } from './questions';
import { scoreValue } from './values';

describe('judge class scale', () => {
  it('a point mass on each class gives Weval’s number (0, 0.25, 0.5, 0.75, 1)', () => {
    for (const c of JUDGE_SCALE) {
      expect(judgeScaleValue({ [c]: 1 })).toBe(JUDGE_CLASS_VALUES[c]);
    }
  });

  it('is a valid score question written worst first', () => {
    const q = judgeScaleQuestion('mentions the deadline');
    expect(JudgeQuestionSchema.parse(q)).toEqual(q);
    expect(q.levels[0]).toBe('CLASS_ABSENT');
    expect(scoreValue(q.levels, { CLASS_PARTIALLY_PRESENT: 0.5, CLASS_FULLY_PRESENT: 0.5 })).toBe(0.75);
  });

  it('understands Weval’s later class names and sloppy spelling', () => {
    expect(canonicalJudgeClass('CLASS_EXACTLY_MET')).toBe('CLASS_FULLY_PRESENT');
    expect(canonicalJudgeClass(' class_majorly_present ')).toBe('CLASS_MAJORLY_PRESENT');
    expect(canonicalJudgeClass('CLASS_NOPE')).toBeNull();
    expect(judgeScaleValue({ CLASS_MODERATELY_MET: 0.5, CLASS_PARTIALLY_PRESENT: 0.5 })).toBe(0.5);
  });
});
