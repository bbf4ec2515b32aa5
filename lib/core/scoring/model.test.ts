import { xoroshiro128plus } from 'pure-rand';
import { describe, expect, it } from 'vitest';
import { quantileSorted } from './bootstrap';
import { modelScore, ModelScoreSchema } from './model';

const prompts = Array.from({ length: 40 }, (_v, i) => ({ id: `p${i}`, weight: i % 4 === 0 ? 2 : 1, score: (i % 5) / 4, errors: i === 3 ? 2 : 0 }));

const few = prompts.slice(0, 12);

describe('modelScore', () => {
  it('is the prompt-weighted mean with a 95% interval around it (40 prompts: cluster-robust normal)', () => {
    const r = modelScore(prompts, xoroshiro128plus(42));
    const w = prompts.reduce((s, p) => s + p.weight, 0);
    expect(r.score).toBeCloseTo(prompts.reduce((s, p) => s + p.weight * p.score, 0) / w, 12);
    expect(r.interval).not.toBeNull();
    expect(r.interval!.low).toBeLessThan(r.score!);
    expect(r.interval!.high).toBeGreaterThan(r.score!);
    expect(r.interval).toMatchObject({ level: 0.95, resamples: null, method: 'normal-clustered', n: 40, clusters: 40 });
    expect(r.attempts).toBe(40);
    expect(r.errors).toBe(2);
    expect(ModelScoreSchema.parse(r)).toEqual(r);
  });

  it('below 30 prompts: a BCa bootstrap, reproducible from the seed, the caller’s generator untouched', () => {
    const rng = xoroshiro128plus(7);
    const before = rng.getState();
    const a = modelScore(few, rng, { resamples: 200 });
    expect(a.interval).toMatchObject({ method: 'bca-bootstrap', resamples: 200, n: 12, clusters: 12 });
    expect(rng.getState()).toEqual(before);
    expect(modelScore(few, xoroshiro128plus(7), { resamples: 200 })).toEqual(a);
    expect(modelScore(few, xoroshiro128plus(8), { resamples: 200 }).interval).not.toEqual(a.interval);
  });

  it('repeated attempts are clustered by prompt: n counts attempts, clusters count prompts', () => {
    const r = modelScore(few.map((p) => ({ ...p, attempts: 3 })), xoroshiro128plus(1), { resamples: 200 });
    expect(r).toMatchObject({ attempts: 36, scored: 12 });
    expect(r.interval).toMatchObject({ n: 36, clusters: 12 });
  });

  it('a pass rate gets a Wilson interval', () => {
    const r = modelScore(Array.from({ length: 5 }, (_v, i) => ({ id: `p${i}`, weight: 1, score: 1 })), xoroshiro128plus(1));
    expect(r.interval).toMatchObject({ method: 'wilson', n: 5, clusters: 5 });
    expect(r.interval!.low).toBeCloseTo(0.5655, 4);
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

  it('no interval with one graded (not pass/fail) prompt; no score with none', () => {
    expect(modelScore([{ id: 'a', weight: 1, score: 0.3 }], xoroshiro128plus(1))).toMatchObject({ score: 0.3, interval: null });
    expect(modelScore([{ id: 'a', weight: 1, score: null }], xoroshiro128plus(1))).toMatchObject({ score: null, interval: null });
  });

  it('rejects bad weights, scores and options with a fix', () => {
    expect(() => modelScore([{ id: 'a', weight: 0, score: 1 }], xoroshiro128plus(1))).toThrow(/weights must be positive/);
    expect(() => modelScore([{ id: 'a', weight: 1, score: Number.NaN }], xoroshiro128plus(1))).toThrow(/\[0,1\] or null/);
    expect(() => modelScore([{ id: 'a', weight: 1, score: 1, attempts: 0 }], xoroshiro128plus(1))).toThrow(/at least 1/);
    expect(() => modelScore(prompts, xoroshiro128plus(1), { resamples: 0 })).toThrow(/positive integer/);
    expect(() => modelScore(prompts, xoroshiro128plus(1), { level: 95 })).toThrow(/e\.g\. 0\.95/);
  });

  it('quantiles interpolate linearly', () => {
    expect(quantileSorted([0, 10], 0.25)).toBe(2.5);
    expect(quantileSorted([1, 2, 3, 4, 5], 0.5)).toBe(3);
  });
});
