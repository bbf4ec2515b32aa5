/**
 * A run's verdict counters live in two places: `runs.done_verdicts`/`error_verdicts` (what is
 * folded) and `run_verdict_counts` (one row per committed batch, appended by the grading writer
 * instead of updating the run's row: see the migration 20261203080000 for why). This module is
 * the only one that reads or folds the second, so every reader sees one number.
 *
 * Readers take both in ONE statement: a fold (DELETE … RETURNING into the run's UPDATE) moves
 * counts from one place to the other atomically, and two statements could straddle it and count
 * a batch twice or not at all.
 */
import type { Db } from './client';

export interface VerdictCounts {
  doneVerdicts: number;
  errorVerdicts: number;
}

/**
 * Statuses that are final: `finish` folds a run's counts before it sets one of these, so such a
 * run has nothing pending and its row is already the truth (no extra query on the list pages).
 */
const FOLDED = new Set(['completed', 'failed', 'cancelled', 'budget_exceeded']);

/** Each run's counters with what is not folded yet, read in one statement. */
export async function liveVerdictCounts(db: Db, runIds: readonly string[]): Promise<Map<string, VerdictCounts>> {
  if (runIds.length === 0) return new Map();
  const rows = await db.$queryRaw<{ id: string; done: number; errors: number }[]>`
    SELECT r.id, (r.done_verdicts + coalesce(p.done, 0))::int AS done, (r.error_verdicts + coalesce(p.errors, 0))::int AS errors
    FROM runs r
    LEFT JOIN (SELECT run_id, sum(done) AS done, sum(errors) AS errors FROM run_verdict_counts WHERE run_id = ANY(${[...runIds]}::text[]) GROUP BY run_id) p ON p.run_id = r.id
    WHERE r.id = ANY(${[...runIds]}::text[])`;
  return new Map(rows.map((r) => [r.id, { doneVerdicts: r.done, errorVerdicts: r.errors }]));
}

/**
 * Rows read from `runs` with their verdict counters made live. A row whose status is final
 * keeps what it read; the others are read again with their pending counts.
 */
export async function withLiveVerdictCounts<T extends { id: string; status?: string; errorVerdicts: number; doneVerdicts?: number }>(db: Db, rows: T[]): Promise<T[]> {
  const open = rows.filter((r) => r.status === undefined || !FOLDED.has(r.status)).map((r) => r.id);
  if (open.length === 0) return rows;
  const live = await liveVerdictCounts(db, open);
  return rows.map((r) => {
    const counts = live.get(r.id);
    if (!counts) return r;
    return 'doneVerdicts' in r ? { ...r, ...counts } : { ...r, errorVerdicts: counts.errorVerdicts };
  });
}

/** One row's counters made live (withLiveVerdictCounts of one). */
export async function withLiveVerdictCount<T extends { id: string; status?: string; errorVerdicts: number; doneVerdicts?: number }>(db: Db, row: T): Promise<T> {
  return (await withLiveVerdictCounts(db, [row]))[0]!;
}

/**
 * Moves a run's pending counts into its row, atomically: the rows taken are exactly the rows
 * added. Runs one at a time (a fold locks one run's row), so two folds never deadlock.
 */
export async function foldVerdictCounts(db: Db, runId: string): Promise<void> {
  await db.$executeRaw`
    WITH d AS (DELETE FROM run_verdict_counts WHERE run_id = ${runId} RETURNING done, errors),
         s AS (SELECT coalesce(sum(done), 0)::int AS n, coalesce(sum(errors), 0)::int AS e, count(*) AS c FROM d)
    UPDATE runs SET done_verdicts = done_verdicts + s.n, error_verdicts = error_verdicts + s.e
    FROM s WHERE runs.id = ${runId} AND s.c > 0`;
}
