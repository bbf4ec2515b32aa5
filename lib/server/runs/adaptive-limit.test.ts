import { describe, expect, it } from 'vitest';
import { AdaptiveLimit } from './adaptive-limit';

/** A call held open until released, to see what the limiter lets through. */
function held(limit: AdaptiveLimit) {
  let release!: () => void;
  let epoch = -1;
  const started = new Promise<void>((s) => {
    void limit.run(async (e) => {
      epoch = e;
      s();
      await new Promise<void>((r) => (release = r));
    });
  });
  return { started, release: () => release(), epoch: () => epoch };
}

describe('AdaptiveLimit (AIMD)', () => {
  it('a 429 halves the limit (floor 1); only the first 429 of a window counts', () => {
    const l = new AdaptiveLimit(16);
    l.rateLimited(0);
    expect(l.limit).toBe(8);
    l.rateLimited(0); // a call started before the decrease: the same overload, not a new one
    expect(l.limit).toBe(8);
    for (let e = 1; e <= 10; e++) l.rateLimited(e);
    expect(l.limit).toBe(1);
    expect(l.stats().decreases).toBe(4); // 16 → 8 → 4 → 2 → 1, then it stays 1
  });

  it('a window of successes (as many as the limit) adds one slot, up to the maximum', () => {
    const l = new AdaptiveLimit(4);
    l.rateLimited(0);
    l.rateLimited(1);
    expect(l.limit).toBe(1);
    l.succeeded();
    expect(l.limit).toBe(2);
    l.succeeded();
    expect(l.limit).toBe(2);
    l.succeeded();
    expect(l.limit).toBe(3);
    for (let i = 0; i < 20; i++) l.succeeded();
    expect(l.limit).toBe(4);
  });

  it('never runs more than the limit at once, and a lowered limit holds back new calls', async () => {
    const l = new AdaptiveLimit(2);
    const a = held(l);
    const b = held(l);
    await Promise.all([a.started, b.started]);
    const c = held(l);
    await new Promise((r) => setTimeout(r, 5));
    expect(l.inFlight).toBe(2);
    expect(c.epoch()).toBe(-1);
    l.rateLimited(a.epoch()); // limit 1: releasing one slot must not start c
    a.release();
    await new Promise((r) => setTimeout(r, 5));
    expect(c.epoch()).toBe(-1);
    b.release();
    await c.started;
    expect(l.inFlight).toBe(1);
    c.release();
    expect(l.stats().max).toBe(2);
  });

  it('measures the mean calls in flight over time', async () => {
    const l = new AdaptiveLimit(4);
    l.resetStats();
    const calls = [held(l), held(l)];
    await Promise.all(calls.map((c) => c.started));
    await new Promise((r) => setTimeout(r, 40));
    calls.forEach((c) => c.release());
    await new Promise((r) => setTimeout(r, 40));
    const s = l.stats();
    expect(s.max).toBe(2);
    expect(s.mean).toBeGreaterThan(0.5);
    expect(s.mean).toBeLessThan(1.5);
  });
});
