import { describe, expect, it } from 'vitest';
import { calibration, judgeBias, weightedKappa } from './agreement';

describe('judge-versus-people agreement', () => {
  it('weighted κ: 1 when identical, 0 for independent answers, and a hand-computed table', () => {
    expect(weightedKappa([[0, 0], [1, 1], [2, 2], [1, 1]], 3)).toBe(1);
    // answers independent by construction: every combination once
    const all: Array<[number, number]> = [];
    for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) all.push([a, b]);
    expect(weightedKappa(all, 3)).toBeCloseTo(0, 12);
    // 5 items, 3 options; quadratic weights d²/(k−1)²: 0, 0.25, 1
    // pairs: (0,0) (0,1) (1,1) (2,1) (2,2) → observed Σw = 0 + .25 + 0 + .25 + 0 = 0.5
    // rows (first rater) 2,1,2; columns 1,3,1 → expected Σ r_i c_j w_ij / n
    //   = (2·3·.25 + 2·1·1 + 1·1·.25 + 1·1·.25 + 2·1·1 + 2·3·.25) / 5 = (1.5 + 2 + .25 + .25 + 2 + 1.5) / 5 = 1.5
    expect(weightedKappa([[0, 0], [0, 1], [1, 1], [2, 1], [2, 2]], 3)).toBeCloseTo(1 - 0.5 / 1.5, 12);
    // linear weights |i−j|/2 on the same table: observed .5 + .5 = 1;
    // expected (2·3·.5 + 2·1·1 + 1·1·.5 + 1·1·.5 + 2·1·1 + 2·3·.5) / 5 = 11 / 5
    expect(weightedKappa([[0, 0], [0, 1], [1, 1], [2, 1], [2, 2]], 3, 'linear')).toBeCloseTo(1 - 1 / 2.2, 12);
    expect(weightedKappa([[1, 1], [1, 1]], 3)).toBeNull();
    expect(() => weightedKappa([[0, 3]], 3)).toThrow(/options 0…2/);
  });

  it('bias: the mean of judge − human with a t interval', () => {
    const b = judgeBias([
      { judge: 0.9, human: 1 },
      { judge: 0.7, human: 0.5 },
      { judge: 0.4, human: 0 },
    ])!;
    // differences −0.1, 0.2, 0.4: mean 1/6, sd 0.2517, t(0.975, 2) = 4.303
    expect(b.mean).toBeCloseTo(1 / 6, 12);
    expect(b.high - b.mean).toBeCloseTo((4.302652729911275 * Math.sqrt(((-0.1 - 1 / 6) ** 2 + (0.2 - 1 / 6) ** 2 + (0.4 - 1 / 6) ** 2) / 2)) / Math.sqrt(3), 6);
    expect(judgeBias([{ judge: 1, human: 1 }])).toBeNull();
  });

  it('calibration: bins, their observed rates, and the expected calibration error', () => {
    const c = calibration(
      [
        { probability: 0.05, outcome: 0 },
        { probability: 0.15, outcome: 0 },
        { probability: 0.95, outcome: 1 },
        { probability: 0.92, outcome: 0 },
        { probability: 1, outcome: 1 },
      ],
      10,
    );
    expect(c.bins[0]).toMatchObject({ n: 1, observed: 0 });
    expect(c.bins[9]).toMatchObject({ n: 3, observed: 2 / 3 });
    // |0 − .05|·1/5 + |0 − .15|·1/5 + |2/3 − .9567|·3/5
    expect(c.ece).toBeCloseTo(0.05 / 5 + 0.15 / 5 + (3 / 5) * Math.abs(2 / 3 - (0.95 + 0.92 + 1) / 3), 12);
    expect(calibration([]).ece).toBeNull();
  });
});
