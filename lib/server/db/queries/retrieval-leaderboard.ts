/**
 * The retrieval leaderboard's rows: for every retrieval blueprint still in its source and every
 * embedding model, the primary metric of the latest completed run that scored the model (pull
 * request runs grade unmerged content and never count, nor do draft try-it runs), with its interval, and the model's status
 * on that run as stored when it was scored (the run page's figure, not the primary metric's own).
 * Apart from the chat leaderboard: embedding models are ranked on retrieval metrics only.
 */
import { LadderSchema, type LadderStatus } from '@/lib/core';
import type { Db } from '../client';
import { storedInterval } from '../stored-interval';
import type { Interval } from '@/lib/core';

export interface RetrievalBoardRow {
  blueprintId: string;
  blueprintTitle: string;
  tags: string[];
  modelId: string;
  runId: string;
  metric: string;
  value: number | null;
  interval: Interval | null;
  /** The model's status on the run over every thresholded metric (retrieval_metric_results.model_status). */
  modelStatus: LadderStatus | null;
  finishedAt: Date | null;
}

export async function getRetrievalBoard(db: Db): Promise<RetrievalBoardRow[]> {
  const rows = await db.$queryRaw<
    { blueprintId: string; blueprintTitle: string; tags: string[]; modelId: string; runId: string; metric: string; value: number | null; ciLow: number | null; ciHigh: number | null; ciMethod: string | null; ciLevel: number | null; ciN: number | null; ciClusters: number | null; ciResamples: number | null; modelStatus: string | null; finishedAt: Date | null }[]
  >`
    SELECT DISTINCT ON (r.blueprint_id, m.model_id)
           r.blueprint_id AS "blueprintId", b.title AS "blueprintTitle", b.tags, m.model_id AS "modelId", r.id AS "runId",
           m.metric, m.value, m.ci_low AS "ciLow", m.ci_high AS "ciHigh", m.ci_method AS "ciMethod", m.ci_level AS "ciLevel",
           m.ci_n AS "ciN", m.ci_clusters AS "ciClusters", m.ci_resamples AS "ciResamples", m.model_status AS "modelStatus", r.finished_at AS "finishedAt"
    FROM retrieval_metric_results m
    JOIN runs r ON r.id = m.run_id
    JOIN blueprints b ON b.id = r.blueprint_id
    WHERE m."primary" AND r.kind = 'retrieval' AND r.status = 'completed' AND r.trigger <> 'pull_request' AND NOT r.draft AND b.removed_at IS NULL
    ORDER BY r.blueprint_id, m.model_id, r.finished_at DESC NULLS LAST, r.created_at DESC`;
  return rows.map((r) => ({
    blueprintId: r.blueprintId,
    blueprintTitle: r.blueprintTitle,
    tags: r.tags,
    modelId: r.modelId,
    runId: r.runId,
    metric: r.metric,
    value: r.value,
    interval: storedInterval(r),
    modelStatus: r.modelStatus === null ? null : LadderSchema.parse(r.modelStatus),
    finishedAt: r.finishedAt,
  }));
}
