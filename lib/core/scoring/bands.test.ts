import { describe, expect, it } from 'vitest';
import { bandLabel, rankBands } from './bands';

describe('rank bands', () => {
  it('hand-made: a clear leader, a tied middle of three, a clear last', () => {
    // 5 models in board order; only the pairs listed as tiny p are told apart
    const sig = (i: number, j: number) => ({ i, j, p: 0.0001, diff: 0.1 });
    const tie = (i: number, j: number) => ({ i, j, p: 0.4, diff: 0.01 });
    const tests = [sig(0, 1), sig(0, 2), sig(0, 3), sig(0, 4), tie(1, 2), tie(1, 3), tie(2, 3), sig(1, 4), sig(2, 4), sig(3, 4)];
    const bands = rankBands(5, tests);
    expect(bands).toEqual([
      { best: 1, worst: 1 },
      { best: 2, worst: 4 },
      { best: 2, worst: 4 },
      { best: 2, worst: 4 },
      { best: 5, worst: 5 },
    ]);
    expect(bands.map(bandLabel)).toEqual(['rank 1', 'rank 2–4', 'rank 2–4', 'rank 2–4', 'rank 5']);
  });

  it('A ≈ B, B ≈ C but A > C: overlapping bands, not one band', () => {
    const bands = rankBands(3, [
      { i: 0, j: 1, p: 0.3, diff: 0.02 },
      { i: 1, j: 2, p: 0.3, diff: 0.02 },
      { i: 0, j: 2, p: 0.001, diff: 0.04 },
    ]);
    expect(bands).toEqual([
      { best: 1, worst: 2 },
      { best: 1, worst: 3 },
      { best: 2, worst: 3 },
    ]);
  });

  it('applies Holm: p = 0.03 alone is significant, among three pairs it is not', () => {
    expect(rankBands(2, [{ i: 0, j: 1, p: 0.03, diff: 0.1 }])).toEqual([
      { best: 1, worst: 1 },
      { best: 2, worst: 2 },
    ]);
    const three = rankBands(3, [
      { i: 0, j: 1, p: 0.03, diff: 0.1 },
      { i: 0, j: 2, p: 0.03, diff: 0.1 },
      { i: 1, j: 2, p: 0.03, diff: 0.1 },
    ]);
    expect(three.every((b) => b.best === 1 && b.worst === 3)).toBe(true);
  });

  it('a significant difference against the board order moves the bands that way; missing p counts as a tie', () => {
    const bands = rankBands(2, [{ i: 0, j: 1, p: 0.001, diff: -0.1 }]);
    expect(bands).toEqual([
      { best: 2, worst: 2 },
      { best: 1, worst: 1 },
    ]);
    expect(rankBands(2, [{ i: 0, j: 1, p: null, diff: null }])).toEqual([
      { best: 1, worst: 2 },
      { best: 1, worst: 2 },
    ]);
    expect(() => rankBands(2, [{ i: 0, j: 2, p: 0.1, diff: 1 }])).toThrow(/outside the 2 ranked models/);
  });
});
