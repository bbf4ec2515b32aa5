import { describe, expect, it } from 'vitest';
import { krippendorffAlphaInterval } from './consensus';
import { addAlphaStats, alphaFromStats, EMPTY_ALPHA_STATS, judgeReliability, readAlpha, unitAlphaStats, type JudgedVerdict } from './judge-reliability';

const _ = null;
/**
 * Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: four observers,
 * twelve units, values 1–5, missing data. Published: α_interval = 0.849 (nominal 0.743,
 * ordinal 0.815, ratio 0.797). Unit 12 has one value, so it is not pairable.
 */
const OBSERVERS = {
  A: [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
  B: [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
  C: [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
  D: [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
};

/** The same data as judged verdicts: four judges, values rescaled from 1–5 onto [0, 1] (α is invariant under it). */
function krippendorffVerdicts(): JudgedVerdict[] {
  return OBSERVERS.A.map((_, u) => ({
    modelId: 'openai:gpt-4o',
    disagreement: false,
    judges: (['A', 'B', 'C', 'D'] as const).map((o) => {
      const v = OBSERVERS[o][u]!;
      return { judge: `judge:${o.toLowerCase()}`, approach: 'standard', score: v === null ? null : (v - 1) / 4 };
    }),
  }));
}

describe('Krippendorff’s α (interval) on his own published example', () => {
  it('gives 0.849 on the 4 × 12 matrix with missing values', () => {
    const matrix = OBSERVERS.A.map((_, u) => [OBSERVERS.A[u]!, OBSERVERS.B[u]!, OBSERVERS.C[u]!, OBSERVERS.D[u]!]);
    expect(krippendorffAlphaInterval(matrix)).toBeCloseTo(0.849, 3);
  });

  it('pools the verdicts of a level into that matrix: α 0.849, 11 pairable of 12, each judge’s coverage', () => {
    const r = judgeReliability(krippendorffVerdicts());
    expect(r.alpha).toBeCloseTo(0.849, 3);
    expect(r.verdicts).toBe(12);
    expect(r.pairable).toBe(11);
    expect(r.judges.map((j) => [j.id, j.assessments, j.missing])).toEqual([
      ['judge:a#standard', 9, 3],
      ['judge:b#standard', 11, 1],
      ['judge:c#standard', 10, 2],
      ['judge:d#standard', 11, 1],
    ]);
  });

  it('does not depend on the order of verdicts or of judges within one', () => {
    const shuffled = krippendorffVerdicts()
      .reverse()
      .map((v) => ({ ...v, judges: [...v.judges].reverse() }));
    expect(judgeReliability(shuffled).alpha).toBeCloseTo(0.849, 3);
  });
});

describe('pooled α is not the mean of the per-reply αs', () => {
  it('two replies, two judges: hand-computed', () => {
    // Reply 1: points (0, 0.5), (1, 1). Reply 2: points (0, 0), (1, 0.5).
    // Per reply (interval α, n = 4 values each):
    //   reply 1: D_o = (2·0.25 + 0)/4 = 0.125; values 0, .5, 1, 1: Σ(x−x̄)² = 0.6875, D_e = 2·4·0.6875/12 = 0.458333 → α = 0.727273
    //   reply 2: D_o = 0.125; values 0, 0, 1, .5: Σ(x−x̄)² = 0.6875 → α = 0.727273
    // Pooled (n = 8): D_o = (0.5 + 0.5)/8 = 0.125; values 0,.5,1,1,0,0,1,.5: mean .5, Σ = 1.5, D_e = 2·8·1.5/56 = 0.428571 → α = 0.708333
    const point = (a: number, b: number, disagreement = false): JudgedVerdict => ({
      modelId: 'm:x',
      disagreement,
      judges: [
        { judge: 'j:one', approach: null, score: a },
        { judge: 'j:two', approach: null, score: b },
      ],
    });
    const reply1 = [point(0, 0.5, true), point(1, 1)];
    const reply2 = [point(0, 0), point(1, 0.5, true)];
    const a1 = judgeReliability(reply1).alpha!;
    const a2 = judgeReliability(reply2).alpha!;
    expect(a1).toBeCloseTo(0.727273, 5);
    expect(a2).toBeCloseTo(0.727273, 5);
    const pooled = judgeReliability([...reply1, ...reply2]);
    expect(pooled.alpha).toBeCloseTo(0.708333, 5);
    expect(pooled.alpha).not.toBeCloseTo((a1 + a2) / 2, 3);
    // both judges: |0 − .5|, |1 − 1|, |0 − 0|, |1 − .5| → mean 0.25; leniency 0.5 and 0.5
    expect(pooled.judges.map((j) => [j.id, j.meanAbsDeviation, j.meanScore, j.compared])).toEqual([
      ['j:one', 0.25, 0.5, 4],
      ['j:two', 0.25, 0.5, 4],
    ]);
    expect(pooled.disagreements).toBe(2);
    expect(pooled.disagreementShare).toBe(0.5);
  });
});

describe('disagreement share and coverage', () => {
  it('counts disagreement only over verdicts with two values or more', () => {
    const v = (scores: (number | null)[], disagreement: boolean): JudgedVerdict => ({
      modelId: 'm:x',
      disagreement,
      judges: scores.map((score, i) => ({ judge: `j:${i}`, approach: 'standard', score })),
    });
    const r = judgeReliability([v([0, 1], true), v([1, 1], false), v([0.5, 0.75], false), v([1, null], false), v([null, null], false)]);
    expect(r.verdicts).toBe(5);
    expect(r.pairable).toBe(3);
    expect(r.disagreements).toBe(1);
    expect(r.disagreementShare).toBeCloseTo(1 / 3, 10);
    expect(r.judges.map((j) => [j.assessments, j.missing])).toEqual([
      [4, 1],
      [3, 2],
    ]);
  });

  it('with three judges the deviation is from the mean of the other two', () => {
    const r = judgeReliability([{ modelId: 'm:x', disagreement: false, judges: [0, 0.5, 1].map((score, i) => ({ judge: `j:${i}`, approach: null, score })) }]);
    // j0: |0 − .75| = .75; j1: |.5 − .5| = 0; j2: |1 − .25| = .75
    expect(r.judges.map((j) => j.meanAbsDeviation)).toEqual([0.75, 0, 0.75]);
  });

  it('one judge, or none: no α, no share, the coverage still counted', () => {
    const one = judgeReliability([{ modelId: 'm:x', disagreement: false, judges: [{ judge: 'j:only', approach: null, score: 0.5 }] }]);
    expect(one).toMatchObject({ verdicts: 1, pairable: 0, alpha: null, disagreementShare: null });
    expect(one.judges[0]).toMatchObject({ assessments: 1, meanScore: 0.5, meanAbsDeviation: null, compared: 0 });
    expect(judgeReliability([])).toMatchObject({ verdicts: 0, pairable: 0, alpha: null, disagreementShare: null, judges: [] });
  });

  it('lists self-judging pairs, the same model first', () => {
    const r = judgeReliability([
      { modelId: 'openrouter:openai/gpt-4o-mini', disagreement: false, judges: [{ judge: 'openai:gpt-4o-mini', approach: 'standard', score: 1 }, { judge: 'openrouter:qwen/qwen-2.5-72b-instruct', approach: 'standard', score: 1 }] },
      { modelId: 'openai:gpt-4o', disagreement: false, judges: [{ judge: 'openai:gpt-4o-mini', approach: 'standard', score: 1 }, { judge: 'openrouter:qwen/qwen-2.5-72b-instruct', approach: 'standard', score: 0 }] },
      { modelId: 'anthropic:claude-3-5-sonnet-20241022', disagreement: false, judges: [{ judge: 'openai:gpt-4o-mini', approach: 'standard', score: 1 }, { judge: 'openrouter:qwen/qwen-2.5-72b-instruct', approach: 'standard', score: 1 }] },
    ]);
    expect(r.selfJudging).toEqual([
      { judge: 'openai:gpt-4o-mini#standard', modelId: 'openrouter:openai/gpt-4o-mini', kind: 'same-model' },
      { judge: 'openai:gpt-4o-mini#standard', modelId: 'openai:gpt-4o', kind: 'same-family' },
    ]);
  });
});

describe('readAlpha (Krippendorff 2004’s thresholds)', () => {
  it('reads 0.80 and up as reliable, from 0.667 as tentative, below as unreliable', () => {
    expect([0.8, 0.799, 0.667, 0.666, -0.2].map(readAlpha)).toEqual(['reliable', 'tentative', 'tentative', 'unreliable', 'unreliable']);
  });
});

describe('α from sufficient statistics (what the leaderboard sums in SQL)', () => {
  const units = OBSERVERS.A.map((_, u) => [OBSERVERS.A[u], OBSERVERS.B[u], OBSERVERS.C[u], OBSERVERS.D[u]].filter((v): v is number => v !== null));
  it('gives Krippendorff’s 0.849, and the pooled α of two halves summed', () => {
    const all = units.map(unitAlphaStats).reduce(addAlphaStats, EMPTY_ALPHA_STATS);
    expect(all.n).toBe(40); // 41 values, unit 12's single value not pairable
    expect(alphaFromStats(all)).toBeCloseTo(0.849, 3);
    const first = units.slice(0, 5).map(unitAlphaStats).reduce(addAlphaStats, EMPTY_ALPHA_STATS);
    const rest = units.slice(5).map(unitAlphaStats).reduce(addAlphaStats, EMPTY_ALPHA_STATS);
    expect(alphaFromStats(addAlphaStats(first, rest))).toBeCloseTo(krippendorffAlphaInterval(units)!, 12);
    // …which is not the mean of the halves' αs
    expect(alphaFromStats(first)! / 2 + alphaFromStats(rest)! / 2).not.toBeCloseTo(alphaFromStats(all)!, 2);
  });
  it('has no α below two values, and 1 when all agree on one value', () => {
    expect(alphaFromStats(unitAlphaStats([0.5]))).toBeNull();
    expect(alphaFromStats(addAlphaStats(unitAlphaStats([0.3, 0.3]), unitAlphaStats([0.3, 0.3, 0.3])))).toBe(1);
  });
});
