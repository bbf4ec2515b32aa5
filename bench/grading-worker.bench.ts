/**
 * What grading a reply's sandbox points in a worker (lib/server/runs/grading/grading-pool.ts) costs over
 * grading them on the thread: the round trip (structured clone of the points and reply, the
 * worker's message back per point). One trivial `$js` point, and ten, per reply, warm pool;
 * and the event loop's longest hold while a worker grades a looping point.
 */
import { budgetedSandbox, createQuickJsSandbox, evaluateDeterministicPoint, SandboxTimeBudget, type Point } from '@/lib/core';
import { GRADING_POOL_DEFAULTS, GradingPool } from '@/lib/server/runs/grading/grading-pool';

const js = (code: string): Point => ({ kind: 'function', fn: 'js', args: code, text: code, weight: 1 }) as unknown as Point;
const reply = { content: 'Hello there, friend. '.repeat(50), toolCalls: null };
const context = { messages: [], modelId: 'openai:model-x', promptId: 'p' };
const budgets = () => ({ reply: { limitMs: 5_000, usedMs: 0 }, run: { limitMs: 300_000, usedMs: 0 } });

async function timeEach(n: number, f: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 20; i++) await f();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await f();
  return ((performance.now() - t0) / n) * 1000;
}

export async function bench(): Promise<void> {
  const sandbox = await createQuickJsSandbox();
  const pool = new GradingPool({ ...GRADING_POOL_DEFAULTS, size: 1 });
  const t0 = performance.now();
  await pool.warm();
  console.log(`worker start-up (cold, tsx): ${(performance.now() - t0).toFixed(0)} ms`);
  for (const count of [1, 10]) {
    const points = Array.from({ length: count }, (_, i) => ({ index: i, point: js("return r.includes('friend')") }));
    const inline = await timeEach(200, async () => {
      const b = budgetedSandbox(sandbox, [new SandboxTimeBudget('reply', 5_000), new SandboxTimeBudget('run', 300_000)], { now: () => performance.now() });
      for (const p of points) await evaluateDeterministicPoint(p.point, reply, { pointIndex: p.index, sandbox: b, ...context });
    });
    const worker = await timeEach(200, () => pool.grade({ points, reply, context, budgets: budgets() }));
    console.log(`${count} $js point(s) per reply: on the thread ${inline.toFixed(0)} µs, in the worker ${worker.toFixed(0)} µs (round trip +${(worker - inline).toFixed(0)} µs)`);
  }
  let last = performance.now();
  let lag = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    lag = Math.max(lag, now - last - 10);
    last = now;
  }, 10);
  await pool.grade({ points: Array.from({ length: 5 }, (_, i) => ({ index: i, point: js('while (true) {}') })), reply, context, budgets: budgets() });
  clearInterval(ticker);
  console.log(`5 looping points in the worker (5 s): event-loop lag max ${lag.toFixed(1)} ms`);
  await pool.close();
  sandbox.dispose();
}
