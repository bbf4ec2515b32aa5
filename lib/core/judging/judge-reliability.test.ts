import { describe, expect, it } from 'vitest';
import { ALPHA_MIN_UNITS, type JudgeAlpha } from './alpha';
import { judgeReliability, type JudgedVerdict } from './judge-reliability';

const valueOf = (a: JudgeAlpha): number | string => (a.kind === 'alpha' ? a.value : a.kind);

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
  it('pools the verdicts of a level into that matrix: α 0.849 over 11 pairable units of 12 (40 values), each judge’s coverage', () => {
    const r = judgeReliability(krippendorffVerdicts());
    expect(r.alpha).toMatchObject({ kind: 'alpha', units: 11, values: 40 });
    expect(valueOf(r.alpha)).toBeCloseTo(0.849, 3);
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
    expect(valueOf(judgeReliability(shuffled).alpha)).toBeCloseTo(0.849, 3);
  });
});

describe('pooled α is not the mean of the per-reply αs', () => {
  it('two replies of ten points, two judges: hand-computed', () => {
    // Reply 1: five times the points (0, 0.5), (1, 1). Reply 2: five times (0, 0), (1, 0.5). Ten units each, the minimum.
    // Per reply (interval α, n = 20 values each):
    //   reply 1: D_o = 5·(2·0.25)/20 = 0.125; values five each of 0, .5, 1, 1: mean .625, Σ(x−x̄)² = 5·0.6875 = 3.4375,
    //            D_e = 2·20·3.4375/(20·19) = 0.361842 → α = 0.654545
    //   reply 2: D_o = 0.125; values five each of 0, 0, 1, .5: the same spread → α = 0.654545
    // Pooled (n = 40): D_o = (2.5 + 2.5)/40 = 0.125; fifteen 0s, ten .5s, fifteen 1s: mean .5, Σ = 7.5,
    //            D_e = 2·40·7.5/(40·39) = 0.384615 → α = 0.675
    const point = (a: number, b: number, disagreement = false): JudgedVerdict => ({
      modelId: 'm:x',
      disagreement,
      judges: [
        { judge: 'j:one', approach: null, score: a },
        { judge: 'j:two', approach: null, score: b },
      ],
    });
    const five = (points: JudgedVerdict[]) => Array.from({ length: 5 }, () => points).flat();
    const reply1 = five([point(0, 0.5, true), point(1, 1)]);
    const reply2 = five([point(0, 0), point(1, 0.5, true)]);
    const a1 = valueOf(judgeReliability(reply1).alpha) as number;
    const a2 = valueOf(judgeReliability(reply2).alpha) as number;
    expect(a1).toBeCloseTo(0.654545, 5);
    expect(a2).toBeCloseTo(0.654545, 5);
    const pooled = judgeReliability([...reply1, ...reply2]);
    expect(pooled.alpha).toMatchObject({ kind: 'alpha', units: 20, values: 40, pairs: 20 });
    expect(valueOf(pooled.alpha)).toBeCloseTo(0.675, 5);
    expect(valueOf(pooled.alpha)).not.toBeCloseTo((a1 + a2) / 2, 3);
    // both judges: |0 − .5|, |1 − 1|, |0 − 0|, |1 − .5| five times each → mean 0.25; leniency 0.5 and 0.5
    expect(pooled.judges.map((j) => [j.id, j.meanAbsDeviation, j.meanScore, j.compared])).toEqual([
      ['j:one', 0.25, 0.5, 20],
      ['j:two', 0.25, 0.5, 20],
    ]);
    expect(pooled.disagreements).toBe(10);
    expect(pooled.disagreementShare).toBe(0.5);
    // one reply's two points alone: not enough to tell
    expect(judgeReliability(reply1.slice(0, 2)).alpha).toEqual({ kind: 'not-enough', minUnits: ALPHA_MIN_UNITS, units: 2, values: 4, pairs: 2 });
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

  it('one judge, or none: no α (not enough: no unit has two values), no share, the coverage still counted', () => {
    const one = judgeReliability([{ modelId: 'm:x', disagreement: false, judges: [{ judge: 'j:only', approach: null, score: 0.5 }] }]);
    const none = { kind: 'not-enough', minUnits: ALPHA_MIN_UNITS, units: 0, values: 0, pairs: 0 };
    expect(one).toMatchObject({ verdicts: 1, pairable: 0, alpha: none, disagreementShare: null });
    expect(one.judges[0]).toMatchObject({ assessments: 1, meanScore: 0.5, meanAbsDeviation: null, compared: 0 });
    expect(judgeReliability([])).toMatchObject({ verdicts: 0, pairable: 0, alpha: none, disagreementShare: null, judges: [] });
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
