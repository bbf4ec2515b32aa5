/**
 * The two schedulers of a retrieval run over the same steps: the in-process runner (executeRun)
 * and the Inngest functions (one set for every kind of run: run-plan fans out one unit per
 * model × batch, each model's last batch unblocks its scoring), under the strict harness
 * (testing/inngest/harness.ts: concurrent, out-of-order delivery within Inngest's limits).
 * Both must store the same results, make each embedding call once, stop at the budget and
 * resume to the same end, resume after a kill to the same results with nothing counted twice, and
 * end a run whose one model's provider fails every call the same way.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { resolveEmbeddingClient } from '../../providers/embeddings';
import { inngestRuns } from '../../jobs/functions/inngest-runs.testkit';
import type { RunDeps } from '../engine/deps';
import { executeRun } from '../engine/execute-run';
import { requestRun } from '../request-run';
import { fakeDeps, noDispatch, runAndKillInProcess, TEST_DEFAULTS } from '../runs.testkit';
import { RETRIEVAL_SIZES, storeRetrievalBlueprint } from './retrieval.testkit';

let t: TestDatabase;
let fake: FakeLlm;
let deps: RunDeps;
let blueprintId: string;

/** The run under the Inngest functions and the strict harness (testing/inngest/harness.ts). */
const inngestRun = (runId: string) => inngestRuns({ deps: async () => deps, providerConcurrency: 2, seed: 3 }).run(runId);

const SCHEDULERS: [string, (runId: string) => Promise<string>][] = [
  ['in-process', (runId) => executeRun(deps, runId)],
  ['inngest', inngestRun],
];

/**
 * Each scheduler's kill, as the shared scheduler suite makes it: the in-process runner's lease
 * taken from it; under Inngest, the queue lost. One batch (one function run) at a time, so the kill lands between calls.
 */
const KILLS: Record<string, (runId: string, killNow: () => boolean) => Promise<void>> = {
  'in-process': (runId, killNow) => runAndKillInProcess(deps, runId, killNow, { inFlight: 1 }),
  inngest: (runId, killNow) => inngestRuns({ deps: async () => deps, providerConcurrency: 1, seed: 5, parallel: 1 }).runAndKill(runId, killNow),
};

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm();
  const base = await fakeDeps(t.db, fake.url, { sandbox: false, gradingPool: null });
  deps = { ...base, embeddings: { client: (id) => resolveEmbeddingClient(id, { keys: {}, baseUrlOverride: fake.url }), retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 50 } } };
  ({ blueprintId } = await storeRetrievalBlueprint(t.db));
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});
beforeEach(async () => {
  // every test embeds from scratch: the vector store is the cache
  await t.db.$executeRaw`DELETE FROM embeddings`;
  fake.reset();
});

const metricRows = (runId: string) => t.db.retrievalMetricResult.findMany({ where: { runId }, orderBy: [{ modelId: 'asc' }, { metric: 'asc' }], select: { modelId: true, metric: true, value: true, status: true } });
const TEXTS = RETRIEVAL_SIZES.documents + RETRIEVAL_SIZES.queries;

describe(`retrieval schedulers (${process.env.ASSAY_TEST_DB})`, () => {
  const finished: Record<string, Awaited<ReturnType<typeof metricRows>>> = {};

  for (const [name, run] of SCHEDULERS) {
    it(`${name}: completes, each text embedded once per model, every model scored`, async () => {
      const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli' }, noDispatch, TEST_DEFAULTS);
      expect(await run(runId)).toBe('completed');
      expect(fake.stats().embeddings.inputs).toBe(2 * TEXTS);
      expect(await t.db.run.findUniqueOrThrow({ where: { id: runId }, select: { doneCalls: true, doneVerdicts: true, reservedCalls: true } })).toEqual({ doneCalls: 2 * TEXTS, doneVerdicts: 2 * RETRIEVAL_SIZES.queries, reservedCalls: 0 });
      finished[name] = await metricRows(runId);
      expect(finished[name]).toHaveLength(2 * 4);
    });

    it(`${name}: stops at its call budget (budget_exceeded, nothing scored), and a resume finishes it without repeating a call`, async () => {
      const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', budget: { maxCalls: 1 } }, noDispatch, TEST_DEFAULTS);
      expect(await run(runId)).toBe('budget_exceeded');
      const stopped = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
      expect(stopped).toMatchObject({ status: 'budget_exceeded', providerCalls: 1, reservedCalls: 0 });
      expect(await t.db.retrievalMetricResult.count({ where: { runId } })).toBe(0);
      const callsBefore = fake.stats().embeddings.calls;
      await t.db.run.update({ where: { id: runId }, data: { maxCalls: null } });
      expect(await run(runId)).toBe('completed');
      // the one call made before the stop stored its vectors: the resume embeds only the rest
      expect(fake.stats().embeddings.inputs).toBe(2 * TEXTS);
      expect(fake.stats().embeddings.calls - callsBefore).toBeGreaterThan(0);
      expect(await metricRows(runId)).toEqual(finished[name]);
    });
  }

  const failed: Record<string, { status: string; metrics: Awaited<ReturnType<typeof metricRows>> }> = {};
  for (const [name, run] of SCHEDULERS) {
    it(`${name}: resumes after a kill: the run left running, then the same results as an uninterrupted run, nothing counted twice`, async () => {
      const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli' }, noDispatch, TEST_DEFAULTS);
      fake.setLatency(40); // calls long enough for the kill to land between two of them
      await KILLS[name]!(runId, () => fake.stats().embeddings.calls >= 1);
      fake.setLatency(0);
      const killed = await t.db.run.findUniqueOrThrow({ where: { id: runId }, select: { status: true, doneCalls: true } });
      expect(killed.status).toBe('running');
      expect(killed.doneCalls).toBeLessThan(2 * TEXTS);
      expect(await run(runId)).toBe('completed');
      expect(await metricRows(runId)).toEqual(finished[name]);
      // every text embedded and counted once per model, whatever the kill cut off
      expect(await t.db.run.findUniqueOrThrow({ where: { id: runId }, select: { doneCalls: true, reservedCalls: true } })).toEqual({ doneCalls: 2 * TEXTS, reservedCalls: 0 });
      expect(fake.stats().embeddings.inputs).toBeGreaterThanOrEqual(2 * TEXTS);
    });

    it(`${name}: a model whose provider fails every call: its batches are failed, the other model is scored`, async () => {
      fake.setFaults({ model: 'fake-embed-small', serverError: 1 });
      try {
        const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli' }, noDispatch, TEST_DEFAULTS);
        const status = await run(runId);
        const metrics = await metricRows(runId);
        expect(metrics.filter((m) => m.modelId === 'openai:fake-embed-large')).toEqual(finished[name]!.filter((m) => m.modelId === 'openai:fake-embed-large'));
        expect(metrics.filter((m) => m.modelId === 'openai:fake-embed-small')).toEqual([]);
        expect((await t.db.run.findUniqueOrThrow({ where: { id: runId }, select: { errorCalls: true } })).errorCalls).toBeGreaterThan(0);
        failed[name] = { status, metrics };
      } finally {
        fake.setFaults(null);
      }
    });
  }

  it('both schedulers ended the failing model’s run alike', () => {
    expect(failed['inngest']).toEqual(failed['in-process']);
    expect(failed['in-process']).toBeDefined();
  });

  it('both schedulers stored the same results', () => {
    expect(finished['inngest']).toEqual(finished['in-process']);
  });
});
