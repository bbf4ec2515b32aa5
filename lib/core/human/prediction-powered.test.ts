import { describe, expect, it } from 'vitest';
import { predictionPoweredMean, PPI_MIN_LABELS } from './prediction-powered';

describe('prediction-powered mean', () => {
  it('is the people\'s mean when every item was labelled with certainty, whatever the judge said', () => {
    const items = Array.from({ length: 20 }, (_v, i) => ({ judge: 0.9, human: i % 4 === 0 ? 0 : 1, inclusion: 1 }));
    const e = predictionPoweredMean(items);
    expect(e.estimate).toBeCloseTo(15 / 20, 12);
    expect(e.rectifier).toBeCloseTo(0.75 - 0.9, 12);
    expect(e.judgeMean).toBeCloseTo(0.9, 12);
    expect(e.labelled).toBe(20);
  });

  it('weights a label by the inverse of its inclusion probability', () => {
    // 10 labelled of 40: human − judge is +0.2 on items drawn with π = 0.5, −0.1 on items drawn with π = 0.25
    const items = [
      ...Array.from({ length: 5 }, () => ({ judge: 0.5, human: 0.7, inclusion: 0.5 })),
      ...Array.from({ length: 5 }, () => ({ judge: 0.5, human: 0.4, inclusion: 0.25 })),
      ...Array.from({ length: 30 }, () => ({ judge: 0.5, human: null, inclusion: 0.25 })),
    ];
    const e = predictionPoweredMean(items);
    // (1/N) Σ f + (1/N) Σ (y − f)/π = 0.5 + (5·0.2/0.5 + 5·(−0.1)/0.25) / 40 = 0.5 + (2 − 2) / 40
    expect(e.estimate).toBeCloseTo(0.5, 12);
    // the rectifier is the weighted mean: (5·0.2·2 + 5·(−0.1)·4) / (5·2 + 5·4) = 0
    expect(e.rectifier).toBeCloseTo(0, 12);
  });

  it('gives no estimate with too few labels, and says why', () => {
    const items = Array.from({ length: 100 }, (_v, i) => ({ judge: 0.6, human: i < PPI_MIN_LABELS - 1 ? 1 : null, inclusion: 0.1 }));
    const e = predictionPoweredMean(items);
    expect(e.estimate).toBeNull();
    expect(e.reason).toBe(`${PPI_MIN_LABELS - 1} of 100 items have human labels; at least ${PPI_MIN_LABELS} are needed to correct for the judge`);
    expect(e.judgeMean).toBeCloseTo(0.6, 12);
    expect(predictionPoweredMean([]).reason).toBe('no judged items');
  });
});
