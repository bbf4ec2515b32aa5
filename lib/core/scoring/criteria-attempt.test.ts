import { describe, expect, it } from 'vitest';
import { criteriaAttemptScore } from './criteria-attempt';

const v = (status: 'pass' | 'fail' | 'not_applicable' | 'error', weight = 1, gate = false) => ({ status, weight, gate });

describe('criteriaAttemptScore (soev ScoredAttempt)', () => {
  it('weight passed ÷ weight passed+failed: pass w3, fail w1 → 3/4 = 0.75, not passed', () => {
    expect(criteriaAttemptScore([v('pass', 3), v('fail', 1)])).toMatchObject({ score: 0.75, passed: false, passedWeight: 3, countedWeight: 4 });
  });

  it('error and not_applicable do not count in the score; an error fails the attempt, n/a does not', () => {
    expect(criteriaAttemptScore([v('pass', 2), v('not_applicable', 5), v('fail', 2)])).toMatchObject({ score: 0.5, passed: false });
    expect(criteriaAttemptScore([v('pass', 2), v('not_applicable', 5)])).toMatchObject({ score: 1, passed: true });
    expect(criteriaAttemptScore([v('pass', 2), v('error', 5)])).toMatchObject({ score: 1, passed: false });
  });

  it('a failed gate makes the score 0; a passed gate does not enter the score', () => {
    expect(criteriaAttemptScore([v('pass', 3), v('fail', 1, true)])).toMatchObject({ score: 0, gateFailed: true, passed: false });
    expect(criteriaAttemptScore([v('pass', 1, true), v('pass', 1), v('fail', 3)])).toMatchObject({ score: 0.25, gateFailed: false, countedWeight: 4 });
  });

  it('no passed or failed non-gate criterion → 1', () => {
    expect(criteriaAttemptScore([v('pass', 1, true)])).toMatchObject({ score: 1, passed: true });
    expect(criteriaAttemptScore([v('not_applicable'), v('error')])).toMatchObject({ score: 1, passed: false });
    expect(criteriaAttemptScore([])).toMatchObject({ score: 1, passed: true });
  });
});
