import { xoroshiro128plus } from 'pure-rand';
import { describe, expect, it } from 'vitest';
import { driftDifference, driftRule, driftTest, expandedLevel, mostMoved, servedChanged, typicalServed } from './drift';
import type { PromptResult } from './model';

const prompts = (scores: (number | null)[]): PromptResult[] => scores.map((score, i) => ({ id: `p${i}`, weight: 1, score }));

describe('the drift rule', () => {
  it('flags an interval that excludes 0 and reaches the MDE, on either side', () => {
    expect(driftRule({ low: 0.02, high: 0.2 }, 0.1)).toMatchObject({ excludesZero: true, flagged: true });
    expect(driftRule({ low: -0.3, high: -0.05 }, 0.1)).toMatchObject({ excludesZero: true, flagged: true });
    expect(driftRule({ low: -0.3, high: -0.05 }, 0.1).reason).toBe("the interval [−30.0, −5.0] points excludes 0 and reaches the blueprint's MDE of 10.0 points");
  });

  it('does not flag an interval that includes 0', () => {
    expect(driftRule({ low: -0.05, high: 0.4 }, 0.1)).toEqual({ excludesZero: false, flagged: false, reason: 'the interval [−5.0, 40.0] points includes 0: no evidence of a change' });
  });

  it('does not flag a real change shown to be smaller than the MDE', () => {
    expect(driftRule({ low: 0.008, high: 0.012 }, 0.1)).toMatchObject({ excludesZero: true, flagged: false, reason: expect.stringMatching(/real but small change: the interval \[0\.8, 1\.2\] points lies inside ±10\.0, the blueprint's MDE/) });
  });

  it('tests on the interval alone when the earlier run has no MDE, and needs an interval', () => {
    expect(driftRule({ low: 0.01, high: 0.02 }, null)).toMatchObject({ flagged: true, reason: expect.stringMatching(/no MDE/) });
    expect(driftRule(null, 0.1)).toMatchObject({ flagged: false, reason: expect.stringMatching(/fewer than two prompts/) });
  });
});

describe('driftTest', () => {
  const before = prompts([0.9, 0.8, 0.85, 0.95, 0.7, 0.9, 0.6, 0.8, 0.75, 0.88]);

  it('measures after − before over paired prompts and flags a drop of 0.3 on every prompt', () => {
    const after = prompts(before.map((p) => p.score! - 0.3));
    const t = driftTest(before, after, 0.1, xoroshiro128plus(1), { resamples: 200 });
    expect(t.paired).toBe(10);
    expect(t.difference).toBeCloseTo(-0.3, 12);
    expect(t.interval!.low).toBeCloseTo(-0.3, 12);
    expect(t.interval!.high).toBeCloseTo(-0.3, 12);
    expect(t.flagged).toBe(true);
    expect(t.moved).toHaveLength(5);
  });

  it('does not flag identical runs, and pairs only prompts scored in both', () => {
    const after = prompts([...before.map((p) => p.score), null].slice(0, 10).map((s, i) => (i === 0 ? null : s)));
    const t = driftTest(before, after, 0.1, xoroshiro128plus(1), { resamples: 200 });
    expect(t).toMatchObject({ paired: 9, unpaired: 1, difference: 0, flagged: false, moved: [] });
  });

  it('refuses a negative MDE', () => {
    expect(() => driftTest(before, before, -1, xoroshiro128plus(1))).toThrow(/MDE must be a finite number ≥ 0/);
  });

  it('widens the percentile level for small samples (Hesterberg’s expanded percentile)', () => {
    // 2Φ(√(100/99) · 1.984217) − 1 = 2Φ(1.994222) − 1 = 0.953877
    expect(expandedLevel(100)).toBeCloseTo(0.953877, 4);
    expect(expandedLevel(30)).toBeGreaterThan(expandedLevel(100));
    expect(expandedLevel(1_000_000)).toBeCloseTo(0.95, 5);
    expect(expandedLevel(1)).toBe(0.95);
  });
});

describe('driftDifference', () => {
  it('weighs each paired prompt by its weight: not the plain mean of the cells, nor the difference of the two runs’ scores', () => {
    // p0 (weight 3) drops 0.6, p1 (weight 1) rises 0.2; p2 is scored in the earlier run only
    const before: PromptResult[] = [
      { id: 'p0', weight: 3, score: 0.9 },
      { id: 'p1', weight: 1, score: 0.3 },
      { id: 'p2', weight: 1, score: 1 },
    ];
    const after: PromptResult[] = [
      { id: 'p0', weight: 3, score: 0.3 },
      { id: 'p1', weight: 1, score: 0.5 },
      { id: 'p2', weight: 1, score: null },
    ];
    const d = driftDifference(before, after);
    // (3 · −0.6 + 1 · 0.2) / 4 = −0.4; the unweighted mean of the two cells would be −0.2
    expect(d.difference).toBeCloseTo(-0.4, 12);
    expect(d).toMatchObject({ paired: 2, unpaired: 1, better: 1, worse: 1, same: 0 });
    expect(driftDifference(before, before)).toMatchObject({ difference: 0, better: 0, worse: 0, same: 3 });
    expect(driftDifference([], after)).toMatchObject({ paired: 0, difference: null });
  });

  it('is the drift test’s difference', () => {
    const before = prompts([0.9, 0.1, 0.5, 0.7]).map((p, i) => ({ ...p, weight: i + 1 }));
    const after = prompts([0.2, 0.4, 0.5, 0.1]).map((p, i) => ({ ...p, weight: i + 1 }));
    expect(driftTest(before, after, null, xoroshiro128plus(7), { resamples: 50 }).difference).toBe(driftDifference(before, after).difference);
  });
});

describe('the prompts that moved most', () => {
  it('orders by the size of the move, largest first, and leaves out unmoved and unscored prompts', () => {
    const moved = mostMoved(prompts([0.5, 0.5, 0.5, 0.5, null]), prompts([0.5, 0.9, 0.1, 0.7, 0.2]), 5);
    expect(moved.map((m) => [m.promptKey, Number(m.delta.toFixed(3))])).toEqual([
      ['p1', 0.4],
      ['p2', -0.4],
      ['p3', 0.2],
    ]);
  });
});

describe('served identity', () => {
  it('is a change when the model or the fingerprint differs where both are known', () => {
    expect(servedChanged({ model: 'gpt-4o-2024-08-06', fingerprint: 'fp_a' }, { model: 'gpt-4o-2024-11-20', fingerprint: 'fp_a' })).toBe(true);
    expect(servedChanged({ model: 'gpt-4o', fingerprint: 'fp_a' }, { model: 'gpt-4o', fingerprint: 'fp_b' })).toBe(true);
    expect(servedChanged({ model: 'gpt-4o', fingerprint: 'fp_a' }, { model: 'gpt-4o', fingerprint: 'fp_a' })).toBe(false);
    expect(servedChanged({ model: null, fingerprint: null }, { model: 'gpt-4o', fingerprint: 'fp_a' })).toBe(false);
  });

  it('takes the most frequent value of a run’s replies, ignoring unknowns', () => {
    expect(typicalServed([{ model: 'm1', fingerprint: 'fp_b' }, { model: 'm1', fingerprint: 'fp_a' }, { model: 'm2', fingerprint: 'fp_a' }, { model: null, fingerprint: null }])).toEqual({
      model: 'm1',
      fingerprint: 'fp_a',
    });
  });
});
