import { xoroshiro128plus } from 'pure-rand';
import { describe, expect, it } from 'vitest';
import { clusteredNormalInterval } from './interval-clustered';
import { wilsonInterval } from './interval-wilson';
import { chooseIntervalMethod, MIN_PROMPTS_FOR_NORMAL, modelInterval } from './model-interval';

const opts = { resamples: 500, level: 0.95 };
const graded = (g: number, n = 1) => Array.from({ length: g }, (_v, i) => ({ weight: 1, mean: ((i * 7) % 10) / 10, n }));

describe('modelInterval chooses its method from the data', () => {
  it('a pass rate (one 0/1 attempt per prompt, equal weights) gets Wilson, from two prompts on', () => {
    const five = Array.from({ length: 5 }, () => ({ weight: 1, mean: 1, n: 1 }));
    expect(modelInterval(five, xoroshiro128plus(1), opts)).toEqual(wilsonInterval(5, 5, 0.95));
    const many = Array.from({ length: 40 }, (_v, i) => ({ weight: 1, mean: i % 4 === 0 ? 0 : 1, n: 1 }));
    expect(modelInterval(many, xoroshiro128plus(1), opts)).toEqual(wilsonInterval(30, 40, 0.95));
    // a single prompt has no interval, pass rate or not: nothing to resample
    expect(modelInterval([{ weight: 1, mean: 0, n: 1 }], xoroshiro128plus(1), opts)).toBeNull();
    expect(modelInterval([{ weight: 1, mean: 0, n: 1 }, { weight: 1, mean: 1, n: 1 }], xoroshiro128plus(1), opts)?.method).toBe('wilson');
  });

  it('prompts whose repeated attempts all agree: Wilson over prompts, n still counts attempts', () => {
    // 5 prompts × 3 attempts, every attempt passed: the prompts are the trials (5/5 → 56.6%–100%),
    // not the 15 attempts (15/15 would claim 79.6%–100%).
    const c = Array.from({ length: 5 }, () => ({ weight: 1, mean: 1, n: 3 }));
    const i = modelInterval(c, xoroshiro128plus(1), opts)!;
    expect(i).toMatchObject({ method: 'wilson', n: 15, clusters: 5 });
    expect(i.low).toBeCloseTo(wilsonInterval(5, 5, 0.95).low, 14);
    expect(i.low).toBeLessThan(wilsonInterval(15, 15, 0.95).low);
  });

  it('repeated attempts that disagree are clustered (BCa below 30 prompts); unequal weights are not a pass rate', () => {
    expect(chooseIntervalMethod([{ weight: 1, mean: 2 / 3, n: 3 }, { weight: 1, mean: 1, n: 3 }])).toBe('bca-bootstrap');
    expect(chooseIntervalMethod([{ weight: 1, mean: 1, n: 1 }, { weight: 2, mean: 0, n: 1 }])).toBe('bca-bootstrap');
  });

  it(`${MIN_PROMPTS_FOR_NORMAL} prompts or more: the cluster-robust normal interval`, () => {
    const c = graded(MIN_PROMPTS_FOR_NORMAL, 3);
    const i = modelInterval(c, xoroshiro128plus(1), opts);
    expect(i).toEqual(clusteredNormalInterval(c, 0.95));
    expect(i).toMatchObject({ method: 'normal-clustered', n: 90, clusters: 30, resamples: null });
  });

  it('2 to 29 prompts: BCa over prompts, n = attempts, clusters = prompts', () => {
    const i = modelInterval(graded(12, 4), xoroshiro128plus(1), opts);
    expect(i).toMatchObject({ method: 'bca-bootstrap', n: 48, clusters: 12, resamples: 500, level: 0.95 });
    expect(i!.low).toBeLessThan(i!.high);
  });

  it('one graded prompt: no interval', () => {
    expect(modelInterval([{ weight: 1, mean: 0.4, n: 1 }], xoroshiro128plus(1), opts)).toBeNull();
    expect(modelInterval([{ weight: 1, mean: 0.5, n: 4 }], xoroshiro128plus(1), opts)).toBeNull();
    expect(modelInterval([], xoroshiro128plus(1), opts)).toBeNull();
  });

  it('at 30 prompts the normal and BCa intervals agree closely (the switch is not a jump)', () => {
    const c = graded(30, 2);
    const normal = clusteredNormalInterval(c, 0.95);
    const i = modelInterval(c.slice(0, 29).concat(c.slice(29)), xoroshiro128plus(1), opts)!;
    expect(i.method).toBe('normal-clustered');
    const bca = modelInterval(c.slice(0, 29), xoroshiro128plus(1), { resamples: 2000, level: 0.95 })!;
    expect(Math.abs(bca.high - bca.low - (normal.high - normal.low))).toBeLessThan(0.05);
  });

  it('rejects bad clusters with what to fix', () => {
    expect(() => modelInterval([{ weight: 0, mean: 1, n: 1 }], xoroshiro128plus(1), opts)).toThrow(/prompt 1 has weight 0/);
    expect(() => modelInterval([{ weight: 1, mean: 2, n: 1 }], xoroshiro128plus(1), opts)).toThrow(/scores are in \[0,1\]/);
    expect(() => modelInterval([{ weight: 1, mean: 1, n: 0 }], xoroshiro128plus(1), opts)).toThrow(/at least 1/);
  });
});
