/**
 * The strict Inngest harness against small functions of its own: each published limit it claims
 * to enforce is broken once here and must throw, naming the limit; each behaviour it claims
 * (dedupe, out-of-order delivery, per-step retries, failure handlers, cancellation, overlapping
 * retries, a deploy between steps) is observed.
 */
import { describe, expect, it } from 'vitest';
import { Inngest, NonRetriableError } from 'inngest';
import { InngestHarness, InngestLimitError } from './harness';

const client = new Inngest({ id: 'harness-test' });
const MiB = 1024 * 1024;

describe('InngestHarness', () => {
  it('fails a send of more than 5,000 events, naming the limit', async () => {
    const fan = () => [
      client.createFunction({ id: 'fan', triggers: [{ event: 'h/fan' }] }, async ({ step }) => {
        await step.sendEvent('fan-out', Array.from({ length: 5001 }, (_, i) => ({ name: 'h/leaf', data: { i } })));
      }),
    ];
    const h = new InngestHarness({ functions: fan });
    h.send({ name: 'h/fan', data: {} });
    await expect(h.settle()).rejects.toThrow(/events per request.*5001 events in one send; at most 5000/);
  });

  it('fails a step output above 4 MiB and a run state above 32 MiB', async () => {
    const big = () => [
      client.createFunction({ id: 'big', triggers: [{ event: 'h/big' }] }, async ({ step }) => step.run('huge', () => 'x'.repeat(4 * MiB + 1))),
      client.createFunction({ id: 'many', triggers: [{ event: 'h/many' }] }, async ({ step }) => {
        for (let i = 0; i < 9; i++) await step.run(`part-${i}`, () => 'x'.repeat(4 * MiB - 100));
      }),
    ];
    const one = new InngestHarness({ functions: big });
    one.send({ name: 'h/big', data: {} });
    await expect(one.settle()).rejects.toThrow(/step output size.*"huge"/);
    const nine = new InngestHarness({ functions: big });
    nine.send({ name: 'h/many', data: {} });
    await expect(nine.settle()).rejects.toThrow(/function run state size/);
  });

  it('fails the 1,001st step of a run', async () => {
    const loop = () => [
      // in parallel: one request plans them all (a loop of awaited steps replays the function per step, 1,000² slow)
      client.createFunction({ id: 'loop', triggers: [{ event: 'h/loop' }] }, async ({ step }) => Promise.all(Array.from({ length: 1001 }, (_, i) => step.run(`s${i}`, () => i)))),
    ];
    const h = new InngestHarness({ functions: loop });
    h.send({ name: 'h/loop', data: {} });
    await expect(h.settle()).rejects.toThrow(/steps per function run.*planned 1001 steps/);
  });

  it('refuses a function with three concurrency keys and an oversized event', () => {
    const three = () => [
      client.createFunction(
        { id: 'three', triggers: [{ event: 'h/x' }], concurrency: [{ key: 'event.data.a', limit: 1 }, { key: 'event.data.b', limit: 1 }, { key: 'event.data.c', limit: 1 }] as never },
        async () => null,
      ),
    ];
    expect(() => new InngestHarness({ functions: three })).toThrow(InngestLimitError);
    const h = new InngestHarness({ functions: () => [] });
    expect(() => h.send({ name: 'h/x', data: { blob: 'x'.repeat(300 * 1024) } })).toThrow(/event payload size/);
  });

  it('delivers an event id once, in a seeded order that differs from the send order and replays with its seed', async () => {
    const order = async (seed: number) => {
      const seen: number[] = [];
      const fns = () => [client.createFunction({ id: 'leaf', triggers: [{ event: 'h/leaf' }] }, async ({ event, step }) => step.run('see', () => void seen.push((event.data as { i: number }).i)))];
      const h = new InngestHarness({ functions: fns, seed, parallel: 1 });
      h.send(Array.from({ length: 20 }, (_, i) => ({ name: 'h/leaf', data: { i }, id: `leaf-${i}` })));
      h.send({ name: 'h/leaf', data: { i: 99 }, id: 'leaf-3' }); // a repeat: dropped
      await h.settle();
      return seen;
    };
    const a = await order(7);
    expect([...a].sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(a).not.toEqual([...a].sort((x, y) => x - y));
    expect(await order(7)).toEqual(a);
  });

  it('retries a failing step per step, then throws into the function; a failed run calls onFailure', async () => {
    let tries = 0;
    let before = 0;
    const failures: string[] = [];
    const fns = () => [
      client.createFunction(
        { id: 'flaky', triggers: [{ event: 'h/flaky' }], retries: 2, onFailure: async ({ error }) => void failures.push(error.message) },
        async ({ step }) => {
          await step.run('before', () => ++before);
          await step.run('fails', () => {
            tries++;
            throw new Error('always');
          });
        },
      ),
    ];
    const h = new InngestHarness({ functions: fns });
    h.send({ name: 'h/flaky', data: {} });
    const { runs } = await h.settle();
    expect(tries).toBe(3); // one attempt and two retries
    expect(before).toBe(1); // memoised across the retries
    expect(runs.map((r) => [r.fnId, r.status])).toEqual([
      ['flaky', 'failed'],
      ['flaky-failure', 'completed'],
    ]);
    expect(failures).toEqual(['always']);
  });

  it('does not retry a NonRetriableError', async () => {
    let tries = 0;
    const fns = () => [
      client.createFunction({ id: 'final', triggers: [{ event: 'h/final' }], retries: 5 }, async ({ step }) =>
        step.run('no', () => {
          tries++;
          throw new NonRetriableError('stop');
        }),
      ),
    ];
    const h = new InngestHarness({ functions: fns });
    h.send({ name: 'h/final', data: {} });
    const { runs } = await h.settle();
    expect(tries).toBe(1);
    expect(runs[0]!.status).toBe('failed');
  });

  it('cancels a run whose cancelOn event matches, before its next step', async () => {
    let second = 0;
    const fns = () => [
      client.createFunction({ id: 'long', triggers: [{ event: 'h/long' }], cancelOn: [{ event: 'h/cancel', match: 'data.key' }] }, async ({ step }) => {
        await step.run('first', () => h.send({ name: 'h/cancel', data: { key: 'k1' } }));
        await step.run('second', () => ++second);
      }),
    ];
    const h: InngestHarness = new InngestHarness({ functions: fns });
    h.send([
      { name: 'h/long', data: { key: 'k1' } },
      { name: 'h/long', data: { key: 'k2' } },
    ]);
    const { runs } = await h.settle();
    expect(runs.map((r) => [r.event.data.key, r.status]).sort()).toEqual([
      ['k1', 'cancelled'],
      ['k2', 'completed'],
    ]);
  });

  it('starts a second execution of a step while the first still runs, and deploys the functions afresh before every step', async () => {
    let inside = 0;
    let peak = 0;
    let deploys = 0;
    const fns = () => {
      deploys++;
      const closure: string[] = []; // state kept in a function object does not survive a deploy
      return [
        client.createFunction({ id: 'slow', triggers: [{ event: 'h/slow' }] }, async ({ step }) => {
          await step.run('work', async () => {
            inside++;
            peak = Math.max(peak, inside);
            await new Promise((r) => setTimeout(r, 20));
            inside--;
            closure.push('worked');
          });
          return step.run('after', () => closure.length);
        }),
      ];
    };
    const h = new InngestHarness({ functions: fns, overlap: ({ step }) => step === 0 });
    h.send({ name: 'h/slow', data: {} });
    const { runs } = await h.settle();
    expect(peak).toBe(2);
    expect(runs[0]!.overlaps).toBe(1);
    expect(runs[0]!.output).toBe(0); // the step after ran in a fresh deploy
    expect(deploys).toBeGreaterThanOrEqual(3);
  });

  it('holds a concurrency key shared across functions to its limit', async () => {
    let inside = 0;
    let peak = 0;
    const work = async () => {
      inside++;
      peak = Math.max(peak, inside);
      await new Promise((r) => setTimeout(r, 5));
      inside--;
    };
    const fns = () => [
      client.createFunction({ id: 'a', triggers: [{ event: 'h/a' }], concurrency: [{ key: 'event.data.p', limit: 2, scope: 'env' }] }, async ({ step }) => step.run('w', work)),
      client.createFunction({ id: 'b', triggers: [{ event: 'h/b' }], concurrency: [{ key: 'event.data.p', limit: 2, scope: 'env' }] }, async ({ step }) => step.run('w', work)),
    ];
    const h = new InngestHarness({ functions: fns, parallel: 10 });
    h.send([...Array.from({ length: 5 }, () => ({ name: 'h/a', data: { p: 'openai' } })), ...Array.from({ length: 5 }, () => ({ name: 'h/b', data: { p: 'openai' } }))]);
    await h.settle();
    expect(peak).toBe(2);
  });
});
