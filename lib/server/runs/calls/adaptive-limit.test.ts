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

describe('AdaptiveLimit: what a call leaves to the next call of its slot', () => {
  it('goes to the waiter that gets the slot, once; the next waiter inherits nothing', async () => {
    const settled: string[] = [];
    const l = new AdaptiveLimit<string>(1, (h) => settled.push(h));
    let release!: () => void;
    const first = l.run(async (_e, slot) => {
      expect(slot.claim()).toBeNull(); // a free slot inherits nothing
      await new Promise<void>((r) => (release = r));
      slot.leave('record of the first call');
    });
    const claimed: (string | null)[] = [];
    const second = l.run(async (_e, slot) => void claimed.push(slot.claim(), slot.claim()));
    const third = l.run(async (_e, slot) => void claimed.push(slot.claim()));
    await new Promise((r) => setTimeout(r, 5));
    release();
    await Promise.all([first, second, third]);
    expect(claimed).toEqual(['record of the first call', null, null]);
    expect(settled).toEqual([]);
  });

  it('is settled when no one waits, when the slot is not reused, and when the next call fails before claiming it', async () => {
    const settled: string[] = [];
    const l = new AdaptiveLimit<string>(2, (h) => settled.push(h));
    await l.run(async (_e, slot) => slot.leave('nobody waiting'));
    expect(settled).toEqual(['nobody waiting']);

    // the limit halves while both slots are busy: the freed slot is not handed on
    let releaseA!: () => void;
    let releaseB!: () => void;
    const a = l.run(async (e, slot) => {
      await new Promise<void>((r) => (releaseA = r));
      l.rateLimited(e);
      slot.leave('slot given up');
    });
    const b = l.run(async (_e, slot) => {
      await new Promise<void>((r) => (releaseB = r));
      slot.leave('left to a failing call');
    });
    const waiter = l.run(async () => {
      throw new Error('failed before claiming');
    });
    await new Promise((r) => setTimeout(r, 5));
    releaseA();
    await a;
    expect(settled).toEqual(['nobody waiting', 'slot given up']);
    releaseB();
    await b;
    await expect(waiter).rejects.toThrow('failed before claiming');
    expect(settled).toEqual(['nobody waiting', 'slot given up', 'left to a failing call']);
  });
});
