import { describe, expect, it } from 'vitest';
import { addToCoverage, coverageShare, EMPTY_COVERAGE, pointClass, sumCoverage, withheldReason } from './coverage';

describe('coverage', () => {
  it('tells judged points from deterministic ones', () => {
    expect(['text', 'question', 'function', 'correct'].map((k) => pointClass(k))).toEqual(['judged', 'judged', 'deterministic', 'deterministic']);
  });

  it('classes a criterion by its kind: judged when the kind asks a judge', () => {
    expect(pointClass('criterion', 'nuggets.coverage')).toBe('judged');
    expect(pointClass('criterion', 'behaviour.expected')).toBe('judged');
    expect(pointClass('criterion', 'reply.language')).toBe('deterministic');
    expect(pointClass('criterion', 'citations.required')).toBe('deterministic');
    expect(addToCoverage(EMPTY_COVERAGE, 'criterion', true, 2, 'rubric.judge')).toEqual({ judgedVerdicts: 2, judgedScored: 2, deterministicVerdicts: 0, deterministicScored: 0 });
  });

  it('counts planned and scored verdicts per class, and sums', () => {
    let c = addToCoverage(EMPTY_COVERAGE, 'text', false, 3);
    c = addToCoverage(c, 'question', true);
    c = addToCoverage(c, 'function', true, 2);
    expect(c).toEqual({ judgedVerdicts: 4, judgedScored: 1, deterministicVerdicts: 2, deterministicScored: 2 });
    expect(coverageShare(c, 'judged')).toBe(0.25);
    expect(coverageShare(EMPTY_COVERAGE, 'judged')).toBeNull();
    expect(sumCoverage([c, c])).toEqual({ judgedVerdicts: 8, judgedScored: 2, deterministicVerdicts: 4, deterministicScored: 4 });
  });

  it('withholds a score resting on the function points alone', () => {
    const judgeNeverAnswered = { judgedVerdicts: 6, judgedScored: 0, deterministicVerdicts: 6, deterministicScored: 6 };
    expect(withheldReason(judgeNeverAnswered)).toBe('only 0 of 6 judged verdicts got a result (under half)');
    expect(withheldReason({ ...judgeNeverAnswered, judgedScored: 3 })).toBeNull();
    expect(withheldReason({ judgedVerdicts: 0, judgedScored: 0, deterministicVerdicts: 4, deterministicScored: 1 })).toMatch(/1 of 4 deterministic/);
    expect(withheldReason(EMPTY_COVERAGE)).toBeNull();
  });
});
