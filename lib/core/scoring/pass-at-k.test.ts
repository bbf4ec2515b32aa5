import { describe, expect, it } from 'vitest';
import { modelPassCurve, ModelPassCurveSchema, passAtK, passCurve, PassCurveSchema, passHatK } from './pass-at-k';

/** Exact C(n,k) with BigInt, to check the product form against the definition. */
function choose(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  let r = 1n;
  for (let i = 1; i <= k; i++) r = (r * BigInt(n - k + i)) / BigInt(i);
  return r;
}
const ratio = (a: bigint, b: bigint) => Number((a * 10n ** 15n) / b) / 1e15;

describe('pass@k (Chen et al. 2021): 1 − C(n−c,k)/C(n,k)', () => {
  it('small tables computed by hand', () => {
    // n=5, c=2, k=2: 1 − C(3,2)/C(5,2) = 1 − 3/10
    expect(passAtK(5, 2, 2)).toBeCloseTo(0.7, 14);
    // n=10, c=3, k=5: 1 − C(7,5)/C(10,5) = 1 − 21/252 = 11/12
    expect(passAtK(10, 3, 5)).toBeCloseTo(11 / 12, 14);
    // n=10, c=7, k=3: 1 − C(3,3)/C(10,3) = 1 − 1/120
    expect(passAtK(10, 7, 3)).toBeCloseTo(119 / 120, 14);
    // n=3, c=1, k=2: 1 − C(2,2)/C(3,2) = 1 − 1/3
    expect(passAtK(3, 1, 2)).toBeCloseTo(2 / 3, 14);
  });

  it('pass@1 is the pass rate c/n; pass@n is "any attempt passed"', () => {
    for (let n = 1; n <= 8; n++) for (let c = 0; c <= n; c++) {
      expect(passAtK(n, c, 1)).toBeCloseTo(c / n, 14);
      expect(passAtK(n, c, n)).toBe(c > 0 ? 1 : 0);
    }
  });

  it('agrees with the exact binomials for every n ≤ 12, c ≤ n, k ≤ n', () => {
    for (let n = 1; n <= 12; n++) for (let c = 0; c <= n; c++) for (let k = 1; k <= n; k++) {
      expect(passAtK(n, c, k)).toBeCloseTo(1 - ratio(choose(n - c, k), choose(n, k)), 12);
      expect(passHatK(n, c, k)).toBeCloseTo(ratio(choose(c, k), choose(n, k)), 12);
    }
  });

  it('is stable where the binomials overflow a double', () => {
    // C(1000,500) ≈ 2.7e299 and C(2000,1000) is Infinity as a double; the products are not.
    // n=200, c=1: 1 − C(199,k)/C(200,k) = 1 − (200−k)/200 = k/200.
    expect(passAtK(200, 1, 100)).toBeCloseTo(0.5, 12);
    // n=2000, c=1000, k=1: c/n; and pass^k with c = n is 1 at every k.
    expect(passAtK(2000, 1000, 1)).toBeCloseTo(0.5, 12);
    expect(passHatK(2000, 2000, 1000)).toBe(1);
    expect(passHatK(2000, 1999, 1000)).toBeCloseTo(1 - 1000 / 2000, 12);
    for (const k of [1, 10, 500, 1999]) {
      const v = passAtK(2000, 3, k);
      expect(Number.isFinite(v) && v >= 0 && v <= 1).toBe(true);
    }
  });
});

describe('pass^k (the reliability dual): C(c,k)/C(n,k)', () => {
  it('small tables computed by hand', () => {
    // n=5, c=2, k=2: C(2,2)/C(5,2) = 1/10
    expect(passHatK(5, 2, 2)).toBeCloseTo(0.1, 14);
    // n=10, c=7, k=3: C(7,3)/C(10,3) = 35/120
    expect(passHatK(10, 7, 3)).toBeCloseTo(35 / 120, 14);
    // fewer passes than k: no draw of k can all pass
    expect(passHatK(10, 3, 5)).toBe(0);
  });

  it('is the dual of pass@k: pass^k(n,c,k) = 1 − pass@k(n, n−c, k)', () => {
    for (let n = 1; n <= 10; n++) for (let c = 0; c <= n; c++) for (let k = 1; k <= n; k++) {
      expect(passHatK(n, c, k)).toBeCloseTo(1 - passAtK(n, n - c, k), 12);
    }
  });

  it('falls with k while pass@k rises, and they meet at k = 1', () => {
    const curve = passCurve(5, 3);
    expect(PassCurveSchema.parse(curve)).toEqual(curve);
    expect(curve.map((p) => p.k)).toEqual([1, 2, 3, 4, 5]);
    expect(curve[0]).toEqual({ k: 1, passAtK: 0.6, passHatK: 0.6 });
    for (let i = 1; i < curve.length; i++) {
      expect(curve[i]!.passAtK).toBeGreaterThanOrEqual(curve[i - 1]!.passAtK);
      expect(curve[i]!.passHatK).toBeLessThanOrEqual(curve[i - 1]!.passHatK);
    }
    // n=5, c=3, k=3: pass^3 = C(3,3)/C(5,3) = 1/10; pass@3 = 1 − C(2,3)/C(5,3) = 1
    expect(curve[2]!.passHatK).toBeCloseTo(0.1, 14);
    expect(curve[2]!.passAtK).toBe(1);
  });

  it('rejects k beyond the attempts and impossible counts, saying what to fix', () => {
    expect(() => passAtK(3, 1, 4)).toThrow(/k must be a whole number in \[1, n=3\]/);
    expect(() => passHatK(3, 4, 1)).toThrow(/passes c must be a whole number in \[0, n=3\]/);
    expect(() => passAtK(0, 0, 1)).toThrow(/n ≥ 1/);
  });
});

describe('modelPassCurve', () => {
  it('is the prompt-weighted mean at each k over the prompts with ≥ k attempts', () => {
    const curve = modelPassCurve([
      { weight: 1, n: 3, passes: 1 }, // pass@1 1/3, pass@2 1 − C(2,2)/C(3,2) = 2/3, pass@3 1
      { weight: 3, n: 3, passes: 3 }, // all 1
      { weight: 1, n: 2, passes: 0 }, // all 0 (k ≤ 2)
    ]);
    expect(ModelPassCurveSchema.parse(curve)).toEqual(curve);
    expect(curve).toHaveLength(3);
    // k=1: (1·1/3 + 3·1 + 1·0) / 5
    expect(curve[0]!.passAtK).toBeCloseTo((1 / 3 + 3) / 5, 14);
    expect(curve[0]!.prompts).toBe(3);
    // k=2: pass@2 (1·2/3 + 3) / 5; pass^2: prompt 1 C(1,2)=0, prompt 2 1 → 3/5
    expect(curve[1]!.passAtK).toBeCloseTo((2 / 3 + 3) / 5, 14);
    expect(curve[1]!.passHatK).toBeCloseTo(3 / 5, 14);
    // k=3: only the two prompts with 3 attempts: (1·1 + 3·1)/4 and pass^3 (0 + 3)/4
    expect(curve[2]).toMatchObject({ k: 3, prompts: 2, passAtK: 1, passHatK: 0.75 });
  });

  it('is empty without scored attempts', () => {
    expect(modelPassCurve([])).toEqual([]);
    expect(modelPassCurve([{ weight: 1, n: 0, passes: 0 }])).toEqual([]);
  });
});
