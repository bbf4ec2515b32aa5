/**
 * Bradley–Terry on simulated preferences, seeded: eight models of known strength (two pairs of
 * them close), people comparing each pair 40 times with one answer in ten a tie. The fit
 * recovers the known order, and the bands are wrong (a model's true rank outside its band) for
 * at most 5% of models across the repetitions, as the Holm-corrected rule promises.
 */
import { describe, expect, it } from 'vitest';
import { xoroshiro128plus } from 'pure-rand';
import { Rng } from '../scoring/simulate.testkit';
import { fitBradleyTerry, pairwiseRanking, type Preference } from './bradley-terry';

const STRENGTHS = [1.2, 1.1, 0.6, 0.3, 0.25, -0.3, -0.8, -1.5];
const MODELS = STRENGTHS.map((_s, i) => `model-${i + 1}`);
const PER_PAIR = 40;
const REPS = 60;

function simulate(rng: Rng): Preference[] {
  const out: Preference[] = [];
  for (let i = 0; i < MODELS.length; i++) {
    for (let j = i + 1; j < MODELS.length; j++) {
      const pA = 1 / (1 + Math.exp(STRENGTHS[j]! - STRENGTHS[i]!));
      for (let k = 0; k < PER_PAIR; k++) {
        // the order shown is randomised, as the review queue does
        const swap = rng.uniform() < 0.5;
        const [a, b] = swap ? [MODELS[j]!, MODELS[i]!] : [MODELS[i]!, MODELS[j]!];
        const u = rng.uniform();
        const iWins = rng.uniform() < pA;
        const outcome = u < 0.1 ? 'tie' : iWins !== swap ? 'a' : 'b';
        out.push({ a, b, outcome });
      }
    }
  }
  return out;
}

const spearman = (xs: number[], ys: number[]) => {
  const rank = (v: number[]) => v.map((x) => v.filter((y) => y > x).length + 1);
  const [rx, ry] = [rank(xs), rank(ys)];
  const n = xs.length;
  return 1 - (6 * rx.reduce((acc, r, i) => acc + (r - ry[i]!) ** 2, 0)) / (n * (n * n - 1));
};

describe('Bradley–Terry from simulated preferences', () => {
  it('fits the known strengths from many comparisons (the MM algorithm converges to the truth)', () => {
    const rng = new Rng(7);
    const games: Array<[number, number, number]> = [];
    for (let i = 0; i < STRENGTHS.length; i++) {
      for (let j = i + 1; j < STRENGTHS.length; j++) {
        for (let k = 0; k < 4_000; k++) games.push([i, j, rng.uniform() < 1 / (1 + Math.exp(STRENGTHS[j]! - STRENGTHS[i]!)) ? 1 : 0]);
      }
    }
    const fitted = fitBradleyTerry(STRENGTHS.length, games);
    const mean = STRENGTHS.reduce((a, b) => a + b, 0) / STRENGTHS.length;
    fitted.forEach((f, i) => expect(f, MODELS[i]).toBeCloseTo(STRENGTHS[i]! - mean, 1));
  });

  it('recovers the order, with bands wrong for at most 5% of models', () => {
    const rng = new Rng(2004);
    let wrongBands = 0;
    let rhoSum = 0;
    let firstRight = 0;
    let singleRanks = 0;
    let widths = 0;
    for (let r = 0; r < REPS; r++) {
      const ranking = pairwiseRanking(simulate(rng), xoroshiro128plus(r), { resamples: 200 });
      const fitted = MODELS.map((m) => ranking.models.find((x) => x.model === m)!.strength);
      rhoSum += spearman(fitted, STRENGTHS);
      if (ranking.models[0]!.model === MODELS[0] || ranking.models[0]!.model === MODELS[1]) firstRight++;
      for (const m of ranking.models) {
        const trueRank = MODELS.indexOf(m.model) + 1;
        if (trueRank < m.band.best || trueRank > m.band.worst) wrongBands++;
        if (m.band.best === m.band.worst) singleRanks++;
        widths += m.band.worst - m.band.best + 1;
      }
    }
    const wrongShare = wrongBands / (REPS * MODELS.length);
    expect(rhoSum / REPS, 'mean Spearman ρ with the true order').toBeGreaterThan(0.95);
    expect(firstRight, 'one of the two strongest ranked first').toBe(REPS);
    expect(wrongShare, `bands wrong for ${wrongShare} of models`).toBeLessThanOrEqual(0.05);
    // and the bands say something: they are narrow on average, and separated models get a rank of their own
    expect(widths / (REPS * MODELS.length), 'mean band width, in ranks').toBeLessThan(3);
    expect(singleRanks / (REPS * MODELS.length), 'share of single ranks').toBeGreaterThan(0.1);
  });
});
