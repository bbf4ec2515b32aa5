import { xoroshiro128plus } from 'pure-rand';
import { describe, expect, it } from 'vitest';
import { quantileSorted } from './bootstrap';
import { modelScore, ModelScoreSchema } from './model';

const prompts = Array.from({ length: 40 }, (_v, i) => ({ id: `p${i}`, weight: i % 4 === 0 ? 2 : 1, score: (i % 5) / 4, errors: i === 3 ? 2 : 0 }));

describe('modelScore', () => {
  it('is the prompt-weighted mean with a 95% bootstrap interval around it', () => {
    const r = modelScore(prompts, xoroshiro128plus(42));
    const w = prompts.reduce((s, p) => s + p.weight, 0);
    expect(r.score).toBeCloseTo(prompts.reduce((s, p) => s + p.weight * p.score, 0) / w, 12);
    expect(r.interval).not.toBeNull();
    expect(r.interval!.low).toBeLessThan(r.score!);
    expect(r.interval!.high).toBeGreaterThan(r.score!);
    expect(r.interval).toMatchObject({ level: 0.95, resamples: 1000, method: 'percentile-bootstrap' });
    expect(r.errors).toBe(2);
    expect(ModelScoreSchema.parse(r)).toEqual(r);
  });

  it('is reproducible from the seed and leaves the caller’s generator untouched', () => {
    const rng = xoroshiro128plus(7);
    const before = rng.getState();
    const a = modelScore(prompts, rng, { resamples: 200 });
    expect(rng.getState()).toEqual(before);
    expect(modelScore(prompts, xoroshiro128plus(7), { resamples: 200 })).toEqual(a);
    expect(modelScore(prompts, xoroshiro128plus(8), { resamples: 200 }).interval).not.toEqual(a.interval);
  });

  it('the interval narrows with more prompts (roughly 1/√n)', () => {
    const many = Array.from({ length: 400 }, (_v, i) => ({ id: `q${i}`, weight: 1, score: (i % 5) / 4 }));
    const few = modelScore(prompts, xoroshiro128plus(1));
    const lots = modelScore(many, xoroshiro128plus(1));
    const width = (r: typeof few) => r.interval!.high - r.interval!.low;
    expect(width(lots)).toBeLessThan(width(few) / 2);
  });

  it('prompts with no score are counted and left out of the mean', () => {
    const r = modelScore([{ id: 'a', weight: 1, score: 1 }, { id: 'b', weight: 1, score: null, errors: 3 }, { id: 'c', weight: 1, score: 0 }], xoroshiro128plus(1), { resamples: 50 });
    expect(r).toMatchObject({ score: 0.5, prompts: 3, scored: 2, unscored: 1, errors: 3 });
  });

  it('no interval with fewer than two scored prompts; no score with none', () => {
    expect(modelScore([{ id: 'a', weight: 1, score: 0.3 }], xoroshiro128plus(1))).toMatchObject({ score: 0.3, interval: null });
    expect(modelScore([{ id: 'a', weight: 1, score: null }], xoroshiro128plus(1))).toMatchObject({ score: null, interval: null });
  });

  it('rejects bad weights, scores and options with a fix', () => {
    expect(() => modelScore([{ id: 'a', weight: 0, score: 1 }], xoroshiro128plus(1))).toThrow(/weights must be positive/);
    expect(() => modelScore([{ id: 'a', weight: 1, score: Number.NaN }], xoroshiro128plus(1))).toThrow(/\[0,1\] or null/);
    expect(() => modelScore(prompts, xoroshiro128plus(1), { resamples: 0 })).toThrow(/positive integer/);
    expect(() => modelScore(prompts, xoroshiro128plus(1), { level: 95 })).toThrow(/e\.g\. 0\.95/);
  });

  it('quantiles interpolate linearly', () => {
    expect(quantileSorted([0, 10], 0.25)).toBe(2.5);
    expect(quantileSorted([1, 2, 3, 4, 5], 0.5)).toBe(3);
  });
});
