/**
 * A run that waits says why and until when: against the fake provider answering 429 as OpenAI
 * does (body `type: requests`, `code: rate_limit_exceeded`, a `retry-after` header), the runner
 * stores the wait (model, kind, the moment asked for, the next attempt) while it sleeps, the
 * progress poll and the run header read it back, and it is gone once the call goes through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { progressJson, progressView } from '@/lib/views/progress-view';
import { runHeaderView } from '@/lib/views/run-view';
import { ProviderError } from '../../providers';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { getRunHeader } from '../../db/queries/run-header';
import { getRunProgress } from '../../db/queries/run-progress';
import { executeRun } from '../engine/execute-run';
import { requestRun } from '../request-run';
import { noteBatchWaits, RunWaits } from './run-waits';
import { fakeDeps, noDispatch, storeBlueprint, TEST_DEFAULTS } from '../runs.testkit';

let t: TestDatabase;
let fake: FakeLlm;

/** OpenAI's words for a requests-per-minute limit (the message its 429 carries). */
const OPENAI_429 = 'Rate limit reached for model-x in organization org-fake on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 1.5s.';
const limited = (times?: number, retryAfter = '1.5') => ({ name: 'rate limited', model: 'model-x', ...(times ? { times } : {}), error: { status: 429, message: OPENAI_429, headers: { 'retry-after': retryAfter }, code: 'rate_limit_exceeded' } });
const JUDGE = { model: 'judge-a', judge: { labels: { E: 1 } } };

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: [JUDGE] });
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

async function newRun(name: string): Promise<string> {
  const { blueprintId } = await storeBlueprint(t.db, `${name}.yml`, `title: ${name}\nmodels: [openai:model-x]\n---\n- id: p\n  prompt: Say hi.\n  should: [Greets]\n`);
  const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', judges: ['openai:judge-a'], bypassCache: true }, noDispatch, TEST_DEFAULTS);
  return runId;
}

