/**
 * GET /api/v1/runs/{runId}/compare/{otherRunId}: two runs of one blueprint compared, as the compare
 * page shows them: the stored comparison (db/queries/run-diff.ts, made once both runs are finished),
 * with each run's stored score per model and the drift check's difference where one was stored.
 * Only two public runs of the same blueprint compare; anything else answers 404, a draft run
 * exactly as an unknown id.
 */
import type { z } from 'zod';
import type { Db } from '../db/client';
import { getRunDiff } from '../db/queries/run-diff';
import { getRunHeader } from '../db/queries/run-header';
import { NotFoundError } from '../http/errors';
import { RunNotFoundError } from '../runs/engine/errors';
import type { RunComparisonAnswer } from './schemas';

export async function readRunComparison(db: Db, runId: string, otherRunId: string): Promise<z.infer<typeof RunComparisonAnswer>> {
  const [a, b] = await Promise.all([getRunHeader(db, runId), getRunHeader(db, otherRunId)]);
  if (!a || a.draft) throw new RunNotFoundError(runId);
  if (!b || b.draft) throw new RunNotFoundError(otherRunId);
  if (a.blueprint.id !== b.blueprint.id || a.id === b.id) throw new NotFoundError('Only two different runs of the same blueprint compare: GET /api/v1/blueprints/{id} lists a blueprint’s runs.');
  // the page's order: older and newer by when they were requested, whichever comes first in the path
  const [older, newer] = a.createdAt <= b.createdAt ? [a, b] : [b, a];
  const diff = await getRunDiff(db, { id: older.id, versionId: older.versionId }, { id: newer.id, versionId: newer.versionId });
  const run = (h: typeof a) => ({ id: h.id, status: h.status, created_at: h.createdAt.toISOString() });
  return {
    blueprint_id: a.blueprint.id,
    older: run(older),
    newer: run(newer),
    models: diff.models.map((m) => ({
      model_id: m.modelId,
      paired: m.paired,
      older_score: m.olderScore,
      newer_score: m.newerScore,
      difference: m.difference,
      from_drift_check: m.fromDriftCheck,
      better: m.better,
      worse: m.worse,
      same: m.same,
    })),
    moved_cells: diff.cells.map((c) => ({ prompt_key: c.promptKey, model_id: c.modelId, older_score: c.scoreA, newer_score: c.scoreB, delta: c.delta })),
    unchanged_cells: diff.unchangedCells,
    models_only_in_older: diff.modelsOnlyInA,
    models_only_in_newer: diff.modelsOnlyInB,
  };
}
