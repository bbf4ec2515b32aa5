/**
 * Leaderboards made once and stored: a board's scores, intervals, ranks, bands and pair tests
 * (lib/core leaderboard()) are made from its stored rows and kept in board_snapshots, and every
 * page that shows them reads the stored board, so a figure has one value wherever it is shown.
 *
 * A snapshot carries a stamp: a hash of the rows it was made from (each row's run, score, interval,
 * coverage, cost, tags) and of the setting that ranks them (ASSAY_LEADERBOARD_MIN_COVERAGE). The
 * rows are read on every request anyway (cheap: one row per blueprint × model); when a board's
 * stamp differs from its snapshot's (a run published, a blueprint removed or retagged, the setting
 * changed), the board is made again with the prompt scores behind it and stored. Whatever changed
 * the rows, no writer has to remember to refresh the boards. Two requests making the same board at
 * once store the same board (the bootstrap is seeded).
 */
import { createHash } from 'node:crypto';
import { leaderboard, LeaderboardSchema, type Leaderboard } from '@/lib/core';
import type { Prisma } from '@/generated/prisma/client';
import type { Db } from '../client';
import { getBoard, type BoardPromptCell, type LeaderboardRow } from '../queries/leaderboard';

/** A board: the overall one, a tag's, or one blueprint's (every model scored on it). */
export type BoardKey = { kind: 'all' } | { kind: 'tag'; tag: string } | { kind: 'blueprint'; blueprintId: string };

export function boardKeyName(k: BoardKey): string {
  return k.kind === 'all' ? 'all' : k.kind === 'tag' ? `tag:${k.tag}` : `blueprint:${k.blueprintId}`;
}

/** Bumped when the stored shape or the way a board is made changes: every snapshot is made again. */
const MAKER_VERSION = 1;

/** The rows a board is made from. */
export function boardRowsOf(k: BoardKey, rows: readonly LeaderboardRow[]): LeaderboardRow[] {
  if (k.kind === 'all') return [...rows];
  if (k.kind === 'tag') return rows.filter((r) => r.tags.includes(k.tag));
  return rows.filter((r) => r.blueprintId === k.blueprintId);
}

function stampOf(k: BoardKey, rows: readonly LeaderboardRow[], minCoverage: number): string {
  const h = createHash('sha256').update(`${MAKER_VERSION}\u0000${boardKeyName(k)}\u0000${minCoverage}`);
  for (const r of boardRowsOf(k, rows)) {
    h.update(
      JSON.stringify([r.blueprintId, r.modelId, r.runId, r.score, r.ciLow, r.ciHigh, r.errorCount, r.judgedVerdicts, r.judgedScored, r.deterministicVerdicts, r.deterministicScored, r.costUsd ?? null, r.promptCount ?? null, r.latencyMsP50 ?? null, [...r.tags].sort()]),
    );
  }
  return h.digest('hex');
}

/** One board made from its rows and the prompt scores behind them, with the leaderboard pages' coverage setting. */
export function makeBoard(k: BoardKey, rows: readonly LeaderboardRow[], prompts: readonly BoardPromptCell[], minCoverage: number): Leaderboard {
  const boardRows = boardRowsOf(k, rows);
  return leaderboard(boardRows, { tag: k.kind === 'tag' ? k.tag : null, minCoverage, prompts });
}

/**
 * The boards `keys` over `rows` (getLeaderboardRows), each read from its snapshot when the snapshot
 * was made from these rows, else made now and stored.
 */
export async function boardsFor(db: Db, keys: readonly BoardKey[], rows: readonly LeaderboardRow[], opts: { minCoverage: number }): Promise<Map<string, Leaderboard>> {
  const wanted = new Map(keys.map((k) => [boardKeyName(k), { key: k, stamp: stampOf(k, rows, opts.minCoverage) }]));
  const stored = await db.boardSnapshot.findMany({ where: { key: { in: [...wanted.keys()] } } });
  const out = new Map<string, Leaderboard>();
  for (const s of stored) {
    const w = wanted.get(s.key);
    if (!w || w.stamp !== s.stamp) continue;
    const parsed = LeaderboardSchema.safeParse(s.body);
    // a body this version cannot read (it would have another stamp, unless edited by hand) is made again
    if (parsed.success) out.set(s.key, parsed.data);
  }
  const stale = [...wanted.entries()].filter(([name]) => !out.has(name));
  if (stale.length === 0) return out;
  // the prompt scores behind the rows: read once for every board made now
  const { prompts } = await getBoard(db);
  for (const [name, { key, stamp }] of stale) {
    const body = LeaderboardSchema.parse(makeBoard(key, rows, prompts, opts.minCoverage)) as unknown as Prisma.InputJsonValue;
    await db.boardSnapshot.upsert({ where: { key: name }, create: { key: name, stamp, body }, update: { stamp, body, computedAt: new Date() } });
  }
  // what was stored, as every later reader reads it: a number's last bit can change on its way
  // through the database's JSON, and the page that made the board must show what the others show
  const made = await db.boardSnapshot.findMany({ where: { key: { in: stale.map(([name]) => name) } } });
  for (const s of made) out.set(s.key, LeaderboardSchema.parse(s.body));
  return out;
}
