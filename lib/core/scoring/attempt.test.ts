import { describe, expect, it } from 'vitest';
import { attemptScore, AttemptScoreSchema } from './attempt';
import { errored, notApplicable, scored } from './scoring.testkit';

describe('attemptScore', () => {
  it('weighted mean of required points', () => {
    const r = attemptScore([scored(1, { weight: 2 }), scored(0.5, { weight: 1 }, 1)]);
    expect(r.score).toBeCloseTo(5 / 6, 15);
    expect(AttemptScoreSchema.parse(r)).toEqual(r);
  });

  it('best alternative path, averaged with the required group', () => {
    const r = attemptScore([
      scored(0.8),
      scored(0.2, { path: 'a' }, 1),
      scored(1, { path: 'b' }, 2),
      scored(0.6, { path: 'b' }, 3),
    ]);
    expect(r).toMatchObject({ required: 0.8, bestPath: 'b', paths: { a: 0.2, b: 0.8 }, score: 0.8 });
  });

  it('errors are excluded and counted, never 0', () => {
    const r = attemptScore([scored(1), errored({}, 1), scored(0.5, {}, 2)]);
    expect(r).toMatchObject({ score: 0.75, errors: 1, counted: 2 });
  });

  it('a group whose points all errored drops out instead of scoring 0', () => {
    const r = attemptScore([errored(), scored(0.4, { path: 'a' }, 1)]);
    expect(r).toMatchObject({ score: 0.4, required: null, errors: 1 });
  });

  it('every verdict errored → no score, not 0', () => {
    expect(attemptScore([errored(), errored({}, 1)])).toMatchObject({ score: null, noApplicable: false, errors: 2 });
  });

  it('nothing applicable → 1, flagged', () => {
    expect(attemptScore([notApplicable()])).toMatchObject({ score: 1, noApplicable: true, notApplicable: 1 });
    expect(attemptScore([])).toMatchObject({ score: 1, noApplicable: true });
  });

  it('not-applicable verdicts leave the mean with their weight', () => {
    expect(attemptScore([scored(0.5), notApplicable({ weight: 5 }, 1)]).score).toBe(0.5);
  });

  it('a failed gate makes the attempt 0; a passed gate is a condition, not a term', () => {
    const failed = attemptScore([scored(1), scored(0, { gate: true }, 7)]);
    expect(failed).toMatchObject({ score: 0, gateFailed: true, failedGates: [7] });
    const passed = attemptScore([scored(0.5), scored(1, { gate: true }, 1)]);
    expect(passed).toMatchObject({ score: 0.5, gateFailed: false, counted: 1 });
  });

  it('a failed gate wins even when every other verdict errored', () => {
    expect(attemptScore([errored(), scored(0, { gate: true }, 1)])).toMatchObject({ score: 0, gateFailed: true, errors: 1 });
  });

  it('should_not verdicts count with their inverted score', () => {
    expect(attemptScore([scored(1, { source: 'should_not' })]).score).toBe(0);
  });
});
