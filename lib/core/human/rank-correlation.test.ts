import { describe, expect, it } from 'vitest';
import { averageRanks, kendallTauB, spearman } from './rank-correlation';

describe('rank correlations', () => {
  it('ranks ties by their average rank', () => {
    expect(averageRanks([10, 30, 20, 20])).toEqual([1, 4, 2.5, 2.5]);
  });

  it('agree with the textbook values on a small case without ties', () => {
    const xs = [1, 2, 3, 4, 5];
    const ys = [2, 1, 4, 3, 5];
    // ρ = 1 − 6 Σd² / (n(n² − 1)); rank differences −1, 1, −1, 1, 0 → Σd² = 4 → 1 − 24/120 = 0.8
    expect(spearman(xs, ys)).toBeCloseTo(0.8, 12);
    // of the 10 pairs only (1,2) and (3,4) are swapped: τ = (8 − 2)/10
    expect(kendallTauB(xs, ys)).toBeCloseTo(0.6, 12);
    expect(spearman(xs, [...ys].reverse().map((y) => -y))).toBeCloseTo(0.8, 12);
    expect(spearman(xs, xs.map((x) => -x))).toBeCloseTo(-1, 12);
    expect(kendallTauB(xs, xs.map((x) => 100 - x * x))).toBeCloseTo(-1, 12);
  });

  it('correct for ties', () => {
    const xs = [1, 2, 2, 3];
    const ys = [1, 2, 3, 4];
    // ranks of x: 1, 2.5, 2.5, 4, of y: 1, 2, 3, 4 (both mean 2.5); deviations (−1.5, 0, 0, 1.5) and (−1.5, −.5, .5, 1.5)
    // Σ dx·dy = 4.5, Σ dx² = 4.5, Σ dy² = 5 → ρ = 4.5/√22.5 = 3/√10
    expect(spearman(xs, ys)).toBeCloseTo(3 / Math.sqrt(10), 12);
    // 6 pairs: 1 tied in x, 5 concordant, none discordant → τ-b = 5/√((6 − 1)(6 − 0)) = 5/√30
    expect(kendallTauB(xs, ys)).toBeCloseTo(5 / Math.sqrt(30), 12);
  });

  it('say nothing under three items or when a side is constant', () => {
    expect(spearman([1, 2], [2, 1])).toBeNull();
    expect(kendallTauB([1, 2], [2, 1])).toBeNull();
    expect(spearman([1, 2, 3], [5, 5, 5])).toBeNull();
    expect(kendallTauB([4, 4, 4], [1, 2, 3])).toBeNull();
    expect(() => spearman([1, 2, 3], [1, 2])).toThrow(/one y per x/);
  });
});
