/**
 * The board query (`getBoard`) on the demo (the pipeline against the fake provider), on
 * PostgreSQL and PGlite: the rows are the leaderboard's, each row's prompt scores are its run's
 * cells weighted as its blueprint version weighs them (so their weighted mean is the row's
 * score), its run's cost and latency come along, and a sealed prompt's key never leaves the
 * database (a hash stable across models stands in for it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../db.testkit';
import { seedDemo, type DemoProvider, type SeededDemo } from '../seed/seed-demo';
import { getBoard, getLeaderboardRows } from './leaderboard';

let t: TestDatabase;
let demo: SeededDemo;
let fake: FakeLlm;

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm();
  const provider: DemoProvider = { url: fake.url, setRules: (rules) => fake.setRules(rules) };
  demo = await seedDemo(t.db, provider, { now: new Date('2026-11-30T12:00:00Z') });
}, 180_000);
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

describe(`getBoard (${process.env.ASSAY_TEST_DB ?? 'postgres'})`, () => {
  it('returns the leaderboard rows with each row’s prompt scores, whose weighted mean is the row’s score', async () => {
    const board = await getBoard(t.db);
    expect(board.rows).toEqual(await getLeaderboardRows(t.db));
    for (const row of board.rows) {
      const mine = board.prompts.filter((p) => p.blueprintId === row.blueprintId && p.modelId === row.modelId);
      expect(mine.every((p) => p.runId === row.runId)).toBe(true);
      const cells = await t.db.runCellSummary.count({ where: { runId: row.runId, modelId: row.modelId } });
      expect(mine).toHaveLength(cells);
      const scored = mine.filter((p) => p.score !== null);
      if (row.score === null || scored.length === 0) continue;
      const mean = scored.reduce((s, p) => s + p.weight * (p.score as number), 0) / scored.reduce((s, p) => s + p.weight, 0);
      expect(mean).toBeCloseTo(row.score, 9);
    }
  });

  it('joins each row’s run cost, prompt count and median latency', async () => {
    const { rows } = await getBoard(t.db);
    for (const row of rows) {
      const s = await t.db.runModelSummary.findUniqueOrThrow({ where: { runId_modelId: { runId: row.runId, modelId: row.modelId } } });
      expect(row).toMatchObject({ costUsd: s.costUsd, promptCount: s.promptCount, latencyMsP50: s.latencyMsP50 });
    }
    expect(rows.some((r) => (r.latencyMsP50 ?? 0) > 0)).toBe(true);
  });

  it('hashes sealed prompt keys, the same for every model, and flags them', async () => {
    const { prompts } = await getBoard(t.db);
    const sealed = prompts.filter((p) => p.sealed);
    expect(sealed.length).toBeGreaterThan(0);
    expect(prompts.some((p) => /sealed-holdout/.test(p.promptKey))).toBe(false);
    for (const p of sealed) expect(p.promptKey).toMatch(/^sealed-[0-9a-f]{32}$/);
    expect(new Set(sealed.filter((p) => p.blueprintId === demo.everyday.blueprintId).map((p) => p.promptKey)).size).toBe(demo.everyday.sealedKeys.length);
  });

  it('narrows to two models and one blueprint', async () => {
    const [a, b] = demo.everyday.models as [string, string];
    const board = await getBoard(t.db, { modelIds: [a, b], blueprintId: demo.everyday.blueprintId });
    expect(board.rows.map((r) => r.modelId).sort()).toEqual([a, b].sort());
    expect(new Set(board.prompts.map((p) => p.blueprintId))).toEqual(new Set([demo.everyday.blueprintId]));
    expect((await getBoard(t.db, { modelIds: [] })).rows).toEqual([]);
  });
});
