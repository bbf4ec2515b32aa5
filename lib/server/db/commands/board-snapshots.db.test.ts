/**
 * Boards made once and stored (board-snapshots.ts), on the demo (the pipeline against the fake
 * provider): the stored board is the board the core makes from the rows; a page reads the stored
 * one (a snapshot edited in place is what the next reader gets); a change of the rows or of the
 * ranking setting makes it again.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { leaderboard, LeaderboardSchema } from '@/lib/core';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../db.testkit';
import { getBoard, getLeaderboardRows } from '../queries/leaderboard';
import { seedDemo, type DemoProvider } from '../seed/seed-demo';
import { boardsFor } from './board-snapshots';

let t: TestDatabase;
let fake: FakeLlm;

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm();
  const provider: DemoProvider = { url: fake.url, setRules: (rules) => fake.setRules(rules) };
  await seedDemo(t.db, provider, { now: new Date('2026-11-30T12:00:00Z') });
}, 180_000);
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

const ALL = { kind: 'all' } as const;
const HEALTH = { kind: 'tag', tag: 'health' } as const;

it('stores each board as the core makes it from the rows and the prompt scores behind them', async () => {
  const rows = await getLeaderboardRows(t.db);
  const boards = await boardsFor(t.db, [ALL, HEALTH], rows, { minCoverage: 0.5 });
  const { prompts } = await getBoard(t.db);
  // the same board, up to the last bit a number can lose in the database's JSON
  const close = (a: unknown, b: unknown) => expect(JSON.parse(JSON.stringify(a), (_k, v: unknown) => (typeof v === 'number' ? Number(v.toPrecision(14)) : v))).toEqual(JSON.parse(JSON.stringify(b), (_k, v: unknown) => (typeof v === 'number' ? Number(v.toPrecision(14)) : v)));
  close(boards.get('all'), leaderboard(rows, { minCoverage: 0.5, prompts }));
  close(boards.get('tag:health'), leaderboard(rows, { tag: 'health', minCoverage: 0.5, prompts }));
  expect(boards.get('all')!.ranked.length).toBeGreaterThan(1);
  const stored = await t.db.boardSnapshot.findMany({ orderBy: { key: 'asc' } });
  expect(stored.map((s) => s.key)).toEqual(['all', 'tag:health']);
  expect(LeaderboardSchema.parse(stored[0]!.body)).toEqual(boards.get('all'));
});

it('reads the stored board while its rows are unchanged, and makes it again when they change', async () => {
  const rows = await getLeaderboardRows(t.db);
  await boardsFor(t.db, [ALL], rows, { minCoverage: 0.5 });
  // edit the stored board in place: a reader that made the board itself would not see this
  const snap = await t.db.boardSnapshot.findUniqueOrThrow({ where: { key: 'all' } });
  const body = LeaderboardSchema.parse(snap.body);
  body.ranked[0]!.score = 0.123;
  await t.db.boardSnapshot.update({ where: { key: 'all' }, data: { body } });
  expect((await boardsFor(t.db, [ALL], rows, { minCoverage: 0.5 })).get('all')!.ranked[0]!.score).toBe(0.123);
  // another ranking setting is another board
  expect((await boardsFor(t.db, [ALL], rows, { minCoverage: 1 })).get('all')!.ranked[0]?.score).not.toBe(0.123);
  // a changed row (a blueprint's result republished with another score): made again
  await t.db.boardSnapshot.update({ where: { key: 'all' }, data: { body } });
  const changed = rows.map((r, i) => (i === 0 ? { ...r, score: (r.score ?? 0.5) / 2 } : r));
  const again = (await boardsFor(t.db, [ALL], changed, { minCoverage: 0.5 })).get('all')!;
  expect(again.ranked[0]!.score).not.toBe(0.123);
  const { prompts } = await getBoard(t.db);
  expect(again.ranked.map((r) => [r.modelId, r.rank, r.bandLabel])).toEqual(leaderboard(changed, { minCoverage: 0.5, prompts }).ranked.map((r) => [r.modelId, r.rank, r.bandLabel]));
});
