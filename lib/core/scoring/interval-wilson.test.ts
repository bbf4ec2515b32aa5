import { describe, expect, it } from 'vitest';
import { IntervalSchema } from './bootstrap';
import { wilsonInterval } from './interval-wilson';

describe('wilsonInterval', () => {
  it('5/5 at 95% is 56.6%–100%', () => {
    // z = 1.95996, z²/n = 0.76829: low = (1 + z²/2n − z·√(z²/4n²)) / (1 + z²/n) = (1.38415 − 0.38415·…)/1.76829
    const i = wilsonInterval(5, 5, 0.95);
    expect(i.low).toBeCloseTo(0.5655175352168251, 12);
    expect(i.high).toBe(1);
    expect(i).toMatchObject({ method: 'wilson', n: 5, clusters: 5, resamples: null, level: 0.95 });
    expect(IntervalSchema.parse(i)).toEqual(i);
  });

  it('published figures: 8/10 → 0.490–0.943, 0/5 → 0–0.434', () => {
    const a = wilsonInterval(8, 10, 0.95);
    expect(a.low).toBeCloseTo(0.4901624715366418, 12);
    expect(a.high).toBeCloseTo(0.9433178485456248, 12);
    const b = wilsonInterval(0, 5, 0.95);
    expect(b.low).toBe(0);
    expect(b.high).toBeCloseTo(0.43448246478317476, 12);
  });

  it('is symmetric about one half: c/n mirrors (n−c)/n', () => {
    const a = wilsonInterval(3, 17, 0.9);
    const b = wilsonInterval(14, 17, 0.9);
    expect(a.low).toBeCloseTo(1 - b.high, 12);
    expect(a.high).toBeCloseTo(1 - b.low, 12);
  });

  it('rejects impossible counts', () => {
    expect(() => wilsonInterval(6, 5, 0.95)).toThrow(/successes must be a whole number in \[0, 5\]/);
    expect(() => wilsonInterval(0, 0, 0.95)).toThrow(/n ≥ 1/);
  });
});
