/**
 * Issue 11 (Low): transport faults (a 200 with a truncated, empty or HTML body) were classed
 * as malformed replies, never retried, and `--resume` did not retry them (5 of 36 replies lost
 * in a chaos run). Now the provider layer classes them `transport` (retryable): a run under
 * such faults loses no reply, and resuming a run re-generates replies that failed transiently.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { executeRun } from '../engine/execute-run';
import { requestRun } from '../request-run';
import { fakeDeps, noDispatch, storeBlueprint } from '../runs.testkit';

let t: TestDatabase;
let fake: FakeLlm;
let blueprintId: string;

const PROMPTS = 12;
const BLUEPRINT = `title: Transport faults\nmodels: [openai:model-1, openai:model-2, openai:model-3]\n---\n${Array.from(
  { length: PROMPTS },
  (_, i) => `- id: p${i}\n  prompt: "Question ${i}"\n  should: [{$contains: Fake}]`,
).join('\n')}\n`;
const TOTAL = PROMPTS * 3;

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({ keepRequests: 10_000 });
  ({ blueprintId } = await storeBlueprint(t.db, 'transport.yml', BLUEPRINT));
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});
beforeEach(() => fake.reset());

const newRun = async () => (await requestRun(t.db, { blueprintId, trigger: 'cli', bypassCache: true }, noDispatch, { judges: [], defaultCollection: 'CORE', judgeSamples: 1 })).runId;

describe(`transport faults (${process.env.ASSAY_TEST_DB})`, () => {
  it('are retried: a run under truncated, empty and HTML 200s stores every reply without an error', async () => {
    fake.setFaults({ truncated: 0.1, empty: 0.1, html: 0.1 });
    const runId = await newRun();
    expect(await executeRun(await fakeDeps(t.db, fake.url), runId)).toBe('completed');
    const faulted = fake.requests().filter((r) => r.fault).length;
    expect(faulted).toBeGreaterThan(3);
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run).toMatchObject({ doneCalls: TOTAL, errorCalls: 0 });
    // Every attempt counted as a call made, faulted ones included.
    expect(run.providerCalls).toBe(fake.calls());
    console.log(`transport: ${faulted} faulted bodies in ${fake.calls()} calls, 0 replies lost`);
  });

  it('that outlast the retries are retried again when the run is resumed', async () => {
    fake.setFaults([{ model: 'model-2', html: 1 }]);
    const runId = await newRun();
    expect(await executeRun(await fakeDeps(t.db, fake.url), runId)).toBe('completed');
    const failed = await t.db.reply.findMany({ where: { runId, error: { not: null } }, select: { errorKind: true, error: true } });
    expect(failed).toHaveLength(PROMPTS);
    expect(new Set(failed.map((r) => r.errorKind))).toEqual(new Set(['transport']));
    expect(failed[0]!.error).toMatch(/HTML page/);

    fake.setFaults(null);
    expect(await executeRun(await fakeDeps(t.db, fake.url), runId)).toBe('completed');
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run).toMatchObject({ status: 'completed', doneCalls: TOTAL, errorCalls: 0, doneVerdicts: TOTAL, errorVerdicts: 0 });
    expect(await t.db.reply.count({ where: { runId, error: null } })).toBe(TOTAL);
    expect(await t.db.verdict.count({ where: { runId, status: 'pass' } })).toBe(TOTAL);
    expect(await t.db.attemptScore.count({ where: { runId } })).toBe(TOTAL);
  });
});
