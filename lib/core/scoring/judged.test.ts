import { describe, expect, it } from 'vitest';
import { distributionFromSamples } from '../judging/distribution';
import { judgeScaleQuestion } from '../judging/scale';
import { outcomeFromJudges } from './judged';
import { textPoint } from './scoring.testkit';
import { verdictFromOutcome, VerdictSchema } from './verdict';

const scale = judgeScaleQuestion('mentions the deadline');
const label = (l: string) => {
  const d = distributionFromSamples([l], scale.levels);
  if ('error' in d) throw new Error(d.error);
  return d;
};

describe('outcomeFromJudges', () => {
  it('a plain-string point: the mean of each judge’s expected class, with the panel stored', () => {
    const o = outcomeFromJudges(scale, [
      { judge: 'a', distribution: label('CLASS_FULLY_PRESENT'), reasoning: 'yes' },
      { judge: 'b', distribution: label('CLASS_PARTIALLY_PRESENT') },
      { judge: 'c', error: 'timeout after 3 retries' },
    ]);
    expect(o).toMatchObject({ score: 0.75, panel: { answered: 2, failed: 1, disagree: false }, method: 'samples', reasoning: 'a: yes' });
    if (!('score' in o)) throw new Error('expected a score');
    expect(o.distribution?.probs).toMatchObject({ CLASS_FULLY_PRESENT: 0.5, CLASS_PARTIALLY_PRESENT: 0.5 });
    expect(o.detail).toMatch(/1 failed \(c: timeout/);
    const v = verdictFromOutcome(textPoint('mentions the deadline'), 0, o, { judges: ['a', 'b', 'c'] });
    expect(VerdictSchema.parse(v)).toEqual(v);
  });

  it('flags a panel that disagrees', () => {
    const o = outcomeFromJudges(scale, [
      { judge: 'a', distribution: label('CLASS_FULLY_PRESENT') },
      { judge: 'b', distribution: label('CLASS_ABSENT') },
    ]);
    expect(o).toMatchObject({ score: 0.5, panel: { disagree: true } });
  });

  it('no judge answering is an error, not a 0', () => {
    const o = outcomeFromJudges(scale, [{ judge: 'a', error: 'no <classification> element' }]);
    expect(o).toMatchObject({ error: expect.stringMatching(/^no judge answered: a: no <classification>/) });
  });

  it('a judge answering outside the scale counts as failed', () => {
    const o = outcomeFromJudges(scale, [
      { judge: 'a', distribution: { probs: { junk: 1 }, method: 'samples', n: 1 } },
      { judge: 'b', distribution: label('CLASS_ABSENT') },
    ]);
    expect(o).toMatchObject({ score: 0, panel: { answered: 1, failed: 1 } });
  });

  it('a choice that does not apply for half the judges does not apply', () => {
    const q = { type: 'choice' as const, question: 'missing info?', options: { left_out: 1, stated: 0, nothing_missing: null } };
    const d = (probs: Record<string, number>) => ({ probs, method: 'logprobs' as const });
    const o = outcomeFromJudges(q, [
      { judge: 'a', distribution: d({ nothing_missing: 0.9, stated: 0.1 }) },
      { judge: 'b', distribution: d({ left_out: 0.8, stated: 0.2 }) },
    ]);
    expect(o).toMatchObject({ notApplicable: true });
    const o2 = outcomeFromJudges(q, [
      { judge: 'a', distribution: d({ nothing_missing: 0.9, stated: 0.1 }) },
      { judge: 'b', distribution: d({ left_out: 0.8, stated: 0.2 }) },
      { judge: 'c', distribution: d({ left_out: 0.6, stated: 0.4 }) },
    ]);
    expect(o2).toMatchObject({ score: 0.7, method: 'logprobs' });
  });
});
