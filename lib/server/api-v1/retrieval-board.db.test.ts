/**
 * The retrieval leaderboard in the API and on the home page are one board: on the retrieval demo
 * (a real retrieval run against the fake provider's embeddings), `/api/v1/retrieval/leaderboard`
 * answers within its document, with the stored metric values and intervals, in the order and with
 * the ranks the page's view gives; a draft run of the same blueprint never counts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { retrievalBoardView } from '@/lib/views/retrieval-view';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { getRetrievalBoard } from '../db/queries/retrieval-leaderboard';
import { DEMO_RETRIEVAL_RUN, seedRetrievalDemo } from '../db/seed/seed-retrieval-demo';
import { contractOf, getV1, type V1Answer } from './api-v1.testkit';

let t: TestDatabase;
let fake: FakeLlm;
let check: (a: V1Answer) => string[];

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm();
  await seedRetrievalDemo(t.db, { url: fake.url });
  process.env.DATABASE_URL = t.url;
  check = contractOf((await getV1('/api/v1/openapi.json')).body as Parameters<typeof contractOf>[0]);
}, 120_000);
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

type Board = { models: { model_id: string; rank: number; mean: number | null; results: { run_id: string; value: number | null; interval: { low: number; high: number } | null }[] }[] };

describe(`/api/v1/retrieval/leaderboard (${process.env.ASSAY_TEST_DB})`, () => {
  it('is the home page\'s retrieval board: the stored metrics, its order and its ranks', async () => {
    const a = await getV1('/api/v1/retrieval/leaderboard');
    expect(a.status).toBe(200);
    expect(check(a)).toEqual([]);
    const board = a.body as Board;
    expect(board.models.length).toBeGreaterThan(1);
    const page = retrievalBoardView(await getRetrievalBoard(t.db), null);
    expect(board.models.map((m) => [m.model_id, m.rank])).toEqual(page.entries.map((e) => [e.modelId, e.rank]));
    const stored = await t.db.retrievalMetricResult.findMany({ where: { runId: DEMO_RETRIEVAL_RUN, primary: true }, select: { modelId: true, value: true, ciLow: true, ciHigh: true } });
    for (const m of board.models) {
      const s = stored.find((x) => x.modelId === m.model_id)!;
      expect(m.results).toEqual([expect.objectContaining({ run_id: DEMO_RETRIEVAL_RUN, value: s.value, interval: s.ciLow === null ? null : expect.objectContaining({ low: s.ciLow, high: s.ciHigh }) })]);
    }
    const tagged = await getV1('/api/v1/retrieval/leaderboard?tag=no-such-tag');
    expect(check(tagged)).toEqual([]);
    expect((tagged.body as Board).models).toEqual([]);
  });

  it('leaves a draft run out, on the page and in the API alike', async () => {
    await t.db.run.update({ where: { id: DEMO_RETRIEVAL_RUN }, data: { draft: true } });
    try {
      expect(await getRetrievalBoard(t.db)).toEqual([]);
      await t.db.rateLimit.deleteMany({});
      expect(((await getV1('/api/v1/retrieval/leaderboard')).body as Board).models).toEqual([]);
    } finally {
      await t.db.run.update({ where: { id: DEMO_RETRIEVAL_RUN }, data: { draft: false } });
    }
  });
});
