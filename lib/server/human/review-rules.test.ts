/** The review queue's small pure rules: the draw's order, an answer's fields, a pair answer's model, an item's stratum. */
import { describe, expect, it } from 'vitest';
import { checkAnswerShape } from './answers';
import { stratumOf } from './draws';
import { seededOrder } from './order';
import { preferredModel } from './preference';

describe('seededOrder', () => {
  it('is a permutation, the same for the same seed, another for another seed', () => {
    const a = seededOrder(50, 1);
    expect([...a].sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(seededOrder(50, 1)).toEqual(a);
    expect(seededOrder(50, 2)).not.toEqual(a);
    expect(a).not.toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(seededOrder(0, 1)).toEqual([]);
  });
});

describe('checkAnswerShape', () => {
  it('takes a label with its answer, a flag with its reason, a bare skip', () => {
    expect(checkAnswerShape({ action: 'label', answer: 'true' })).toEqual({ action: 'label', answer: 'true', flag: null });
    expect(checkAnswerShape({ action: 'flag', flag: 'bad-question' })).toEqual({ action: 'flag', answer: null, flag: 'bad-question' });
    expect(checkAnswerShape({ action: 'skip' })).toEqual({ action: 'skip', answer: null, flag: null });
  });

  it('refuses fields that do not belong to the action, saying what to send', () => {
    expect(() => checkAnswerShape({ action: 'label' })).toThrow(/needs an answer/);
    expect(() => checkAnswerShape({ action: 'label', answer: 'true', flag: 'bad-question' })).toThrow(/carries no flag/);
    expect(() => checkAnswerShape({ action: 'skip', answer: 'true' })).toThrow(/send action "label"/);
    expect(() => checkAnswerShape({ action: 'flag' })).toThrow(/bad-question or unreadable-reply/);
    expect(() => checkAnswerShape({ action: 'skip', flag: 'bad-question' })).toThrow(/no flag/);
    expect(() => checkAnswerShape({ action: 'approve' as 'skip' })).toThrow(/label, skip or flag/);
  });
});

describe('preferredModel', () => {
  const pair = { modelA: 'm1', modelB: 'm2' };
  it('reads a and b as shown, whichever model was shown first', () => {
    expect(preferredModel(pair, 'm1', 'a')).toBe('m1');
    expect(preferredModel(pair, 'm1', 'b')).toBe('m2');
    expect(preferredModel(pair, 'm2', 'a')).toBe('m2');
    expect(preferredModel(pair, 'm2', 'b')).toBe('m1');
    expect(preferredModel(pair, 'm2', 'tie')).toBe('tie');
  });
});

describe('stratumOf', () => {
  it('disputed before uncertain before uniform', () => {
    expect(stratumOf({ id: 'x', probability: 1, disagreement: true })).toBe('disputed');
    expect(stratumOf({ id: 'x', probability: 0.5, disagreement: false })).toBe('uncertain');
    expect(stratumOf({ id: 'x', probability: 0.25, disagreement: false })).toBe('uncertain');
    expect(stratumOf({ id: 'x', probability: 0.2, disagreement: false })).toBe('uniform');
    expect(stratumOf({ id: 'x', probability: 0, disagreement: false })).toBe('uniform');
  });
});
