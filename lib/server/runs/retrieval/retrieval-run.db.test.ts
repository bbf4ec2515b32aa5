/**
 * A retrieval run end to end through the real steps, the in-process runner, the vector store
 * and the fake provider's embeddings (the only double, at the network boundary), on whichever
 * engine the project chose: the PostgreSQL server (exact search, no pgvector) or PGlite
 * (pgvector). The stored rankings are compared with one file both projects share, so the two
 * engines are held to the same rankings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LadderSchema, retrievalModelStatus, StoredRankingSchema } from '@/lib/core';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { hasPgvector } from '../../db/vectors';
import { resolveEmbeddingClient } from '../../providers/embeddings';
import type { RunDeps } from '../engine/deps';
import { executeRun } from '../engine/execute-run';
import { requestRun } from '../request-run';
import { fakeDeps, noDispatch, TEST_DEFAULTS } from '../runs.testkit';
import { getRetrievalBoard } from '../../db/queries/retrieval-leaderboard';
import { getRetrievalRunResults } from '../../db/queries/retrieval-results';
import { getRetrievalQuery } from '../../db/queries/retrieval-query';
import { RETRIEVAL_BLUEPRINT, RETRIEVAL_MODELS, RETRIEVAL_SIZES, retrievalFiles, storeRetrievalBlueprint } from './retrieval.testkit';

let t: TestDatabase;
let fake: FakeLlm;
let deps: RunDeps;

export function retrievalDeps(base: RunDeps, fakeUrl: string): RunDeps {
  return { ...base, embeddings: { client: (id) => resolveEmbeddingClient(id, { keys: {}, baseUrlOverride: fakeUrl }), retry: { maxAttempts: 4, baseDelayMs: 5, maxDelayMs: 50 } } };
}

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({ keepRequests: 100 });
  deps = retrievalDeps(await fakeDeps(t.db, fake.url, { sandbox: false, gradingPool: null }), fake.url);
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

const engine = process.env.ASSAY_TEST_DB;

describe(`retrieval run (${engine})`, () => {
  let runId: string;
  let blueprintId: string;

  it('runs the blueprint: every text embedded once per model, every query ranked and scored, the run completed', async () => {
    ({ blueprintId } = await storeRetrievalBlueprint(t.db));
    ({ runId } = await requestRun(t.db, { blueprintId, trigger: 'cli' }, noDispatch, TEST_DEFAULTS));
    expect(await executeRun(deps, runId)).toBe('completed');
    const texts = RETRIEVAL_SIZES.documents + RETRIEVAL_SIZES.queries;
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run).toMatchObject({ kind: 'retrieval', status: 'completed', error: null, totalCalls: 2 * texts, doneCalls: 2 * texts, errorCalls: 0, doneVerdicts: 2 * RETRIEVAL_SIZES.queries, reservedCalls: 0 });
    expect(run.costUsd).toBeGreaterThan(0);
    expect(fake.stats().embeddings.byModel['fake-embed-large']?.inputs).toBe(texts);
    expect(fake.stats().embeddings.byModel['fake-embed-small']?.inputs).toBe(texts);
    expect(run.providerCalls).toBe(fake.stats().embeddings.calls);
  });

  it('stores per model every metric with a bootstrap interval over queries around it and the ladder, the better model first on the primary metric', async () => {
    const r = (await getRetrievalRunResults(t.db, runId))!;
    expect(r.models.map((m) => m.modelId).sort()).toEqual([...RETRIEVAL_MODELS].sort());
    for (const m of r.models) {
      expect(m.metrics.map((x) => x.metric)).toEqual(['ndcg@10', 'recall@5', 'mrr', 'map']);
      for (const x of m.metrics) {
        expect(x.queryCount).toBe(RETRIEVAL_SIZES.queries);
        expect(x.interval).toMatchObject({ method: 'bca-bootstrap', clusters: RETRIEVAL_SIZES.queries, resamples: 1000 });
        expect(x.interval!.low).toBeLessThanOrEqual(x.value!);
        expect(x.interval!.high).toBeGreaterThanOrEqual(x.value!);
      }
      const ndcg = m.metrics[0]!;
      expect(ndcg.primary).toBe(true);
      expect(ndcg.status).toBe(ndcg.value! < 0.5 ? 'fail' : ndcg.value! < 0.6 ? 'warn' : 'pass');
      expect(m.metrics[2]!.status).toBeNull(); // mrr has no minimum
      expect(m.costUsd).toBeGreaterThan(0);
    }
    const ndcgOf = (id: string) => r.models.find((m) => m.modelId === id)!.metrics[0]!.value!;
    expect(ndcgOf('openai:fake-embed-large')).toBeGreaterThan(ndcgOf('openai:fake-embed-small'));
  });

  it('stores each model’s status on the run once, with every metric row, and the run page and the home board read that one', async () => {
    const rows = await t.db.retrievalMetricResult.findMany({ where: { runId }, select: { modelId: true, metric: true, status: true, modelStatus: true } });
    const r = (await getRetrievalRunResults(t.db, runId))!;
    const board = await getRetrievalBoard(t.db);
    for (const m of r.models) {
      const mine = rows.filter((x) => x.modelId === m.modelId);
      // the worst over ndcg@10 and recall@5 (both have a minimum), not the primary metric's alone
      const worst = retrievalModelStatus(mine.map((x) => ({ status: LadderSchema.nullable().parse(x.status) })));
      expect(worst).not.toBeNull();
      expect(new Set(mine.map((x) => x.modelStatus))).toEqual(new Set([worst]));
      expect(m.ladder).toBe(worst);
      expect(board.find((b) => b.runId === runId && b.modelId === m.modelId)?.modelStatus).toBe(worst);
    }
  });

  it('stores each query’s ranking, the mean of its per-query metrics being the stored metric', async () => {
    const rows = await t.db.retrievalQueryResult.findMany({ where: { runId }, orderBy: [{ modelId: 'asc' }, { queryId: 'asc' }] });
    expect(rows).toHaveLength(2 * RETRIEVAL_SIZES.queries);
    const r = (await getRetrievalRunResults(t.db, runId))!;
    for (const m of r.models) {
      const mine = rows.filter((q) => q.modelId === m.modelId);
      const mean = mine.reduce((s, q) => s + (q.metrics as Record<string, number>)['ndcg@10']!, 0) / mine.length;
      expect(mean).toBeCloseTo(m.metrics[0]!.value!, 12);
      // the top 10 is stored (the largest k, at least 10); map reads the whole small corpus, and a
      // relevant document below the top keeps its rank
      for (const q of mine) {
        expect(StoredRankingSchema.parse(q.ranking)).toHaveLength(10);
        for (const rank of Object.values(q.relevantRanks as Record<string, number>)) expect(rank).toBeGreaterThan(10);
      }
    }
  });

  it('gives the same rankings on the PostgreSQL server (exact) and on PGlite (pgvector): one file both projects check', async () => {
    expect(await hasPgvector(t.db)).toBe(engine === 'pglite');
    const rows = await t.db.retrievalQueryResult.findMany({ where: { runId }, orderBy: [{ modelId: 'asc' }, { queryId: 'asc' }], select: { modelId: true, queryId: true, ranking: true, relevantRanks: true, metrics: true } });
    // scores to 6 decimals: float4 vectors, cosine in float8 on both paths (vectors.ts)
    const rankings = rows.map((q) => ({ model: q.modelId, query: q.queryId, ranking: StoredRankingSchema.parse(q.ranking).map((d) => `${d.docId} ${d.score.toFixed(6)}`), below: q.relevantRanks, metrics: q.metrics }));
    await expect(`${JSON.stringify(rankings, null, 1)}\n`).toMatchFileSnapshot('./__snapshots__/retrieval-rankings.json');
  });

  it('a second run of the same files finds every vector stored: no call is made, the same results', async () => {
    const before = fake.stats().embeddings.calls;
    const { runId: again, identityHash } = await requestRun(t.db, { blueprintId, trigger: 'cli' }, noDispatch, TEST_DEFAULTS);
    expect(identityHash).toBe((await t.db.run.findUniqueOrThrow({ where: { id: runId } })).identityHash);
    expect(await executeRun(deps, again)).toBe('completed');
    expect(fake.stats().embeddings.calls).toBe(before);
    const a = await t.db.retrievalMetricResult.findMany({ where: { runId }, orderBy: [{ modelId: 'asc' }, { metric: 'asc' }], select: { modelId: true, metric: true, value: true, ciLow: true, ciHigh: true } });
    const b = await t.db.retrievalMetricResult.findMany({ where: { runId: again }, orderBy: [{ modelId: 'asc' }, { metric: 'asc' }], select: { modelId: true, metric: true, value: true, ciLow: true, ciHigh: true } });
    expect(b).toEqual(a);
  });

  it('a changed qrels file is a new identity', async () => {
    const files = retrievalFiles();
    const qrels = files['retrieval/data/qrels.jsonl']!.replace('"doc_id":"d02","relevance":1', '"doc_id":"d02","relevance":2');
    expect(qrels).not.toBe(files['retrieval/data/qrels.jsonl']);
    const before = (await t.db.run.findUniqueOrThrow({ where: { id: runId } })).identityHash;
    await storeRetrievalBlueprint(t.db, { ...files, 'retrieval/data/qrels.jsonl': qrels });
    const { identityHash } = await requestRun(t.db, { blueprintId, trigger: 'cli' }, noDispatch, TEST_DEFAULTS);
    expect(identityHash).not.toBe(before);
  });

  it('the drill-down: the query, each model’s top documents with relevance, the relevant ones missed, each metric', async () => {
    const q = (await getRetrievalQuery(t.db, runId, 'q1'))!;
    expect(q).toMatchObject({ queryId: 'q1', queryText: 'how do plants use sunlight photosynthesis', shown: 10, queryIds: ['q1', 'q2', 'q3', 'q4', 'q5', 'q6', 'q7'] });
    const large = q.models.find((m) => m.modelId === 'openai:fake-embed-large')!;
    expect(large.ranking).toHaveLength(10);
    expect(large.ranking.filter((d) => d.relevance !== null && d.relevance >= 1).map((d) => d.docId).sort()).toEqual(['d01', 'd02']);
    expect(large.missed).toEqual([]);
    expect(Object.keys(large.metrics).sort()).toEqual(['map', 'mrr', 'ndcg@10', 'recall@5']);
    expect(await getRetrievalQuery(t.db, runId, 'no-such-query')).toBeNull();
  });

  it('a sealed retrieval blueprint (split: test) is run and scored, but lists no query and its query pages are not found', async () => {
    const sealedText = RETRIEVAL_BLUEPRINT.replace('title: Retrieval suite', 'title: Sealed retrieval suite\nsplit: test');
    const { blueprintId: sealed } = await storeRetrievalBlueprint(t.db, retrievalFiles(), sealedText, 'retrieval/sealed.yml');
    const { runId: sealedRun } = await requestRun(t.db, { blueprintId: sealed, trigger: 'cli' }, noDispatch, TEST_DEFAULTS);
    expect(await executeRun(deps, sealedRun)).toBe('completed');
    const r = (await getRetrievalRunResults(t.db, sealedRun))!;
    expect(r).toMatchObject({ sealed: true, queries: [], queryCount: RETRIEVAL_SIZES.queries });
    expect(r.models.every((m) => m.metrics.length === 4)).toBe(true);
    expect(await getRetrievalQuery(t.db, sealedRun, 'q1')).toBeNull();
  });
});
