import { describe, expect, it } from 'vitest';
import { krippendorffAlphaInterval, panelConsensus } from './consensus';

describe('panelConsensus', () => {
  it('averages the judges that answered; a failed judge is absent, not 0', () => {
    const c = panelConsensus([0.75, null, 0.25]);
    expect(c).toMatchObject({ score: 0.5, answered: 2, failed: 1, range: 0.5, std: 0.25, disagree: false });
  });

  it('flags judges far apart', () => {
    expect(panelConsensus([0, 1]).disagree).toBe(true);
    expect(panelConsensus([0, 1], { disagreeAbove: 0.6 }).disagree).toBe(false);
  });

  it('no judge answering gives no score', () => {
    expect(panelConsensus([null, null])).toMatchObject({ score: null, answered: 0, failed: 2 });
  });
});

describe('krippendorffAlphaInterval', () => {
  it('reproduces Krippendorff’s textbook example (4 coders, 12 units, missing data): α_interval = 0.849', () => {
    const _ = null;
    // Coders A–D by column; units by row (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability").
    const A = [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _];
    const B = [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3];
    const C = [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _];
    const D = [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _];
    const matrix = A.map((_v, u) => [A[u] ?? null, B[u] ?? null, C[u] ?? null, D[u] ?? null]);
    expect(krippendorffAlphaInterval(matrix)).toBeCloseTo(0.849, 3);
  });

  it('perfect agreement is 1; nothing pairable is null', () => {
    expect(krippendorffAlphaInterval([[0.75, 0.75], [0.75, 0.75]])).toBe(1);
    expect(krippendorffAlphaInterval([[1, 1], [0, 0]])).toBe(1);
    expect(krippendorffAlphaInterval([[1, null], [null, 0]])).toBeNull();
  });

  it('systematic disagreement goes below 0', () => {
    expect(krippendorffAlphaInterval([[0, 1], [1, 0]])!).toBeLessThan(0);
  });
});
