import { xoroshiro128plus } from 'pure-rand';
import { describe, expect, it } from 'vitest';
import { IntervalSchema } from './bootstrap';
import { clusteredMean, clusteredNormalInterval, clusteredStandardError } from './interval-clustered';

describe('clusteredStandardError (Miller 2024, with G/(G−1))', () => {
  it('a hand-computed example: 3 prompts × 3 attempts', () => {
    // attempts: p1 = [1,1,0], p2 = [0,0,0], p3 = [1,1,1]; prompt means 2/3, 0, 1; n = 9, G = 3.
    // θ = mean of all 9 attempts = 5/9 (= mean of prompt means, equal attempts).
    // Miller's form: Σ_c (Σ_i (s_ic − θ))² / n²:
    //   p1: 3·(2/3 − 5/9) = 1/3 → 1/9;  p2: 3·(0 − 5/9) = −5/3 → 25/9;  p3: 3·(1 − 5/9) = 4/3 → 16/9
    //   sum = 42/9, / n² = 42/729.  Of it, the i.i.d. CLT term Σ(s − θ)²/n² is
    //   (5·(4/9)² + 4·(5/9)²)/81 = (180/81)/81 = 20/729, so the within-prompt cross terms add 22/729.
    // Finite-cluster correction G/(G−1) = 3/2: SE² = 63/729 = 7/81, SE = √7 / 9 ≈ 0.29397.
    const byPrompt = [{ weight: 3, mean: 2 / 3, n: 3 }, { weight: 3, mean: 0, n: 3 }, { weight: 3, mean: 1, n: 3 }];
    expect(clusteredMean(byPrompt)).toBeCloseTo(5 / 9, 14);
    expect(clusteredStandardError(byPrompt)).toBeCloseTo(Math.sqrt(7) / 9, 14);
    // The same with prompt weights 1 (the blueprint's prompt-weighted mean): equal attempts, same SE.
    expect(clusteredStandardError(byPrompt.map((c) => ({ ...c, weight: 1 })))).toBeCloseTo(Math.sqrt(7) / 9, 14);
    // Treating the 9 attempts as independent would claim SE = √(20/729 · 9/8) ≈ 0.1757: too narrow.
    const iid = Array.from({ length: 9 }, (_v, i) => ({ weight: 1, mean: [1, 1, 0, 0, 0, 0, 1, 1, 1][i]!, n: 1 }));
    expect(clusteredStandardError(iid)).toBeCloseTo(Math.sqrt((20 / 729) * (9 / 8)), 14);
    expect(clusteredStandardError(iid)).toBeLessThan(clusteredStandardError(byPrompt));
  });

  it('unequal attempts, weighted by attempts: Miller’s mean over all observations', () => {
    // p1 = [1,0] (n=2), p2 = [1,1,1,1] (n=4): θ = 5/6. Cluster sums of residuals:
    //   p1: (1 − 5/6) + (0 − 5/6) = −2/3;  p2: 4·(1/6) = 2/3.  Σ² = 8/9, / n² = 8/324 = 2/81.
    //   × G/(G−1) = 2 → 4/81, SE = 2/9.
    const c = [{ weight: 2, mean: 0.5, n: 2 }, { weight: 4, mean: 1, n: 4 }];
    expect(clusteredMean(c)).toBeCloseTo(5 / 6, 14);
    expect(clusteredStandardError(c)).toBeCloseTo(2 / 9, 14);
  });

  it('one attempt per prompt: the textbook s/√G', () => {
    // x = 0.2, 0.4, 0.9, 0.5: mean 0.5, Σ(x − x̄)² = 0.26, s² = 0.26/3, SE = √(0.26/12)
    const c = [0.2, 0.4, 0.9, 0.5].map((mean) => ({ weight: 1, mean, n: 1 }));
    expect(clusteredStandardError(c)).toBeCloseTo(Math.sqrt(0.26 / 12), 14);
  });

  it('the normal interval is θ ± z·SE, clipped to [0,1], and says what it rests on', () => {
    // means 0.5, 0.6, 0.7, 0.4 (2 attempts each): θ = 0.55, Σ residuals² = 0.05, /16 · 4/3 → SE² = 0.05/12
    const c = [0.5, 0.6, 0.7, 0.4].map((mean) => ({ weight: 1, mean, n: 2 }));
    const i = clusteredNormalInterval(c, 0.95);
    expect(i.low).toBeCloseTo(0.55 - 1.959963984540054 * Math.sqrt(0.05 / 12), 12);
    expect(i.high).toBeCloseTo(0.55 + 1.959963984540054 * Math.sqrt(0.05 / 12), 12);
    expect(i).toMatchObject({ method: 'normal-clustered', n: 8, clusters: 4, resamples: null, level: 0.95 });
    expect(IntervalSchema.parse(i)).toEqual(i);
    // 2/3, 0, 1: θ ± 0.576 leaves [0,1] on both sides, and is clipped to it
    const wide = clusteredNormalInterval([{ weight: 1, mean: 2 / 3, n: 3 }, { weight: 1, mean: 0, n: 3 }, { weight: 1, mean: 1, n: 3 }], 0.95);
    expect([wide.low, wide.high]).toEqual([0, 1]);
  });

  it('needs two prompts', () => {
    expect(() => clusteredStandardError([{ weight: 1, mean: 1, n: 5 }])).toThrow(/at least 2 prompts/);
  });

  it('covers ~95% when attempts of a prompt are correlated, where treating attempts as independent does not (seeded simulation)', () => {
    // 40 prompts of difficulty p ~ U(0,1), 5 attempts each passing with probability p; true mean ½.
    // Between-prompt variance 1/12, within 1/6: intra-prompt correlation 1/3, design effect
    // 1 + 4/3 ≈ 2.3, so an i.i.d. SE is √2.3 ≈ 1.5 times too small (coverage ≈ 80%).
    const g = xoroshiro128plus(2411);
    const u = () => (g.unsafeNext() >>> 0) / 2 ** 32;
    let clustered = 0;
    let naive = 0;
    const trials = 400;
    for (let t = 0; t < trials; t++) {
      const prompts = Array.from({ length: 40 }, () => {
        const p = u();
        return Array.from({ length: 5 }, (): number => (u() < p ? 1 : 0));
      });
      const c = clusteredNormalInterval(prompts.map((a) => ({ weight: 1, mean: a.reduce((x, y) => x + y, 0) / 5, n: 5 })), 0.95);
      const i = clusteredNormalInterval(prompts.flat().map((x) => ({ weight: 1, mean: x, n: 1 })), 0.95);
      if (c.low <= 0.5 && 0.5 <= c.high) clustered++;
      if (i.low <= 0.5 && 0.5 <= i.high) naive++;
    }
    expect(clustered / trials).toBeGreaterThan(0.91);
    expect(clustered / trials).toBeLessThan(0.98);
    expect(naive / trials).toBeLessThan(0.87);
  });
});
