/**
 * Issue 11, finding 6: runs had no lease, and two concurrent `--resume` of one run made 92
 * duplicate provider calls (paid twice); several app instances resuming at start raced the
 * same way. With a lease per run:
 *   - two real `assay run --resume RUN_ID` processes against the fake LLM make 0 duplicate
 *     provider calls (counted at the fake's per-request counter);
 *   - two app instances (separate database clients, the in-process dispatcher they use at
 *     start) make 0 duplicate calls;
 *   - a killed CLI's run can be resumed at once on its machine (its process is gone); a holder
 *     elsewhere keeps the run until its lease lapses, and a resumer is told it is busy.
 * And (issue 11, Low) the call-budget counter counts calls made: after a SIGKILL, the counter
 * settles to the fake's own count once the run is resumed (it over-counted: 248 vs 184).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { createDb } from '../../db/client';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { executeRun } from './execute-run';
import { takeLease } from './lease';
import { requestRun } from '../request-run';
import { fakeDeps, noDispatch, spawnAssay, storeBlueprint } from '../runs.testkit';
import { localDispatcher } from '../../compose/run-deps';

let t: TestDatabase;
let fake: FakeLlm;
let blueprintId: string;

const PROMPTS = 40;
const MODELS = ['openai:model-1', 'openai:model-2'];
const TOTAL = PROMPTS * MODELS.length;
const BLUEPRINT = `title: Lease test\n---\n${Array.from({ length: PROMPTS }, (_, i) => `- id: q${i}\n  prompt: "Lease question ${i}"\n  should: [{$contains: Fake}]`).join('\n')}\n`;

const assay = (args: string[], env: Record<string, string> = {}) =>
  spawnAssay(args, { DATABASE_URL: t.url, ASSAY_LLM_BASE_URL: fake.url, ASSAY_DATA_DIR: 'memory://', ...env });

async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const newRun = async () =>
  (await requestRun(t.db, { blueprintId, trigger: 'cli', models: MODELS, bypassCache: true }, noDispatch, { judges: [], defaultCollection: 'CORE', judgeSamples: 1 })).runId;

/** Model calls the fake received more than once for the same request. */
const duplicateCalls = () => [...fake.requests().reduce((m, r) => m.set(r.key, (m.get(r.key) ?? 0) + 1), new Map<string, number>()).values()].reduce((s, n) => s + n - 1, 0);

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({ latencyMs: 25, keepRequests: 100_000 });
  ({ blueprintId } = await storeBlueprint(t.db, 'lease-test.yml', BLUEPRINT));
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});
beforeEach(() => fake.reset());

