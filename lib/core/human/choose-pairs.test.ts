import { describe, expect, it } from 'vitest';
import { choosePairs } from './choose-pairs';

const models = [
  { modelId: 'a', score: 0.9 },
  { modelId: 'b', score: 0.85 },
  { modelId: 'c', score: 0.5 },
  { modelId: 'd', score: null },
];
const prompts = ['p1', 'p2', 'p3'];
const key = (p: { modelA: string; modelB: string }) => [p.modelA, p.modelB].sort().join('–');

describe('choosing pairs to compare', () => {
  it('puts the closest models first and the unscored last, one prompt per pair per round', () => {
    const pairs = choosePairs({ models, prompts, count: 6, seed: 4 });
    // gaps: a–b .05, b–c .35, a–c .4, then the pairs with d (no score)
    expect(pairs.map(key)).toEqual(['a–b', 'b–c', 'a–c', 'a–d', 'b–d', 'c–d']);
    expect(pairs[0]!.gap).toBeCloseTo(0.05, 12);
    expect(pairs[1]!.gap).toBeCloseTo(0.35, 12);
    expect(pairs[5]!.gap).toBeNull();
    const ab = pairs[0]!;
    expect(ab.modelA === 'a' ? ab.scoreA : ab.scoreB).toBe(0.9);
  });

  it('never shows a pair the same prompt twice, and stops when every pair has seen every prompt', () => {
    const pairs = choosePairs({ models, prompts, count: 1000, seed: 9 });
    expect(pairs).toHaveLength(6 * 3);
    const seen = new Set(pairs.map((p) => `${key(p)}@${p.promptKey}`));
    expect(seen.size).toBe(pairs.length);
    // round robin: the closest pair's second prompt comes only after every pair had its first
    expect(pairs.slice(6).map(key)).toEqual(pairs.slice(0, 6).map(key).concat(pairs.slice(0, 6).map(key)));
  });

  it('respects the count, is the same for a seed, and varies the order shown', () => {
    expect(choosePairs({ models, prompts, count: 4, seed: 1 })).toHaveLength(4);
    expect(choosePairs({ models, prompts, count: 10, seed: 1 })).toEqual(choosePairs({ models, prompts, count: 10, seed: 1 }));
    const many = Array.from({ length: 20 }, (_v, seed) => choosePairs({ models, prompts, count: 18, seed }));
    // over 20 seeds × 18 pairs, both sides of a pair come first some of the time
    const aFirst = many.flat().filter((p) => p.modelA === 'a' && p.modelB === 'b').length;
    const bFirst = many.flat().filter((p) => p.modelA === 'b' && p.modelB === 'a').length;
    expect(aFirst).toBeGreaterThan(0);
    expect(bFirst).toBeGreaterThan(0);
    // the prompts' order depends on the seed
    expect(new Set(many.map((ps) => ps[0]!.promptKey)).size).toBeGreaterThan(1);
  });

  it('chooses nothing without two models, a prompt or a count', () => {
    expect(choosePairs({ models: models.slice(0, 1), prompts, count: 5, seed: 1 })).toEqual([]);
    expect(choosePairs({ models, prompts: [], count: 5, seed: 1 })).toEqual([]);
    expect(choosePairs({ models, prompts, count: 0, seed: 1 })).toEqual([]);
  });
});
