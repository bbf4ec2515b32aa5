import { describe, expect, it } from 'vitest';
import { fnPoint, questionPoint, textPoint } from './scoring.testkit';
import { PASS_AT, specFromPoint, verdictFromOutcome, VerdictSchema } from './verdict';

describe('verdictFromOutcome', () => {
  it('booleans are 1/0, numbers are clamped, the status summarises at 0.5', () => {
    const p = fnPoint('contains', 'x');
    expect(verdictFromOutcome(p, 0, { score: true, detail: 'found' })).toMatchObject({ status: 'pass', score: 1, rawScore: 1, detail: 'found' });
    expect(verdictFromOutcome(p, 0, { score: 7 })).toMatchObject({ status: 'pass', score: 1 });
    expect(verdictFromOutcome(p, 0, { score: -5 })).toMatchObject({ status: 'fail', score: 0 });
    expect(verdictFromOutcome(p, 0, { score: PASS_AT })).toMatchObject({ status: 'pass' });
    expect(verdictFromOutcome(p, 0, { score: 0.49 })).toMatchObject({ status: 'fail', score: 0.49 });
    expect(verdictFromOutcome(p, 0, { score: Number.POSITIVE_INFINITY })).toMatchObject({ score: 1 });
  });

  it('NaN is an error verdict, never a score (defect 10)', () => {
    const v = verdictFromOutcome(fnPoint('js', 'NaN'), 0, { score: Number.NaN });
    expect(v).toMatchObject({ status: 'error', score: null });
    expect(v.detail).toMatch(/NaN/);
    expect(VerdictSchema.safeParse(v).success).toBe(true);
    expect(VerdictSchema.safeParse({ ...v, status: 'pass', score: Number.NaN }).success).toBe(false);
  });

  it('not_* negation then should_not inversion, raw score kept', () => {
    const p = fnPoint('not_contains', 'x');
    expect(verdictFromOutcome(p, 0, { score: 0.25 }, { negated: true })).toMatchObject({ score: 0.75, rawScore: 0.25 });
    // The loader stores `$contains` under should_not as `not_contains`: negated once, not twice.
    const sn = fnPoint('not_contains', 'x', { source: 'should_not' });
    expect(verdictFromOutcome(sn, 0, { score: 1 }, { negated: true })).toMatchObject({ score: 0, status: 'fail', rawScore: 1 });
    expect(verdictFromOutcome(sn, 0, { score: 0 }, { negated: true })).toMatchObject({ score: 1, status: 'pass', rawScore: 0 });
    // A judged should_not point is judged for presence and inverted.
    const judged = textPoint('mentions a competitor', { source: 'should_not' });
    expect(verdictFromOutcome(judged, 0, { score: 0.8 })).toMatchObject({ score: expect.closeTo(0.2, 12), rawScore: 0.8 });
  });

  it('errors and not-applicable carry no score', () => {
    const p = textPoint('covers X');
    expect(verdictFromOutcome(p, 3, { error: 'timeout' })).toMatchObject({ status: 'error', score: null, detail: 'timeout', pointIndex: 3 });
    expect(verdictFromOutcome(p, 0, { notApplicable: true })).toMatchObject({ status: 'not_applicable', score: null });
  });

  it('stores the spec that reproduces it (function name + args, or the judge question)', () => {
    const v = verdictFromOutcome(fnPoint('not_matches', '^a'), 0, { score: 0 }, { negated: true });
    expect(v.spec).toEqual({ kind: 'function', fn: 'not_matches', args: '^a', negated: true });
    expect(specFromPoint(textPoint('covers X'))).toMatchObject({ kind: 'judge', question: { type: 'score', question: 'covers X' } });
    const q = questionPoint({ type: 'noul', statement: 's' });
    expect(specFromPoint(q, { judges: ['j1'] })).toEqual({ kind: 'judge', question: { type: 'noul', statement: 's' }, judges: ['j1'] });
  });

  it('every verdict it builds satisfies the schema, with judge extras', () => {
    const v = verdictFromOutcome(textPoint('covers X', { weight: 2, path: 'should:0', gate: true }), 1, {
      score: 0.75,
      reasoning: 'mostly',
      method: 'logprobs',
      distribution: { probs: { CLASS_MAJORLY_PRESENT: 1 }, method: 'logprobs', coverage: 0.9 },
      panel: { answered: 3, failed: 0, std: 0, range: 0, disagree: false },
    });
    expect(VerdictSchema.parse(v)).toEqual(v);
    expect(v).toMatchObject({ weight: 2, path: 'should:0', gate: true, source: 'should', method: 'logprobs' });
  });

  it('the schema refuses a scored error and an unscored pass', () => {
    const v = verdictFromOutcome(textPoint('x'), 0, { score: 1 });
    expect(VerdictSchema.safeParse({ ...v, status: 'error' }).success).toBe(false);
    expect(VerdictSchema.safeParse({ ...v, score: null }).success).toBe(false);
  });
});
