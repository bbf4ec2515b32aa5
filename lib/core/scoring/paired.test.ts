import { xoroshiro128plus } from 'pure-rand';
import { describe, expect, it } from 'vitest';
import { binomialHalfCdf, boardPairedComparison, pairedComparison, PairedComparisonSchema, pairedCorrelation, pairedTTest, signTest } from './paired';

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

describe('paired t-test', () => {
  // Hand-computed: d = A − B = 0.1, 0.2, 0, 0.3, 0.1; mean 0.14; Σ(d − d̄)² = 0.052, s² = 0.013,
  // se = √(0.013/5) = 0.050990; t = 2.745626, df 4; t₀.₉₇₅,₄ = 2.776445 (tables), so the 95%
  // interval is 0.14 ± 0.141573; two-sided p = 0.051606 (scipy.stats.ttest_rel agrees);
  // the Pearson correlation of A and B is 0.963123.
  const a = [0.5, 0.7, 0.4, 0.9, 0.6].map((score, i) => ({ id: `p${i}`, weight: 1, score }));
  const b = [0.4, 0.5, 0.4, 0.6, 0.5].map((score, i) => ({ id: `p${i}`, weight: 1, score }));

  it('matches the hand-computed example', () => {
    const r = pairedComparison(a, b, xoroshiro128plus(1), { resamples: 200 });
    expect(r.n).toBe(5);
    expect(r.meanDiff).toBeCloseTo(0.14, 12);
    expect(r.se).toBeCloseTo(0.0509902, 6);
    expect(r.df).toBe(4);
    expect(r.tInterval!.low).toBeCloseTo(0.14 - 0.141573, 5);
    expect(r.tInterval!.high).toBeCloseTo(0.14 + 0.141573, 5);
    expect(r.tTestP).toBeCloseTo(0.051606, 5);
    expect(r.correlation).toBeCloseTo(0.963123, 5);
    // the interval includes 0 exactly when p ≥ 0.05
    expect(r.tInterval!.low).toBeLessThan(0);
    expect(PairedComparisonSchema.parse(r)).toEqual(r);
  });

  it('doubling a prompt’s weight is the same as listing it twice (the sandwich SE reduces to s/√n)', () => {
    const weighted = pairedTTest([
      { weight: 2, a: 0.5, b: 0.4 },
      { weight: 1, a: 0.7, b: 0.5 },
      { weight: 1, a: 0.4, b: 0.4 },
    ])!;
    const listed = pairedTTest([
      { weight: 1, a: 0.5, b: 0.4 },
      { weight: 1, a: 0.5, b: 0.4 },
      { weight: 1, a: 0.7, b: 0.5 },
      { weight: 1, a: 0.4, b: 0.4 },
    ])!;
    expect(weighted.meanDiff).toBeCloseTo(listed.meanDiff, 12);
    // not identical (3 vs 4 units), but the same order of magnitude and the same sign
    expect(weighted.se / listed.se).toBeGreaterThan(0.8);
    expect(weighted.se / listed.se).toBeLessThan(1.3);
  });

  it('stratified: variance is summed within strata, df = n − strata', () => {
    // stratum x: d = 0.1, 0.3 (mean 0.2); stratum y: d = 0, 0.2 (mean 0.1); equal shares 1/2
    const pairs = [
      { stratum: 'x', weight: 0.5, a: 0.6, b: 0.5 },
      { stratum: 'x', weight: 0.5, a: 0.8, b: 0.5 },
      { stratum: 'y', weight: 0.5, a: 0.5, b: 0.5 },
      { stratum: 'y', weight: 0.5, a: 0.7, b: 0.5 },
    ];
    const t = pairedTTest(pairs)!;
    expect(t.meanDiff).toBeCloseTo(0.15, 12);
    expect(t.df).toBe(2);
    // each stratum: var(mean) = s²/2 = 0.02/2 = 0.01; board: (1/2)²·0.01 + (1/2)²·0.01 = 0.005
    expect(t.se).toBeCloseTo(Math.sqrt(0.005), 12);
  });

  it('no spread, one pair or none: exact or absent, never NaN', () => {
    const same = pairedTTest([
      { weight: 1, a: 0.6, b: 0.5 },
      { weight: 1, a: 0.9, b: 0.8 },
    ])!;
    expect(same).toMatchObject({ se: 0, tTestP: 0 });
    expect(pairedTTest([{ weight: 1, a: 1, b: 0 }])).toBeNull();
    const one = pairedComparison([{ id: 'a', weight: 1, score: 1 }], [{ id: 'a', weight: 1, score: 0 }], xoroshiro128plus(1));
    expect(one).toMatchObject({ n: 1, meanDiff: 1, se: null, tTestP: null, tInterval: null, correlation: null });
  });

  it('identical models: p = 1, no correlation when a side is constant', () => {
    const base = Array.from({ length: 30 }, (_v, i) => ({ id: `p${i}`, weight: 1, score: (i % 10) / 10 }));
    const r = pairedComparison(base, base, xoroshiro128plus(3), { resamples: 10 });
    expect(r).toMatchObject({ tTestP: 1, se: 0 });
    expect(r.correlation).toBeCloseTo(1, 12);
    expect(pairedCorrelation([{ weight: 1, a: 1, b: 0.2 }, { weight: 1, a: 1, b: 0.4 }])).toBeNull();
  });
});

describe('boardPairedComparison', () => {
  it('weights each shared blueprint equally, whatever its prompt count, and stratifies by blueprint', () => {
    const mk = (blueprintId: string, scores: number[]) => scores.map((score, i) => ({ blueprintId, promptKey: `q${i}`, weight: 1, score }));
    // blueprint x (4 prompts): A − B = 0.2 everywhere; y (2 prompts): A − B = 0 → board difference 0.1
    const a = [...mk('x', [0.8, 0.7, 0.6, 0.9]), ...mk('y', [0.5, 0.4]), ...mk('only-a', [1])];
    const b = [...mk('x', [0.6, 0.5, 0.4, 0.7]), ...mk('y', [0.5, 0.4])];
    const r = boardPairedComparison(a, b);
    expect(r).toMatchObject({ n: 6, unpaired: 1, wins: 4, ties: 2, interval: null });
    expect(r.meanDiff).toBeCloseTo(0.1, 12);
    expect(r.df).toBe(4);
    // no spread inside either blueprint: the stratified difference is exact
    expect(r.se).toBe(0);
    expect(r.tTestP).toBe(0);
  });
});
