/**
 * The two schedulers of a retrieval run over the same steps: the in-process runner (executeRun)
 * and the Inngest functions (run-start hands the run to retrieval-start, which fans out per
 * model × batch), each execution run by @inngest/test's engine with its real steps and the events
 * it sends delivered here in order, each event id once, as Inngest does. Both must store the same
 * results, make each embedding call once, stop at the budget and resume to the same end.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InngestTestEngine } from '@inngest/test';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { resolveEmbeddingClient } from '../../providers/embeddings';
import { runExecutionEvent, runFunctions } from '../../jobs/functions/run-functions';
import { retrievalFunctions } from '../../jobs/functions/retrieval-functions';
import type { RunDeps } from '../deps';
import { executeRun } from '../execute-run';
import { requestRun } from '../request-run';
import { fakeDeps, noDispatch, TEST_DEFAULTS } from '../runs.testkit';
import { RETRIEVAL_SIZES, storeRetrievalBlueprint } from './retrieval.testkit';

let t: TestDatabase;
let fake: FakeLlm;
let deps: RunDeps;
let blueprintId: string;

interface Queued {
  name: string;
  data: Record<string, unknown>;
  id?: string;
}

const SENT = ['retrieval', 'fan-out', 'nothing-to-do', 'budget-stop', 'model-embedded', 'all-done', 'finish-after-failure'];
const seen = new Set<string>();

function functionFor(name: string) {
  const [start] = runFunctions(async () => deps, { providerConcurrency: 2 });
  const [rStart, batch, score, finish] = retrievalFunctions(async () => deps, { providerConcurrency: 2 });
  const fn = { 'assay/run.requested': start, 'assay/retrieval.requested': rStart, 'assay/retrieval.batch.requested': batch, 'assay/retrieval.score.requested': score, 'assay/retrieval.finish.requested': finish }[name];
  if (!fn) throw new Error(`no function is triggered by ${name}`);
  return fn;
}

/** Delivers the run's first event and every event it leads to; the finish's status. */
async function inngestRun(runId: string): Promise<string> {
  const first = runExecutionEvent(runId, randomUUID());
  const queue: Queued[] = [{ name: first.name, data: first.data as Record<string, unknown>, id: first.id }];
  let status: string | null = null;
  while (queue.length) {
    const e = queue.shift()!;
    if (e.id && seen.has(e.id)) continue;
    if (e.id) seen.add(e.id);
    const engine = new InngestTestEngine({ function: functionFor(e.name), steps: SENT.map((id) => ({ id, handler: () => ({ ids: [] }) })) });
    const out = await engine.execute({ events: [{ name: e.name, data: e.data }] });
    if (out.error) throw out.error;
    if (e.name === 'assay/retrieval.finish.requested') status = (out.result as { status: string }).status;
    const calls = ((out.ctx as { step: { sendEvent: { mock: { calls: [string, Queued | Queued[]][] } } } }).step.sendEvent.mock.calls);
    queue.push(...calls.flatMap(([, ev]) => (Array.isArray(ev) ? ev : [ev])));
  }
  if (status === null) throw new Error('the run never asked for its finish');
  return status;
}

const SCHEDULERS: [string, (runId: string) => Promise<string>][] = [
  ['in-process', (runId) => executeRun(deps, runId)],
  ['inngest', inngestRun],
];

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

  it('both schedulers stored the same results', () => {
    expect(finished['inngest']).toEqual(finished['in-process']);
  });
});
