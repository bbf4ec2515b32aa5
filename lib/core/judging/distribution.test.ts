import { describe, expect, it } from 'vitest';
import { distributionFromLogprobs, distributionFromSamples, JudgeDistributionSchema } from './distribution';

describe('distributionFromLogprobs', () => {
  it('softmax-normalises over the label tokens found, summing token variants', () => {
    const d = distributionFromLogprobs(
      [
        { token: 'true', logprob: Math.log(0.5) },
        { token: ' True', logprob: Math.log(0.1) },
        { token: 'false', logprob: Math.log(0.2) },
        { token: 'maybe', logprob: Math.log(0.2) },
      ],
      ['true', 'false'],
    );
    if ('error' in d) throw new Error(d.error);
    expect(d.method).toBe('logprobs');
    expect(d.probs.true).toBeCloseTo(0.75, 12);
    expect(d.probs.false).toBeCloseTo(0.25, 12);
    expect(d.coverage).toBeCloseTo(0.8, 12);
    expect(JudgeDistributionSchema.parse(d)).toEqual(d);
  });

  it('labels never seen get 0; no label at all is an error', () => {
    const d = distributionFromLogprobs([{ token: 'A', logprob: -0.1 }], ['A', 'B']);
    expect(d).toMatchObject({ probs: { A: 1, B: 0 } });
    expect(distributionFromLogprobs([{ token: 'x', logprob: -0.1 }], ['A', 'B'])).toHaveProperty('error');
  });

  it('stays finite for very negative log-probabilities', () => {
    const d = distributionFromLogprobs([{ token: 'A', logprob: -1000 }, { token: 'B', logprob: -1001 }], ['A', 'B']);
    if ('error' in d) throw new Error(d.error);
    expect(d.probs.A).toBeCloseTo(1 / (1 + Math.exp(-1)), 12);
  });
});

describe('distributionFromSamples', () => {
  it('counts valid labels and records invalid samples separately', () => {
    const d = distributionFromSamples(['A', 'a', 'B', null, 'junk'], ['A', 'B', 'C']);
    expect(d).toEqual({ probs: { A: 2 / 3, B: 1 / 3, C: 0 }, method: 'samples', n: 3, invalid: 2 });
  });

  it('all invalid is an error, not a uniform guess', () => {
    expect(distributionFromSamples([null, 'x'], ['A'])).toHaveProperty('error');
  });
});
