/**
 * Issue 11 (Low): a hung provider held a concurrency slot for 120 s × 4 attempts. Calls now
 * time out per provider (the table in providers/timeouts.ts, overridable), and a run has a
 * deadline: when it passes, calls in flight are cut off and the run stops, resumable, with
 * the reason recorded and the budget counter matching the calls made.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { PROVIDER_TIMEOUTS_MS } from '../../providers';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import type { RunDeps } from '../engine/deps';
import { executeRun } from '../engine/execute-run';
import { LlmGateway } from './gateway';
import { requestRun } from '../request-run';
import { fakeDeps, noDispatch, storeBlueprint } from '../runs.testkit';

let t: TestDatabase;
let fake: FakeLlm;
let blueprintId: string;

const BLUEPRINT = `title: Hung provider\nmodels: [openai:model-1]\n---\n${Array.from({ length: 6 }, (_, i) => `- id: p${i}\n  prompt: "${i === 0 ? 'Hang on' : `Question ${i}`}"\n  should: [{$contains: Fake}]`).join('\n')}\n`;

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: [{ lastUser: 'Hang on', hang: true }] });
  ({ blueprintId } = await storeBlueprint(t.db, 'hung.yml', BLUEPRINT));
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});
beforeEach(() => fake.reset());

async function deps(over: { timeouts?: Record<string, number>; deadlineMs?: number }): Promise<RunDeps> {
  const base = await fakeDeps(t.db, fake.url, { sandbox: false });
  return {
    ...base,
    // No single test timeout: the per-provider table (with overrides) decides, as in production.
    gateway: new LlmGateway({ db: t.db, providers: { keys: {}, baseUrlOverride: fake.url }, concurrency: 2, retry: { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 50 }, ...(over.timeouts ? { timeouts: over.timeouts } : {}) }),
    runLimits: { deadlineMs: over.deadlineMs ?? 60_000 },
  };
}

const newRun = async () => (await requestRun(t.db, { blueprintId, trigger: 'cli', bypassCache: true }, noDispatch, { judges: [], defaultCollection: 'CORE', judgeSamples: 1 })).runId;

describe(`a hung provider (${process.env.ASSAY_TEST_DB})`, () => {
  it('has a documented timeout per provider, well under 120 s', () => {
    expect(PROVIDER_TIMEOUTS_MS.openai).toBeLessThanOrEqual(60_000);
    expect(PROVIDER_TIMEOUTS_MS.custom).toBeLessThanOrEqual(30_000);
  });

  it('times out per provider: the hung cell is an error reply after one longer retry (a timed-out call may be billed), the rest of the run completes', { timeout: 30_000 }, async () => {
    const runId = await newRun();
    const started = Date.now();
    expect(await executeRun(await deps({ timeouts: { openai: 250 } }), runId)).toBe('completed');
    const took = Date.now() - started;
    const hung = await t.db.reply.findFirstOrThrow({ where: { runId, promptKey: 'p0' } });
    expect(hung).toMatchObject({ errorKind: 'timeout' });
    // 250 ms, then once more with twice the deadline (retry.ts), not 4 blind attempts.
    expect(hung.error).toMatch(/no reply within 500 ms/);
    expect(fake.requests().filter((r) => r.request.messages.at(-1)?.content === 'Hang on')).toHaveLength(2);
    expect(await t.db.reply.count({ where: { runId, error: null } })).toBe(5);
    expect(took).toBeLessThan(10_000); // 250 + 500 ms, not 4 × 120 s
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.providerCalls).toBe(fake.calls());
    console.log(`hung provider: timed out after 250 + 500 ms; run took ${took} ms`);
  });

  it('stops at the run’s deadline, cutting off calls in flight, resumable, with the counter equal to the calls made', { timeout: 30_000 }, async () => {
    const runId = await newRun();
    const started = Date.now();
    // The table's 60 s per call would hold the slot; the 1.5 s deadline stops the run first.
    expect(await executeRun(await deps({ deadlineMs: 1500 }), runId)).toBe('budget_exceeded');
    const took = Date.now() - started;
    expect(took).toBeLessThan(8_000);
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.status).toBe('budget_exceeded');
    expect(run.error).toMatch(/deadline/);
    expect(run).toMatchObject({ reservedCalls: 0, leaseHolder: null });
    expect(run.providerCalls).toBe(fake.calls());
    // Nothing was stored for the hung cell: a resume generates it again.
    expect(await t.db.reply.count({ where: { runId, promptKey: 'p0' } })).toBe(0);
    console.log(`run deadline: stopped after ${took} ms (deadline 1500 ms)`);
  });
});
