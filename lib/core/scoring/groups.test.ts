import { xoroshiro128plus } from 'pure-rand';
import { describe, expect, it } from 'vitest';
import { attemptPassed, passRate, scoresByGroup, type GroupedAttempt } from './groups';

const a = (promptId: string, category: string | null, rule: string | null, score: number | null, passed: boolean | null, weight = 1): GroupedAttempt => ({ promptId, weight, category, rule, score, passed });

describe('scores by category and rule', () => {
  const attempts = [
    a('R1-01', 'deposit', 'R1', 1, true),
    a('R1-01', 'deposit', 'R1', 0.5, false),
    a('R1-02', 'deposit', 'R1', 1, true),
    a('R1-02', 'deposit', 'R1', null, null),
    a('R2-01', 'maintenance', 'R2', 0, false),
    a('R2-01', 'maintenance', 'R2', 0, false),
    a('scope', 'out_of_scope', null, 1, true),
  ];

  it('is the prompt-weighted mean of prompt means over scored attempts, per key in key order', () => {
    const byCategory = scoresByGroup(attempts, 'category', xoroshiro128plus(1));
    expect(byCategory.map((g) => [g.key, g.prompts, g.scored, g.attempts, g.score])).toEqual([
      // R1-01 mean 0.75 (2 attempts), R1-02 mean 1 (its unscored attempt left out): (0.75 + 1) / 2
      ['deposit', 2, 2, 3, 0.875],
      ['maintenance', 1, 1, 2, 0],
      ['out_of_scope', 1, 1, 1, 1],
    ]);
    // the same interval method as a model's score: two prompts, not a pass rate → BCa
    expect(byCategory[0]!.interval?.method).toBe('bca-bootstrap');
    // one prompt (its attempts all 0): nothing to resample, so no interval, as for a model's score
    expect(byCategory[1]!.interval).toBeNull();
  });

  it('leaves a prompt without a rule out of the rule report, and weights prompts', () => {
    const byRule = scoresByGroup([...attempts, a('R2-02', 'maintenance', 'R2', 1, true, 3)], 'rule', xoroshiro128plus(1));
    expect(byRule.map((g) => [g.key, g.score])).toEqual([['R1', 0.875], ['R2', 0.75]]);
  });

  it('counts the per-attempt pass rate as soev does: every verdict pass or n/a, no error', () => {
    expect(attemptPassed([{ status: 'pass' }, { status: 'not_applicable' }])).toBe(true);
    expect(attemptPassed([{ status: 'pass' }, { status: 'error' }])).toBe(false);
    expect(attemptPassed([{ status: 'fail' }])).toBe(false);
    expect(attemptPassed([])).toBeNull();
    expect(passRate(attempts)).toEqual({ passed: 3, attempts: 6, rate: 0.5 });
    expect(scoresByGroup(attempts, 'rule', xoroshiro128plus(1)).map((g) => g.pass)).toEqual([
      { passed: 2, attempts: 3, rate: 2 / 3 },
      { passed: 0, attempts: 2, rate: 0 },
    ]);
  });
});
