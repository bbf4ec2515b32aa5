/**
 * Prediction-powered means on simulated reviews, seeded: items whose true (human) value is drawn
 * around a known mean, a judge biased by a known amount, and the review queue's design (a uniform
 * share plus over-sampling of the items the judge is unsure of). Over 1,000 repetitions the
 * prediction-powered interval covers the true mean about 95% of the time, where the judge-only
 * interval almost never does; the estimate is unbiased, and it is the 1/π weighting that keeps it
 * so: the same correction without it is off by a clear margin under over-sampling.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../scoring/simulate.testkit';
import { predictionPoweredMean, type PpiItem } from './prediction-powered';
import { inclusionProbabilities } from './review-design';

const TRUE_MEAN = 0.6;
const BIAS = 0.12;
const ITEMS = 1_500;
const REPS = 1_000;

/** One simulated set of judged items, and the labels the review queue's design drew (review-design.ts). */
function simulate(rng: Rng): PpiItem[] {
  const judged = Array.from({ length: ITEMS }, () => {
    // people's value: pass (1) with probability 0.6, as a judged point's human answer
    const human = rng.uniform() < TRUE_MEAN ? 1 : 0;
    // the judge: a probability that leans the right way, shifted up by BIAS (a lenient judge)
    const lean = human === 1 ? 0.72 : 0.3;
    const judge = Math.min(1, Math.max(0, lean + BIAS + 0.15 * rng.normal()));
    return { human, judge, disagreement: rng.uniform() < 0.05 };
  });
  // 150 labels expected, 30% of them uniform, the rest to uncertain and disputed items
  const pis = inclusionProbabilities(
    judged.map((j, i) => ({ id: String(i), probability: j.judge, disagreement: j.disagreement })),
    { expectedLabels: 150, uniformShare: 0.3 },
  );
  return judged.map((j, i) => ({ judge: j.judge, human: rng.uniform() < pis[i]! ? j.human : null, inclusion: pis[i]! }));
}

describe('prediction-powered means under a biased judge and an over-sampling design', () => {
  it('cover the true mean ≈95% of the time, unbiased, where the judge-only interval collapses', () => {
    const rng = new Rng(20231110);
    let ppiCovers = 0;
    let judgeCovers = 0;
    let ppiSum = 0;
    let ppiSumSq = 0;
    let unweightedSum = 0;
    let labels = 0;
    for (let r = 0; r < REPS; r++) {
      const items = simulate(rng);
      const e = predictionPoweredMean(items);
      expect(e.estimate, `rep ${r}: ${e.reason}`).not.toBeNull();
      if (e.low! <= TRUE_MEAN && TRUE_MEAN <= e.high!) ppiCovers++;
      if (e.judgeLow <= TRUE_MEAN && TRUE_MEAN <= e.judgeHigh) judgeCovers++;
      ppiSum += e.estimate!;
      ppiSumSq += e.estimate! ** 2;
      labels += e.labelled;
      // the same correction ignoring the design: the labelled items' plain mean of human − judge
      const l = items.filter((i) => i.human !== null);
      unweightedSum += e.judgeMean + l.reduce((a, i) => a + i.human! - i.judge, 0) / l.length;
    }
    const ppiCoverage = ppiCovers / REPS;
    const judgeCoverage = judgeCovers / REPS;
    const ppiBias = ppiSum / REPS - TRUE_MEAN;
    const unweightedBias = unweightedSum / REPS - TRUE_MEAN;
    // 95% ± 1.6 points is three binomial standard errors at 1,000 repetitions
    expect(ppiCoverage, `prediction-powered coverage ${ppiCoverage}`).toBeGreaterThan(0.934);
    expect(ppiCoverage).toBeLessThan(0.966);
    expect(judgeCoverage, `judge-only coverage ${judgeCoverage}`).toBeLessThan(0.05);
    // unbiased: within three standard errors of the mean of the 1,000 estimates; the unweighted correction is not
    const se = Math.sqrt((ppiSumSq / REPS - (ppiSum / REPS) ** 2) / REPS);
    expect(Math.abs(ppiBias), `prediction-powered bias ${ppiBias} (standard error ${se})`).toBeLessThan(3 * se);
    expect(Math.abs(unweightedBias), `unweighted bias ${unweightedBias}`).toBeGreaterThan(10 * se);
    // the labels were a small share of the items (what makes the correction worth having)
    expect(labels / REPS / ITEMS).toBeLessThan(0.15);
  });
});
