import { describe, expect, it } from 'vitest';
import { calibration, judgeBias, kappaWeightMatrix, weightedKappa, weightedKappaFromTallies } from './agreement';

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
    // nominal (unweighted Cohen's κ): observed agreement p_o = 3/5 (the three diagonal pairs);
    // chance p_e = Σ r_i c_i / n² = (2·1 + 1·3 + 2·1) / 25 = 7/25; κ = (p_o − p_e)/(1 − p_e) = (15/25 − 7/25)/(18/25) = 8/18
    expect(weightedKappa([[0, 0], [0, 1], [1, 1], [2, 1], [2, 2]], 3, 'nominal')).toBeCloseTo(8 / 18, 12);
    // nominal ignores the order: swapping the meaning of options 0 and 2 changes nothing, where quadratic would
    const relabelled: Array<[number, number]> = [[2, 2], [2, 1], [1, 1], [0, 1], [0, 0], [2, 0]];
    const original: Array<[number, number]> = [[0, 0], [0, 1], [1, 1], [2, 1], [2, 2], [0, 2]];
    expect(weightedKappa(relabelled, 3, 'nominal')).toBeCloseTo(weightedKappa(original, 3, 'nominal')!, 12);
    expect(() => weightedKappa([[0, 3]], 3)).toThrow(/options 0…2/);
  });

  it('weighted κ from tallies: the same κ as from the pairs, and the weights it reads', () => {
    // quadratic over 3 options: 0, .25, 1 by distance; nominal: 1 off the diagonal; linear over 4: thirds
    expect(kappaWeightMatrix(3)).toEqual([0, 0.25, 1, 0.25, 0, 0.25, 1, 0.25, 0]);
    expect(kappaWeightMatrix(3, 'nominal')).toEqual([0, 1, 1, 1, 0, 1, 1, 1, 0]);
    expect(kappaWeightMatrix(4, 'linear').slice(0, 4)).toEqual([0, 1 / 3, 2 / 3, 1]);
    // the hand-computed table above: rows 2,1,2; columns 1,3,1; observed Σw = .5
    const w = kappaWeightMatrix(3);
    expect(weightedKappaFromTallies({ n: 5, rowTotals: [2, 1, 2], colTotals: [1, 3, 1], observed: 0.5 }, 3, w)).toBe(weightedKappa([[0, 0], [0, 1], [1, 1], [2, 1], [2, 2]], 3));
    expect(weightedKappaFromTallies({ n: 5, rowTotals: [2, 1, 2], colTotals: [1, 3, 1], observed: 0.5 }, 3, w)).toBeCloseTo(1 - 0.5 / 1.5, 12);
    // no pairs, one option, or one answer throughout: no κ
    expect(weightedKappaFromTallies({ n: 0, rowTotals: [0, 0, 0], colTotals: [0, 0, 0], observed: 0 }, 3, w)).toBeNull();
    expect(weightedKappaFromTallies({ n: 2, rowTotals: [2], colTotals: [2], observed: 0 }, 1, [0])).toBeNull();
    expect(weightedKappaFromTallies({ n: 2, rowTotals: [0, 2, 0], colTotals: [0, 2, 0], observed: 0 }, 3, w)).toBeNull();
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

  it('calibration: an outcome may be people\'s mean answer, and a bin observes the mean outcome', () => {
    // bin 6 holds p = .62 (2 of 3 said yes: .667) and p = .68 (1 of 2: .5): observed (2/3 + 1/2)/2 = 7/12
    const c = calibration([
      { probability: 0.62, outcome: 2 / 3 },
      { probability: 0.68, outcome: 0.5 },
    ]);
    expect(c.bins[6]).toMatchObject({ n: 2 });
    expect(c.bins[6]!.observed).toBeCloseTo(7 / 12, 12);
    expect(c.ece).toBeCloseTo(Math.abs(7 / 12 - 0.65), 12);
    expect(() => calibration([{ probability: 0.5, outcome: 1.5 }])).toThrow(/0–1/);
  });
});