async function waitFor<T>(what: string, read: () => Promise<T | null>, ms = 5_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (v !== null) return v;
    if (Date.now() > until) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe(`why a run waits (${process.env.ASSAY_TEST_DB})`, () => {
  it('stores a 429’s retry-after while the run sleeps on it, shows it on the progress poll and the header, and clears it once the call goes through', async () => {
    fake.setRules([limited(1), JUDGE]);
    const runId = await newRun('waits-429');
    const deps = await fakeDeps(t.db, fake.url);
    const running = executeRun(deps, runId);

    const row = await waitFor('the stored wait', () => t.db.runWait.findFirst({ where: { runId } }));
    expect(row).toMatchObject({ modelId: 'openai:model-x', provider: 'openai', kind: 'rate_limited', httpStatus: 429, attempt: 1 });
    expect(row.message).toContain('Rate limit reached for model-x');
    // the provider asked for 1.5 s from the refusal; the next attempt is then, not earlier
    expect(row.retryAfterAt!.getTime() - row.updatedAt.getTime()).toBe(1500);
    expect(row.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(row.retryAfterAt!.getTime());

    // what the progress route sends and the page says, as of the moment it was noted
    const progress = progressJson((await getRunProgress(t.db, runId))!);
    expect(progress.status).toBe('running');
    expect(progress.waits).toHaveLength(1);
    const view = progressView(progress, row.updatedAt);
    expect(view.waits[0]?.text).toMatch(/^Waiting for openai:model-x — rate limited, the provider asked to retry at (?:\d{4}-\d\d-\d\d )?\d\d:\d\d UTC \(in 2 s\); next attempt (?:\d{4}-\d\d-\d\d )?\d\d:\d\d UTC \(in 2 s\)$/);
    expect(view.waits[0]?.detail).toContain('HTTP 429');
    const header = runHeaderView((await getRunHeader(t.db, runId))!, 'prompts', row.updatedAt);
    expect(header.waits.map((w) => w.modelId)).toEqual(['openai:model-x']);

    expect(await running).toBe('completed');
    await (deps.gateway as unknown as { waits: RunWaits }).waits.settled();
    expect(await t.db.runWait.count({ where: { runId } })).toBe(0);
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect([run.doneCalls, run.errorCalls]).toEqual([1, 0]);
    // the call was refused once and went through on its second attempt
    expect(fake.requests().filter((r) => r.request.model === 'model-x').map((r) => r.status)).toEqual([429, 200]);
  });

  it('clears the wait when the call gives up, its retries spent', async () => {
    fake.reset();
    fake.setRules([limited(undefined, '0.02'), JUDGE]);
    const runId = await newRun('waits-give-up');
    const deps = await fakeDeps(t.db, fake.url);
    await executeRun(deps, runId);
    await (deps.gateway as unknown as { waits: RunWaits }).waits.settled();
    expect(fake.requests().filter((r) => r.request.model === 'model-x' && r.status === 429).length).toBe(6);
    expect(await t.db.runWait.count({ where: { runId } })).toBe(0);
  });

  it('keeps a wait noted after a successful call was sent, and clears it on one sent after it', async () => {
    const runId = await newRun('waits-order');
    let clock = new Date('2026-12-06T13:00:00Z');
    const waits = new RunWaits(t.db, () => clock);
    const error = new ProviderError({ kind: 'rate_limited', provider: 'openai', status: 429, message: 'openai: HTTP 429: slow down', retryAfterMs: 60_000 });
    const before = new Date('2026-12-06T12:59:59Z');
    waits.retrying(runId, 'openai:model-x', { attempt: 1, delayMs: 60_000, error }, true);
    // a call sent before the refusal came back fine: it says nothing about the limit now
    waits.ended(runId, 'openai:model-x', { sentAt: before, waited: false });
    await waits.settled();
    const kept = await t.db.runWait.findUniqueOrThrow({ where: { runId_modelId: { runId, modelId: 'openai:model-x' } } });
    expect(kept.nextAttemptAt?.toISOString()).toBe('2026-12-06T13:01:00.000Z');
    expect(kept.since.toISOString()).toBe('2026-12-06T13:00:00.000Z');
    // renewed: `since` stays the start of the wait
    clock = new Date('2026-12-06T13:01:00Z');
    waits.retrying(runId, 'openai:model-x', { attempt: 2, delayMs: 60_000, error }, false);
    await waits.settled();
    expect(await t.db.runWait.findUniqueOrThrow({ where: { runId_modelId: { runId, modelId: 'openai:model-x' } } })).toMatchObject({ attempt: 2, since: new Date('2026-12-06T13:00:00Z') });
    waits.ended(runId, 'openai:model-x', { sentAt: new Date('2026-12-06T13:01:30Z'), waited: false });
    await waits.settled();
    expect(await t.db.runWait.count({ where: { runId } })).toBe(0);
  });

  it('a batch-mode run says which models wait for their batch while it polls, and nothing once every batch is imported', async () => {
    fake.reset();
    fake.setRules([JUDGE]);
    fake.setBatch({ delayMs: 1000 });
    const { blueprintId } = await storeBlueprint(t.db, 'waits-batch-run.yml', `title: Batch waits\nmodels: [openai:model-x]\n---\n- id: p\n  prompt: Say hi.\n  should: [Greets]\n`);
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', judges: ['openai:judge-a'], mode: 'batch', bypassCache: true }, noDispatch, TEST_DEFAULTS);
    const running = executeRun({ ...(await fakeDeps(t.db, fake.url)), batchPollMs: 50 }, runId);
    const row = await waitFor('the batch wait', () => t.db.runWait.findFirst({ where: { runId, kind: 'batch' } }));
    expect(row).toMatchObject({ modelId: 'openai:model-x', provider: 'openai', kind: 'batch', retryAfterAt: null });
    expect(row.nextAttemptAt!.getTime()).toBeGreaterThan(row.updatedAt.getTime());
    expect(await running).toBe('completed');
    expect(await t.db.runWait.count({ where: { runId } })).toBe(0);
  });

  it('notes the models waiting in an open provider batch with the next poll, and clears them when none is open', async () => {
    const runId = await newRun('waits-batch');
    const at = new Date('2026-12-06T13:00:00Z');
    await noteBatchWaits(t.db, runId, [{ provider: 'openai', modelId: 'openai:model-x' }, { provider: 'openai', modelId: 'openai:model-y' }], new Date('2026-12-06T13:01:00Z'), at);
    await noteBatchWaits(t.db, runId, [{ provider: 'openai', modelId: 'openai:model-y' }], new Date('2026-12-06T13:02:00Z'), new Date('2026-12-06T13:01:00Z'));
    const rows = await t.db.runWait.findMany({ where: { runId } });
    expect(rows.map((r) => [r.modelId, r.kind, r.nextAttemptAt?.toISOString(), r.since.toISOString()])).toEqual([['openai:model-y', 'batch', '2026-12-06T13:02:00.000Z', '2026-12-06T13:00:00.000Z']]);
    await noteBatchWaits(t.db, runId, [], null, new Date('2026-12-06T13:02:00Z'));
    expect(await t.db.runWait.count({ where: { runId } })).toBe(0);
  });
});
