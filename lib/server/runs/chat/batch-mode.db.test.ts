/**
 * Batch mode against the fake's batch APIs (OpenAI Batch and Anthropic Message Batches): the
 * same blueprint run live and in batch mode gives the same verdicts at half the fake's billed
 * cost; a batch-mode `assay run` killed while it polls and resumed submits no batch twice and
 * imports no line twice; a line that failed in its batch is retried on its own, live.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { batchSavings } from '../../db/queries/batch-savings';
import { executeRun } from '../engine/execute-run';
import { requestRun } from '../request-run';
import type { RunMode } from '@/lib/core';
import { fakeDeps, noDispatch, spawnAssay, storeBlueprint, TEST_DEFAULTS } from '../runs.testkit';

const PROMPTS = 6;
// Priced models (the cost table knows them), on both batch APIs; judges on both too: the
// OpenAI judge reads log-probabilities, the Anthropic one samples (three calls, in two rounds).
const MODELS = ['openai:gpt-4o-mini', 'anthropic:claude-3-5-haiku'];
const JUDGES = ['openai:judge-a', 'anthropic:judge-b'];

function blueprint(): string {
  const prompts = Array.from({ length: PROMPTS }, (_, i) => `- id: q${i}\n  prompt: "Question ${i}: name a prime number greater than ${i * 7}."\n  should:\n    - "Names a prime number greater than ${i * 7}"\n    - $contains: "Fake reply"`);
  return `title: Batch mode test\ndescription: ${PROMPTS} prompts\nmodels:\n${MODELS.map((m) => `  - ${m}`).join('\n')}\n---\n${prompts.join('\n')}\n`;
}

let t: TestDatabase;
let fake: FakeLlm;
let blueprintId: string;
let dir: string;

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({
    keepRequests: 10_000,
    rules: [
      { model: 'judge-a', judge: { labels: { C: 0.5, E: 0.5 } } },
      { model: 'judge-b', judge: { labels: { A: 0.3, D: 0.3, E: 0.4 } } },
    ],
  });
  ({ blueprintId } = await storeBlueprint(t.db, 'batch-mode.yml', blueprint()));
  dir = await mkdtemp(join(tmpdir(), 'assay-batch-'));
  await writeFile(join(dir, 'batch-mode.yml'), blueprint());
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

async function run(mode: RunMode): Promise<string> {
  const deps = { ...(await fakeDeps(t.db, fake.url)), batchPollMs: 10 };
  // bypassCache: each run answers afresh (the previous run's responses are older than it)
  const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', judges: JUDGES, mode, bypassCache: true }, noDispatch, TEST_DEFAULTS);
  expect(await executeRun(deps, runId)).toBe('completed');
  return runId;
}

/** Every verdict of a run by its natural key (reply cell and point), with its score. */
async function verdicts(runId: string): Promise<Map<string, { status: string; score: number | null }>> {
  const rows = await t.db.verdict.findMany({
    where: { runId },
    select: { pointIndex: true, status: true, score: true, reply: { select: { promptKey: true, modelId: true, systemIndex: true, temperatureIndex: true, attempt: true, error: true } } },
  });
  return new Map(rows.map((v) => [[v.reply.promptKey, v.reply.modelId, v.reply.systemIndex, v.reply.temperatureIndex, v.reply.attempt, v.pointIndex].join('|'), { status: v.status, score: v.score }]));
}

let liveRunId: string;

