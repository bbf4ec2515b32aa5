import { describe, expect, it } from 'vitest';
import { holm } from './holm';

describe('Holm correction', () => {
  it('matches a hand-computed example (R: p.adjust(c(.01,.04,.03,.005), "holm") = .03 .06 .06 .02)', () => {
    // sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → max(0.06, 0.04) = 0.06
    const r = holm([0.01, 0.04, 0.03, 0.005], 0.05);
    expect(r.adjusted[0]).toBeCloseTo(0.03, 15);
    expect(r.adjusted[1]).toBeCloseTo(0.06, 15);
    expect(r.adjusted[2]).toBeCloseTo(0.06, 15);
    expect(r.adjusted[3]).toBeCloseTo(0.02, 15);
    // 0.03 at 0.05 would be rejected alone; after Holm it is not, and the step-down stops there
    expect(r.rejected).toEqual([true, false, false, true]);
  });

  it('caps at 1, keeps ties in order, and rejects nothing when nothing is small', () => {
    const r = holm([0.5, 0.5, 0.9]);
    expect(r.adjusted).toEqual([1, 1, 1]);
    expect(r.rejected).toEqual([false, false, false]);
    expect(holm([])).toEqual({ adjusted: [], rejected: [] });
    expect(holm([0.001, 0.001]).rejected).toEqual([true, true]);
  });

  it('is never less strict than testing each alone, never stricter than Bonferroni', () => {
    const p = [0.001, 0.011, 0.02, 0.04, 0.3];
    const r = holm(p);
    r.adjusted.forEach((adj, i) => {
      expect(adj).toBeGreaterThanOrEqual(p[i]!);
      expect(adj).toBeLessThanOrEqual(Math.min(1, p[i]! * p.length));
    });
    expect(r.rejected).toEqual([true, true, false, false, false]);
  });

  it('refuses p-values outside [0,1] and a bad α, saying which', () => {
    expect(() => holm([0.1, 1.2])).toThrow(/p-value 1 is 1.2/);
    expect(() => holm([0.1], 0)).toThrow(/alpha/);
  });
});
