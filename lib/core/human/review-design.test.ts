import { describe, expect, it } from 'vitest';
import { xoroshiro128plus } from 'pure-rand';
import { drawForReview, inclusionProbabilities, uncertaintyOf, type ReviewCandidate } from './review-design';

const candidates: ReviewCandidate[] = Array.from({ length: 1_000 }, (_v, i) => ({ id: `v${i}`, probability: (i % 101) / 100, disagreement: i % 10 === 0 }));

describe('the review design', () => {
  it('spends the expected labels, gives every item a chance, and more to uncertain and disputed ones', () => {
    const pis = inclusionProbabilities(candidates, { expectedLabels: 100, uniformShare: 0.5 });
    expect(pis.reduce((a, b) => a + b, 0)).toBeCloseTo(100, 6);
    expect(Math.min(...pis)).toBeGreaterThanOrEqual(0.05 - 1e-12); // the uniform share: 50 / 1,000
    const at = (p: number, disputed: boolean) => pis[candidates.findIndex((c) => c.probability === p && c.disagreement === disputed)]!;
    expect(at(0.5, false)).toBeGreaterThan(at(0.9, false));
    expect(at(0.9, false)).toBeGreaterThan(at(1, false));
    expect(at(0.5, true)).toBeGreaterThan(at(0.5, false));
    expect(uncertaintyOf(0.5)).toBe(1);
    expect(uncertaintyOf(0)).toBe(0);
  });

  it('draws each item about as often as its inclusion probability says (seeded)', () => {
    const design = { expectedLabels: 100, uniformShare: 0.5 };
    const pis = inclusionProbabilities(candidates, design);
    const counts = new Map<string, number>();
    const reps = 400;
    for (let r = 0; r < reps; r++) for (const d of drawForReview(candidates, xoroshiro128plus(r), design)) counts.set(d.id, (counts.get(d.id) ?? 0) + 1);
    // pooled by probability band, the drawn share matches the mean π within 3 standard errors
    for (const [lo, hi] of [[0, 0.08], [0.08, 0.14], [0.14, 1.01]] as const) {
      const ids = candidates.map((c, i) => [c, pis[i]!] as const).filter(([, p]) => p >= lo && p < hi);
      expect(ids.length, `items in band ${lo}–${hi}`).toBeGreaterThan(50);
      const expected = ids.reduce((a, [, p]) => a + p, 0) * reps;
      const seen = ids.reduce((a, [c]) => a + (counts.get(c.id) ?? 0), 0);
      expect(Math.abs(seen - expected), `band ${lo}–${hi}`).toBeLessThan(3 * Math.sqrt(expected));
    }
    // the same seed, the same draw
    expect(drawForReview(candidates, xoroshiro128plus(7), design)).toEqual(drawForReview(candidates, xoroshiro128plus(7), design));
  });
});
