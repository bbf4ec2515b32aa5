/**
 * `GET /api/v1/retrieval/leaderboard`: the home page's retrieval board (db/queries/
 * retrieval-leaderboard.ts: each retrieval blueprint's primary metric from its latest completed
 * run, with the stored interval and status), in the order core's rankRetrievalModels gives the
 * page too, so the two boards are one.
 */
import type { z } from 'zod';
import { rankRetrievalModels } from '@/lib/core';
import type { Db } from '../db/client';
import { getRetrievalBoard } from '../db/queries/retrieval-leaderboard';
import type { RetrievalBoardAnswer } from './schemas';

export async function readRetrievalBoard(db: Db, tag: string | null): Promise<z.infer<typeof RetrievalBoardAnswer>> {
  const ranked = rankRetrievalModels(await getRetrievalBoard(db), tag);
  return {
    tag,
    models: ranked.map((m) => ({
      model_id: m.modelId,
      rank: m.rank,
      mean: m.mean,
      results: [...m.rows]
        .sort((a, b) => a.blueprintTitle.localeCompare(b.blueprintTitle) || a.blueprintId.localeCompare(b.blueprintId))
        .map((r) => ({
          blueprint_id: r.blueprintId,
          blueprint_title: r.blueprintTitle,
          run_id: r.runId,
          metric: r.metric,
          value: r.value,
          interval: r.interval,
          model_status: r.modelStatus,
          finished_at: r.finishedAt?.toISOString() ?? null,
        })),
    })),
  };
}