describe(`run leases (${process.env.ASSAY_TEST_DB})`, () => {
  it('two concurrent `assay run --resume` processes make 0 duplicate provider calls', { timeout: 180_000 }, async () => {
    const runId = await newRun();
    const args = ['run', '--resume', runId, '--concurrency', '4', '--quiet'];
    const [a, b] = [assay(args), assay(args)];
    const codes = (await Promise.all([a.exited, b.exited])).sort();
    // One did the run; the other found it held (3), or found it already completed (0).
    expect(codes[0], a.stderr() + b.stderr()).toBe(0);
    expect([0, 3]).toContain(codes[1]);
    if (codes[1] === 3) expect(a.stderr() + b.stderr()).toMatch(/is being executed by .+ \(lease until/);
    expect(fake.calls()).toBe(TOTAL);
    expect(duplicateCalls()).toBe(0);
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run).toMatchObject({ status: 'completed', doneCalls: TOTAL, providerCalls: TOTAL, reservedCalls: 0, leaseHolder: null });
    console.log(`lease: two resumers, exit codes ${codes.join(' and ')}, ${fake.calls()} provider calls for ${TOTAL} cells, ${duplicateCalls()} duplicates`);
  });

  it('two app instances resuming the same run at start make 0 duplicate provider calls', { timeout: 120_000 }, async () => {
    const runId = await newRun();
    const dbs = [createDb(t.url), createDb(t.url)];
    try {
      const done: Promise<void>[] = [];
      for (const db of dbs) {
        const deps = await fakeDeps(db, fake.url, { concurrency: 4 });
        let finish!: () => void;
        done.push(new Promise<void>((r) => (finish = r)));
        // The same dispatcher an app instance's `resumeInterruptedRuns` uses at start.
        const dispatcher = localDispatcher(async () => ({ ...deps, onFinished: async () => finish() }), (_id, e) => { throw e; });
        await dispatcher.dispatch(runId);
      }
      await until(async () => (await t.db.run.findUniqueOrThrow({ where: { id: runId } })).status === 'completed', 60_000, 'the run to complete');
      await until(async () => (await t.db.run.findUniqueOrThrow({ where: { id: runId } })).leaseHolder === null, 10_000, 'the lease to be released');
    } finally {
      await Promise.all(dbs.map((db) => db.$disconnect()));
    }
    expect(fake.calls()).toBe(TOTAL);
    expect(duplicateCalls()).toBe(0);
  });

  it('a killed holder’s run is resumed at once on its machine, and the call counter never undercounts the calls made', { timeout: 180_000 }, async () => {
    const runId = await newRun();
    const first = assay(['run', '--resume', runId, '--concurrency', '4', '--quiet']);
    await until(() => fake.calls() >= 20, 60_000, '20 provider calls');
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe(-1);
    const callsAtKill = fake.calls();
    const killed = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(killed.leaseHolder).toMatch(new RegExp(`:${first.child.pid}:`));
    expect(killed.leaseExpiresAt!.getTime()).toBeGreaterThan(Date.now());
    // Counted and reserved together cover the calls made (nothing queued behind a slot is counted).
    expect(killed.providerCalls + killed.reservedCalls).toBeGreaterThanOrEqual(callsAtKill - 4);
    expect(killed.providerCalls + killed.reservedCalls).toBeLessThanOrEqual(callsAtKill + 4);

    // Its process is gone, so its lease need not lapse first.
    const second = assay(['run', '--resume', runId, '--concurrency', '4', '--quiet']);
    expect(await second.exited, second.stderr()).toBe(0);
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run).toMatchObject({ status: 'completed', doneCalls: TOTAL, reservedCalls: 0, leaseHolder: null });
    // The take-over counts the dead holder's reservations as calls, so the budget never undercounts:
    // the counter is at least the calls made, and over by at most the reservations (≤ concurrency 4)
    // that were not yet on the wire at the kill.
    expect(run.providerCalls).toBeGreaterThanOrEqual(fake.calls());
    expect(run.providerCalls).toBeLessThanOrEqual(fake.calls() + 4);
    console.log(`lease: killed after ${callsAtKill} calls (counter then ${killed.providerCalls} made + ${killed.reservedCalls} reserved); after resume ${run.providerCalls} counted, ${fake.calls()} made`);
  });

  it('a holder on another machine that stops renewing keeps the run until its lease lapses; then it can be resumed', { timeout: 60_000 }, async () => {
    const runId = await newRun();
    const other = await takeLease(t.db, runId, { ttlMs: 2_000, holder: 'another-machine:4242:deadbeef' });
    expect(other.ok).toBe(true);
    let busy: { holder: string } | null = null;
    expect(await executeRun(await fakeDeps(t.db, fake.url), runId, { onBusy: (b) => (busy = b) })).toBe('busy');
    expect(busy!.holder).toBe('another-machine:4242:deadbeef');
    expect(fake.calls()).toBe(0);
    await until(async () => (await t.db.run.findUniqueOrThrow({ where: { id: runId } })).leaseExpiresAt! < new Date(Date.now() - 100), 10_000, 'the lease to lapse');
    expect(await executeRun(await fakeDeps(t.db, fake.url), runId)).toBe('completed');
    expect(fake.calls()).toBe(TOTAL);
  });
});