describe(`batch mode against the fake's batch APIs (${process.env.ASSAY_TEST_DB})`, () => {
  it('gives the verdicts of live mode at half the billed cost, and shows the saving', { timeout: 120_000 }, async () => {
    liveRunId = await run('live');
    const afterLive = fake.billing();
    expect(afterLive.liveCalls).toBeGreaterThan(0);
    expect(afterLive.batchLines).toBe(0);

    const batchRunId = await run('batch');
    const afterBatch = fake.billing();
    // Nothing of the batch run was called live; every call of the live run became a batch line.
    expect(afterBatch.liveCalls).toBe(afterLive.liveCalls);
    expect(afterBatch.batchLines).toBe(afterLive.liveCalls);
    expect(afterBatch.batchUsd).toBeGreaterThan(0);
    expect(afterBatch.batchUsd).toBeCloseTo(afterLive.liveUsd / 2, 12);
    expect(fake.batchStats().created).toEqual({ openai: expect.any(Number), anthropic: expect.any(Number) });
    expect(fake.batchStats().created.openai).toBeGreaterThan(0);
    expect(fake.batchStats().created.anthropic).toBeGreaterThan(0);

    const live = await verdicts(liveRunId);
    const batch = await verdicts(batchRunId);
    expect(live.size).toBe(PROMPTS * MODELS.length * 2);
    expect([...batch.entries()].sort()).toEqual([...live.entries()].sort());
    expect([...live.values()].some((v) => v.status === 'error')).toBe(false);
    expect(new Set([...live.values()].map((v) => v.score)).size).toBeGreaterThan(1);

    // Our own books: the run cost half of the live run's, and the saving is the other half.
    const [l, b] = await Promise.all([t.db.run.findUniqueOrThrow({ where: { id: liveRunId } }), t.db.run.findUniqueOrThrow({ where: { id: batchRunId } })]);
    expect(l.costUsd).toBeGreaterThan(0);
    expect(b.costUsd).toBeCloseTo(l.costUsd / 2, 12);
    expect(b.providerCalls).toBe(l.providerCalls);
    const saved = await batchSavings(t.db, batchRunId, { mode: 'batch' });
    expect(saved.lines).toBe(afterLive.liveCalls);
    expect(saved.savedUsd).toBeCloseTo(l.costUsd / 2, 12);
    const replies = await t.db.reply.findMany({ where: { runId: batchRunId }, select: { fromCache: true, error: true } });
    expect(replies.every((r) => !r.fromCache && r.error === null)).toBe(true);
  });

  it('retries a line that failed in its batch on its own, as a live call', { timeout: 120_000 }, async () => {
    const before = fake.billing();
    fake.setBatch({ fail: { lastUser: /^Question 2:/, times: 1 } });
    try {
      const runId = await run('batch');
      const failed = await t.db.batchResult.findMany({ where: { runId, error: { not: null } }, select: { key: true, errorKind: true } });
      expect(failed).toHaveLength(1);
      expect(failed[0]!.errorKind).toBe('retryable');
      // exactly one live call: the failed line, retried
      expect(fake.billing().liveCalls - before.liveCalls).toBe(1);
      expect(await t.db.reply.count({ where: { runId, error: { not: null } } })).toBe(0);
      expect([...(await verdicts(runId)).entries()].sort()).toEqual([...(await verdicts(liveRunId)).entries()].sort());
    } finally {
      fake.setBatch(null);
    }
  });

  it("imports the lines of a batch that failed with the batch's own reason, then answers them live", { timeout: 120_000 }, async () => {
    // OpenAI's enqueued-token limit (Batch API reference: status failed, errors.data[].code token_limit_exceeded).
    fake.setBatch({ end: { status: 'failed' } });
    try {
      const runId = await run('batch');
      // Anthropic has no batch-level failure (its batches end with per-line results): only OpenAI's lines failed.
      const failed = await t.db.batchResult.findMany({ where: { runId, error: { not: null } }, select: { error: true, errorKind: true } });
      expect(failed.length).toBeGreaterThan(0);
      for (const f of failed) {
        expect(f.error).toMatch(/^openai: batch batch_\w+ failed: token_limit_exceeded: Enqueued token limit reached/);
        expect(f.errorKind).toBe('rate_limited');
      }
      // Nothing lost: every failed line was answered live, and the verdicts are live mode's.
      expect(await t.db.reply.count({ where: { runId, error: { not: null } } })).toBe(0);
      expect([...(await verdicts(runId)).entries()].sort()).toEqual([...(await verdicts(liveRunId)).entries()].sort());
    } finally {
      fake.setBatch(null);
    }
  });

  it('cuts a batch to the calls its budget has left, imports what it paid for, and stops budget_exceeded', { timeout: 120_000 }, async () => {
    const before = fake.billing();
    const deps = { ...(await fakeDeps(t.db, fake.url)), batchPollMs: 10 };
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', judges: JUDGES, mode: 'batch', bypassCache: true, budget: { maxCalls: 5 } }, noDispatch, TEST_DEFAULTS);
    expect(await executeRun(deps, runId)).toBe('budget_exceeded');
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.providerCalls).toBe(5);
    expect(await t.db.providerBatch.findMany({ where: { runId }, select: { lineCount: true, state: true } })).toEqual([{ lineCount: 5, state: 'imported' }]);
    expect(await t.db.reply.count({ where: { runId } })).toBe(5);
    expect(fake.billing().batchLines - before.batchLines).toBe(5);
    expect(fake.billing().liveCalls).toBe(before.liveCalls);
  });

  it('after a kill while polling, the resumed run polls the same batches and imports nothing twice', { timeout: 240_000 }, async () => {
    fake.reset();
    fake.setBatch({ delayMs: 4000 });
    const env = { DATABASE_URL: t.url, ASSAY_LLM_BASE_URL: fake.url, ASSAY_DATA_DIR: 'memory://', ASSAY_BATCH_POLL_SECONDS: '0.05' };
    const args = ['--judges', JUDGES.join(','), '--no-cache', '--quiet'];
    const first = spawnAssay(['run', join(dir, 'batch-mode.yml'), '--batch', ...args], env);
    const end = Date.now() + 120_000;
    const wait = async (what: string, ok: () => Promise<boolean> | boolean) => {
      while (!(await ok())) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${first.stderr()}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    await wait('the run to start', () => /run (\S+)/.test(first.stderr()));
    const runId = /run (\S+)/.exec(first.stderr())![1]!;
    // The generation round submitted both providers' batches, and the runner is polling them.
    await wait('the batches to be polled', async () => (await t.db.providerBatch.count({ where: { runId, polls: { gt: 0 } } })) >= 2);
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe(-1);
    const submitted = await t.db.providerBatch.findMany({ where: { runId }, select: { externalId: true, state: true } });
    expect(submitted.map((b) => b.state)).toEqual(['submitted', 'submitted']);
    expect(await t.db.reply.count({ where: { runId } })).toBe(0);

    fake.setBatch({ delayMs: 100 });
    const second = spawnAssay(['run', '--resume', runId, ...args], env);
    expect(await second.exited, second.stderr()).toBe(0);
    // the report (stdout) says what batch mode saved (--json: run.batch)
    expect(second.stdout()).toMatch(/batch mode: \d+ calls in \d+ provider batches, saved \$[\d.]+ against live prices/);

    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.status).toBe('completed');
    const batches = await t.db.providerBatch.findMany({ where: { runId }, select: { externalId: true, state: true, lineCount: true } });
    // the batches submitted before the kill were polled and imported, not submitted again
    for (const b of submitted) expect(batches.find((x) => x.externalId === b.externalId)?.state).toBe('imported');
    const created = fake.batchStats().created;
    expect(created.openai + created.anthropic).toBe(batches.length);
    // every line answered once by the fake, imported once, and its cost settled once
    expect(fake.duplicateCompletedCalls()).toBe(0);
    expect(fake.billing().liveCalls).toBe(0);
    const lines = batches.reduce((n, b) => n + b.lineCount, 0);
    expect(await t.db.batchResult.count({ where: { runId } })).toBe(lines);
    expect(fake.billing().batchLines).toBe(lines);
    const paid = await t.db.batchResult.aggregate({ where: { runId }, _sum: { costUsd: true } });
    expect(run.costUsd).toBeCloseTo(paid._sum.costUsd ?? 0, 12);
    expect(await t.db.reply.count({ where: { runId } })).toBe(run.totalCalls);
    expect([...(await verdicts(runId)).entries()].sort()).toEqual([...(await verdicts(liveRunId)).entries()].sort());
  });
});
