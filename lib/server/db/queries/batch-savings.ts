/**
 * What batch mode saved a run (the run page, `assay run` and its --json): the lines it
 * imported from provider batches and their discount against the live price (batch_results,
 * written by lib/server/runs/calls/batch-store.ts).
 */
import { runModeOf, type RunMode } from '@/lib/core';
import type { Db } from '../client';

export interface BatchSavings {
  mode: RunMode;
  /** Lines imported from provider batches (failed ones included). */
  lines: number;
  /** Batches submitted. */
  batches: number;
  /** What the batch lines cost against what the same calls cost live: the batch discount, USD; null when no line's price is known. */
  savedUsd: number | null;
}

/** What batch mode saved a run: the run page and `assay run` show it. */
export async function batchSavings(db: Db, runId: string, config: unknown): Promise<BatchSavings> {
  const mode = runModeOf(config);
  const [agg, batches] = await Promise.all([
    db.batchResult.aggregate({ where: { runId }, _count: { _all: true }, _sum: { discountUsd: true } }),
    db.providerBatch.count({ where: { runId } }),
  ]);
  return { mode, lines: agg._count._all, batches, savedUsd: agg._sum.discountUsd ?? (agg._count._all > 0 ? null : 0) };
}
