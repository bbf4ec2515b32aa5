import { describe, expect, it } from 'vitest';
import { passCurve } from './pass-at-k';
import { promptScore, PromptScoreSchema } from './prompt';

describe('promptScore', () => {
  it('mean over k attempts with the unbiased pass@k and pass^k for every k', () => {
    const r = promptScore([{ score: 1 }, { score: 0.5 }, { score: 0 }], { passThreshold: 0.5 });
    expect(r).toMatchObject({ score: 0.5, k: 3, scored: 3, passes: 2, passAtK: 1, passHatK: 0 });
    // n=3, c=2: pass@1 = 2/3, pass@2 = 1 − C(1,2)/C(3,2) = 1; pass^2 = C(2,2)/C(3,2) = 1/3
    expect(r.passCurve).toEqual(passCurve(3, 2));
    expect(r.passCurve![1]!.passHatK).toBeCloseTo(1 / 3, 14);
    expect(PromptScoreSchema.parse(r)).toEqual(r);
  });

  it('every attempt passing is pass^k = 1', () => {
    expect(promptScore([{ score: 0.9 }, { score: 0.8 }], { passThreshold: 0.75 })).toMatchObject({ passAtK: 1, passHatK: 1 });
    expect(promptScore([{ score: 0.1 }], { passThreshold: 0.75 })).toMatchObject({ passAtK: 0, passHatK: 0, passCurve: [{ k: 1, passAtK: 0, passHatK: 0 }] });
  });

  it('no threshold: no pass statistics', () => {
    expect(promptScore([{ score: 1 }])).toMatchObject({ passThreshold: null, passes: null, passAtK: null, passHatK: null, passCurve: null });
  });

  it('attempts with no score are counted, not averaged as 0; errors add up', () => {
    const r = promptScore([{ score: 1, errors: 0 }, { score: null, errors: 3 }], { passThreshold: 0.5 });
    expect(r).toMatchObject({ score: 1, scored: 1, unscored: 1, errors: 3, passHatK: 1 });
    // the curve runs over the scored attempts only
    expect(r.passCurve).toHaveLength(1);
    expect(promptScore([{ score: null, errors: 1 }])).toMatchObject({ score: null, passAtK: null });
  });

  it('reports the spread of the attempts', () => {
    expect(promptScore([{ score: 0 }, { score: 1 }]).std).toBe(0.5);
  });

  it('rejects a threshold outside [0,1]', () => {
    expect(() => promptScore([{ score: 1 }], { passThreshold: 50 })).toThrow(/passThreshold must be in \[0,1\]/);
  });
});
