/**
 * A retrieval run, as the shared scheduler suite (../scheduler-suite.testkit.ts) tests it: the small
 * everyday-science suite (retrieval.testkit.ts) embedded by two models, one batch of documents and
 * one of queries each, every model's batches then its scoring. The vector store is the cache, so
 * each test empties it and embeds afresh.
 */
import { expect } from 'vitest';
import { resolveEmbeddingClient } from '../../providers/embeddings';
import { fakeDeps } from '../runs.testkit';
import type { SuiteContext, SuiteKind } from '../scheduler-kind.testkit';
import { RETRIEVAL_MODELS, RETRIEVAL_SIZES, storeRetrievalBlueprint } from './retrieval.testkit';

const TEXTS = RETRIEVAL_SIZES.documents + RETRIEVAL_SIZES.queries;
const MODELS = RETRIEVAL_MODELS.length;
const METRICS = 4; // ndcg@10, recall@5, mrr, map
const FAILING = 'openai:fake-embed-small';

/** The metrics a reader sees, per model. */
const results = (c: SuiteContext, runId: string) =>
  c.t.db.retrievalMetricResult.findMany({ where: { runId }, orderBy: [{ modelId: 'asc' }, { metric: 'asc' }], select: { modelId: true, metric: true, value: true, status: true } });

export const retrievalSuiteKind: SuiteKind = {
  name: 'retrieval',
  async setUp(t, fakeUrl) {
    const base = await fakeDeps(t.db, fakeUrl, { sandbox: false, gradingPool: null });
    const deps = { ...base, embeddings: { client: (id: string) => resolveEmbeddingClient(id, { keys: {}, baseUrlOverride: fakeUrl }), retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 50 } } };
    const { blueprintId } = await storeRetrievalBlueprint(t.db);
    return { deps, blueprintId };
  },
  reset: async (t) => void (await t.db.$executeRaw`DELETE FROM embeddings`),
  // every text embedded once per model; every query of every model scored
  complete: { doneCalls: MODELS * TEXTS, doneVerdicts: MODELS * RETRIEVAL_SIZES.queries },
  work: (fake) => fake.stats().embeddings.inputs,
  workOfRun: MODELS * TEXTS,
  // the largest batch: every document in one request
  workPerCall: RETRIEVAL_SIZES.documents,
  async expectComplete(c, runId) {
    expect(c.fake.stats().embeddings.calls).toBe(MODELS * 2);
    const rows = await results(c, runId);
    expect(rows).toHaveLength(MODELS * METRICS);
    expect(rows.every((r) => r.value !== null)).toBe(true);
  },
  results,
  async expectNothingSummarised(c, runId) {
    expect(await c.t.db.retrievalMetricResult.count({ where: { runId } })).toBe(0);
  },
  killWhen: (fake) => fake.stats().embeddings.calls >= 1,
  // one batch at a time, so the kill lands between two calls
  oneAtATime: true,
  budgetCalls: 1,
  failOneModel: (fake) => fake.setFaults({ model: 'fake-embed-small', serverError: 1 }),
  async expectOneModelFailed(c, runId, status, complete) {
    const rows = await results(c, runId);
    expect(rows.filter((m) => m.modelId === FAILING)).toEqual([]);
    expect(rows.filter((m) => m.modelId !== FAILING)).toEqual((complete as typeof rows).filter((m) => m.modelId !== FAILING));
    // its batches are journalled as failed; a resume gives them another chance
    const failed = await c.t.db.retrievalBatch.findMany({ where: { runId, modelId: FAILING }, select: { error: true } });
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((b) => b.error !== null)).toBe(true);
    expect(status).toBe('completed');
  },
};
