import { describe, expect, it } from 'vitest';
import { modeAgreement } from './mode-agreement';

describe('agreement between two judging modes', () => {
  it('identical verdicts agree fully', () => {
    const v = [{ status: 'pass', score: 0.8 }, { status: 'fail', score: 0.2 }] as const;
    expect(modeAgreement(v.map((x) => [x, x] as const))).toEqual({ n: 2, sameStatus: 1, scored: 2, meanAbsScoreDiff: 0, alpha: 1 });
  });

  it('worked numbers: one status flip, a 0.1 score difference, an unscored pair', () => {
    const r = modeAgreement([
      [{ status: 'pass', score: 0.8 }, { status: 'pass', score: 0.7 }],
      [{ status: 'fail', score: 0.2 }, { status: 'fail', score: 0.2 }],
      [{ status: 'error', score: null }, { status: 'pass', score: 1 }],
    ]);
    expect(r.n).toBe(3);
    expect(r.sameStatus).toBeCloseTo(2 / 3, 12);
    expect(r.scored).toBe(2);
    expect(r.meanAbsScoreDiff).toBeCloseTo(0.05, 12);
    // α over units (0.8, 0.7), (0.2, 0.2): D_o = (2·0.01)/4 = 0.005; values 0.8 0.7 0.2 0.2, mean 0.475,
    // SS = 0.105625 + 0.050625 + 0.075625 · 2 = 0.3075, D_e = 2·4·0.3075 / (4·3) = 0.205 → α = 1 − 0.005/0.205
    expect(r.alpha).toBeCloseTo(1 - 0.005 / 0.205, 12);
  });

  it('nothing to compare reads as unknown, not as agreement', () => {
    expect(modeAgreement([])).toEqual({ n: 0, sameStatus: null, scored: 0, meanAbsScoreDiff: null, alpha: null });
  });
});
