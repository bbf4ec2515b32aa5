/**
 * The run's criteria, a page of prompts at a time: for each point of each visible prompt,
 * how the models did on it (mean, range, errors, judge disagreements). Bounded by the
 * page's prompts, never the whole run.
 */
import { parseStored, pointLabel, StoredPointsSchema } from '@/lib/core';
import type { Db } from '../client';
import { getRunPromptPage } from './run-heatmap';

export interface RunPointRow {
  promptKey: string;
  pointIndex: number;
  /** The criterion as readable text (from the stored point; the verdict's own text when the point is gone). */
  pointText: string;
  mustNot: boolean;
  kind: string;
  mean: number | null;
  min: number | null;
  max: number | null;
  verdicts: number;
  errors: number;
  notApplicable: number;
  disagreements: number;
}

export async function getRunPointsPage(
  db: Db,
  run: { id: string; versionId: string },
  opts: { page: number; pageSize: number },
): Promise<{ prompts: { promptKey: string; position: number }[]; points: RunPointRow[]; total: number }> {
  const { prompts, total } = await getRunPromptPage(db, run, { ...opts, sort: 'position' });
  const keys = prompts.map((p) => p.promptKey);
  const [rows, stored] =
    keys.length === 0
      ? [[], []]
      : await Promise.all([
          db.$queryRaw<Omit<RunPointRow, 'mustNot'>[]>`
          SELECT v.prompt_key AS "promptKey", v.point_index AS "pointIndex", min(v.point_text) AS "pointText", min(v.kind) AS kind,
                 avg(v.score)::float8 AS mean, min(v.score)::float8 AS min, max(v.score)::float8 AS max, count(*)::int AS verdicts,
                 (count(*) FILTER (WHERE v.status = 'error'))::int AS errors,
                 (count(*) FILTER (WHERE v.status = 'not_applicable'))::int AS "notApplicable",
                 (count(*) FILTER (WHERE v.disagreement))::int AS disagreements
          FROM verdicts v
          WHERE v.run_id = ${run.id} AND v.prompt_key = ANY(${keys})
          GROUP BY v.prompt_key, v.point_index`,
          db.versionPrompt.findMany({ where: { versionId: run.versionId, promptKey: { in: keys } }, select: { promptKey: true, points: true } }),
        ]);
  const byKey = new Map(stored.map((p) => [p.promptKey, parseStored(StoredPointsSchema, p.points, `version_prompts (${run.versionId}, ${p.promptKey}).points`)]));
  const points = rows.map((r) => {
    const point = byKey.get(r.promptKey)?.[r.pointIndex];
    return { ...r, pointText: point ? pointLabel(point) : r.pointText, mustNot: point?.source === 'should_not' };
  });
  return { prompts: prompts.map((p) => ({ promptKey: p.promptKey, position: p.position })), points, total };
}
