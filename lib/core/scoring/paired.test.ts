import { xoroshiro128plus } from 'pure-rand';
import { describe, expect, it } from 'vitest';
import { binomialHalfCdf, pairedComparison, PairedComparisonSchema, signTest } from './paired';

describe('sign test', () => {
  it('matches exact binomial values', () => {
    expect(binomialHalfCdf(0, 10)).toBeCloseTo(1 / 1024, 15);
    expect(signTest(10, 0)).toBeCloseTo(2 / 1024, 15);
    expect(signTest(8, 2)).toBeCloseTo((2 * (1 + 10 + 45)) / 1024, 15);
    expect(signTest(5, 5)).toBe(1);
    expect(signTest(0, 0)).toBeNull();
  });

  it('does not underflow for many prompts', () => {
    const p = signTest(600, 400)!;
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1e-9);
  });
});

describe('pairedComparison', () => {
  const base = Array.from({ length: 30 }, (_v, i) => ({ id: `p${i}`, weight: 1, score: (i % 10) / 10 }));

  it('a model consistently better on the same prompts is detected even when prompt difficulty varies a lot', () => {
    const a = base.map((p) => ({ ...p, score: Math.min(1, p.score + 0.05) }));
    const r = pairedComparison(a, base, xoroshiro128plus(3));
    expect(r.meanDiff!).toBeGreaterThan(0);
    expect(r.interval!.low).toBeGreaterThan(0);
    expect(r.wins).toBeGreaterThan(r.losses);
    expect(r.signTestP!).toBeLessThan(0.01);
    expect(PairedComparisonSchema.parse(r)).toEqual(r);
  });

  it('identical models: all ties, interval is zero-width, no sign test', () => {
    const r = pairedComparison(base, base, xoroshiro128plus(3), { resamples: 100 });
    expect(r).toMatchObject({ meanDiff: 0, ties: 30, wins: 0, losses: 0, signTestP: null });
    expect(r.interval).toMatchObject({ low: 0, high: 0 });
  });

  it('pairs by prompt id, counting prompts that cannot be paired', () => {
    const a = [{ id: 'x', weight: 1, score: 1 }, { id: 'y', weight: 1, score: null }, { id: 'z', weight: 1, score: 1 }];
    const b = [{ id: 'z', weight: 1, score: 0 }, { id: 'x', weight: 1, score: 0.5 }, { id: 'w', weight: 1, score: 0 }];
    const r = pairedComparison(a, b, xoroshiro128plus(1), { resamples: 100 });
    expect(r).toMatchObject({ paired: 2, unpaired: 2, meanA: 1, meanB: 0.25, meanDiff: 0.75, wins: 2 });
  });

  it('is reproducible from the seed', () => {
    const a = base.map((p, i) => ({ ...p, score: i % 3 === 0 ? 1 : p.score }));
    expect(pairedComparison(a, base, xoroshiro128plus(9))).toEqual(pairedComparison(a, base, xoroshiro128plus(9)));
  });

  it('refuses prompts whose weights differ between the two runs', () => {
    expect(() => pairedComparison([{ id: 'a', weight: 1, score: 1 }], [{ id: 'a', weight: 2, score: 1 }], xoroshiro128plus(1))).toThrow(/same blueprint version/);
  });
});
