/**
 * Issue 11, finding 4, through the run pipeline: 60 `while(true){}` points on one prompt held
 * the server for 60 s and no budget counted them. Now the reply's sandbox budget stops them
 * (5 s by default), the run's budget (a PR run's `maxSandboxSeconds`) spans replies, the time
 * used is stored on the run, and grading leaves the event loop free (in a worker; on the thread it yields between points), so an HTTP server
 * in the same process keeps answering (the loop is held at most one point's 1 s limit at a time).
 * Also stored per verdict: which regex engine ran (finding 2) and the capped explanation (10).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { executeRun } from '../engine/execute-run';
import { requestRun } from '../request-run';
import { forgetRunContext } from '../engine/run-context';
import { fakeDeps, noDispatch, storeBlueprint, TEST_DEFAULTS } from '../runs.testkit';

let t: TestDatabase;
let fake: FakeLlm;
let server: Server;
let serverUrl: string;

const LOOPS = 60;
const looping = Array.from({ length: LOOPS }, () => '    - $js: "while (true) {}"').join('\n');

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: [{ lastUser: 'Say hello', reply: 'Hello there, friend.' }] });
  server = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await fake?.close();
  await t?.close();
});

/** Requests the probe server every 50 ms while `work` runs; the worst round trip, in ms. */
async function probeDuring<T>(work: () => Promise<T>): Promise<{ result: T; worstMs: number; answered: number; lagMaxMs: number }> {
  // The longest gap between two ticks of a 10 ms timer: how long the event loop was held.
  let lastTick = performance.now();
  let lagMaxMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    lagMaxMs = Math.max(lagMaxMs, now - lastTick - 10);
    lastTick = now;
  }, 10);
  let running = true;
  let worstMs = 0;
  let answered = 0;
  const probing = (async () => {
    while (running) {
      const started = performance.now();
      await (await fetch(serverUrl)).text();
      worstMs = Math.max(worstMs, performance.now() - started);
      answered++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  try {
    const result = await work();
    return { result, worstMs, answered, lagMaxMs };
  } finally {
    running = false;
    clearInterval(ticker);
    await probing;
  }
}

describe(`sandbox time budgets in a run (${process.env.ASSAY_TEST_DB})`, () => {
  it(`${LOOPS} looping $js points on one prompt: stopped by the 5 s reply budget, the server answering meanwhile`, async () => {
    const { blueprintId } = await storeBlueprint(t.db, 'loops.yml', `title: Loops\nmodels: [openai:model-x]\n---\n- id: loops\n  prompt: Say hello\n  should:\n${looping}\n`);
    const deps = await fakeDeps(t.db, fake.url);
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', judges: [] }, noDispatch, TEST_DEFAULTS);

    const started = performance.now();
    const probe = await probeDuring(() => executeRun(deps, runId));
    const wallMs = performance.now() - started;
    // every verdict is an error (below), so the run is failed: it never publishes a score
    expect(probe.result).toBe('failed');

    const verdicts = await t.db.verdict.findMany({ where: { runId }, orderBy: { pointIndex: 'asc' } });
    expect(verdicts).toHaveLength(LOOPS);
    expect(verdicts.every((v) => v.status === 'error' && v.score === null)).toBe(true);
    const usedUp = verdicts.filter((v) => v.detail?.includes('sandbox time budget of 5 s for this reply is used up')).length;
    expect(usedUp).toBeGreaterThanOrEqual(LOOPS - 5);
    expect(wallMs).toBeLessThan(12_000); // 5 s of sandbox time plus the run's own work, not 60 s
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.sandboxMs).toBeGreaterThan(4_500);
    expect(run.sandboxMs).toBeLessThan(6_000);
    // One point's 1 s limit is the longest the event loop is held (margin for a loaded machine);
    // a request's round trip needs several turns of the loop, so it can span two points.
    expect(probe.answered).toBeGreaterThanOrEqual(5);
    expect(probe.lagMaxMs).toBeLessThan(1_600);
    // PGlite runs the database on this thread too, so the run's own writes queue beside the probe
    expect(probe.worstMs).toBeLessThan(process.env.ASSAY_TEST_DB === 'pglite' ? 5_000 : 3_000);
    console.info(`60 looping points: wall ${wallMs.toFixed(0)} ms, sandbox ${run.sandboxMs.toFixed(0)} ms, worst probe ${probe.worstMs.toFixed(0)} ms, event-loop lag max ${probe.lagMaxMs.toFixed(0)} ms, ${probe.answered} probes answered`);
    forgetRunContext(runId);
  }, 60_000);

  it('a PR-style run budget spans replies: later replies find it used up at once', async () => {
    const { blueprintId } = await storeBlueprint(
      t.db,
      'run-budget.yml',
      `title: Run budget\nmodels: [openai:model-a, openai:model-b, openai:model-c]\n---\n- id: loops\n  prompt: Say hello\n  should:\n${looping.split('\n').slice(0, 3).join('\n')}\n`,
    );
    const deps = await fakeDeps(t.db, fake.url);
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'pull_request', judges: [], budget: { maxSandboxSeconds: 1.5 } }, noDispatch, TEST_DEFAULTS);
    const started = performance.now();
    expect(await executeRun(deps, runId)).toBe('failed'); // all its verdicts are errors (below)
    expect(performance.now() - started).toBeLessThan(8_000);
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.maxSandboxMs).toBe(1_500);
    expect(run.sandboxMs).toBeLessThan(2_000);
    const verdicts = await t.db.verdict.findMany({ where: { runId } });
    expect(verdicts).toHaveLength(9);
    expect(verdicts.every((v) => v.status === 'error')).toBe(true);
    expect(verdicts.filter((v) => v.detail?.includes('sandbox time budget of 1.5 s for this run is used up')).length).toBeGreaterThanOrEqual(7);
    forgetRunContext(runId);
  }, 60_000);

  it('stores the regex engine per verdict and a capped explanation', async () => {
    const { blueprintId } = await storeBlueprint(
      t.db,
      'engines.yml',
      [
        'title: Engines',
        'models: [openai:model-x]',
        '---',
        '- id: engines',
        '  prompt: Say hello',
        '  should:',
        '    - $matches: "^(\\\\w+\\\\s?)*$"',
        '    - $matches: "^(?=.*friend)Hello"',
        '    - $contains: Hello',
        `    - $js: "return { score: 1, explain: 'y'.repeat(3000000) }"`,
        '',
      ].join('\n'),
    );
    const deps = await fakeDeps(t.db, fake.url);
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', judges: [] }, noDispatch, TEST_DEFAULTS);
    expect(await executeRun(deps, runId)).toBe('completed');
    const verdicts = await t.db.verdict.findMany({ where: { runId }, orderBy: { pointIndex: 'asc' } });
    expect(verdicts.map((v) => [v.status, v.regexEngine])).toEqual([
      ['fail', 're2'],
      ['pass', 'sandbox'],
      ['pass', null],
      ['pass', null],
    ]);
    expect(verdicts[3]!.detail).toBe(`${'y'.repeat(2_000)}… (2998000 characters more)`);
    forgetRunContext(runId);
  }, 60_000);
});
