import { describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { GroupCommit } from './group-commit';

/** A writer that records each batch and how many were being written at once; each write takes `ms`. */
function recorder(ms: number, fail?: (item: number) => boolean) {
  const batches: number[][] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const write = async (items: number[]) => {
    batches.push(items);
    maxInFlight = Math.max(maxInFlight, ++inFlight);
    await sleep(ms);
    inFlight--;
    if (fail && items.some(fail)) throw new Error(`refused ${items.find(fail)}`);
    return items.map((i) => i * 10);
  };
  return { write, batches, maxInFlight: () => maxInFlight };
}

describe('GroupCommit', () => {
  it('sends the first item at once and what accumulates meanwhile as one batch, each caller getting its own result', async () => {
    const r = recorder(5);
    const gc = new GroupCommit(r.write);
    const out = await Promise.all([1, 2, 3, 4].map((i) => gc.submit(i)));
    expect(out).toEqual([10, 20, 30, 40]);
    expect(r.batches).toEqual([[1], [2, 3, 4]]);
  });

  it('lets callers just resumed resubmit before the next batch is taken (no 1-item batch between full ones)', async () => {
    // 8 callers, each submitting its next item as soon as the previous one is committed: the
    // way a runner's slots move on. Taking the next batch straight away gave batches of 1 and 7.
    const r = recorder(3);
    const gc = new GroupCommit(r.write);
    await Promise.all(
      Array.from({ length: 8 }, async (_, caller) => {
        for (let k = 0; k < 5; k++) await gc.submit(caller * 100 + k);
      }),
    );
    expect(r.batches.map((b) => b.length)).toEqual([1, 8, 8, 8, 8, 7]);
  });

  it('shares what is queued among parallel batches in parts of at least minShare, and never exceeds parallel', async () => {
    const r = recorder(5);
    const gc = new GroupCommit(r.write, { parallel: 3, minShare: 30, cost: () => 10 });
    await Promise.all(Array.from({ length: 30 }, (_, i) => gc.submit(i)));
    // 300 queued over 3 free batches: 100 each
    expect(r.batches.map((b) => b.length)).toEqual([10, 10, 10]);
    expect(r.maxInFlight()).toBe(3);

    const small = recorder(5);
    const gc2 = new GroupCommit(small.write, { parallel: 3, minShare: 30, cost: () => 10 });
    await Promise.all(Array.from({ length: 5 }, (_, i) => gc2.submit(i)));
    // 50 queued: a share is never under 30, so 3 + 2 and the third batch stays idle
    expect(small.batches.map((b) => b.length)).toEqual([3, 2]);
  });

  it('keeps to maxCost while sharing', async () => {
    const r = recorder(2);
    const gc = new GroupCommit(r.write, { parallel: 2, minShare: 1, maxCost: 4 });
    await Promise.all(Array.from({ length: 20 }, (_, i) => gc.submit(i)));
    expect(Math.max(...r.batches.map((b) => b.length))).toBeLessThanOrEqual(4);
    expect(r.batches.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('retries a failed batch item by item, so only the bad item fails', async () => {
    const r = recorder(1, (i) => i === 3);
    const gc = new GroupCommit(r.write);
    const out = await Promise.allSettled([1, 2, 3, 4].map((i) => gc.submit(i)));
    expect(out.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([10, 20, 'refused 3', 40]);
  });
});
