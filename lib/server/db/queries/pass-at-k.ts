/** A run's pass@k / pass^k per model (run_model_summaries.pass_curve), read through its schema. */
import type { ModelPassCurve } from '@/lib/core';
import { storedModelPassCurve } from '../stored-interval';
import type { Db } from '../client';

export interface RunPassCurveRow {
  modelId: string;
  displayName: string | null;
  passThreshold: number | null;
  passCurve: ModelPassCurve | null;
}

export async function getRunPassCurves(db: Db, runId: string): Promise<RunPassCurveRow[]> {
  const rows = await db.runModelSummary.findMany({
    where: { runId, passCurve: { not: { equals: null } } },
    orderBy: [{ score: { sort: 'desc', nulls: 'last' } }, { modelId: 'asc' }],
    select: { modelId: true, passThreshold: true, passCurve: true },
    take: 500,
  });
  const names = new Map((await db.model.findMany({ where: { id: { in: rows.map((r) => r.modelId) } }, select: { id: true, displayName: true } })).map((n) => [n.id, n.displayName]));
  return rows.map((r) => ({ modelId: r.modelId, displayName: names.get(r.modelId) ?? null, passThreshold: r.passThreshold, passCurve: storedModelPassCurve(r.passCurve) }));
}
