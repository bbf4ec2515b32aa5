/**
 * The drift page's query: stored drift checks (lib/server/runs/drift-check.ts), newest first,
 * filtered by blueprint and model, flagged ones only unless asked for all; and the blueprints
 * and models that have checks, for the filters. The `moved` column is read through the schema
 * its writer used.
 */
import { DriftMovedListSchema, parseStored, type DriftMoved } from '@/lib/core';
import type { Db } from '../client';

export interface DriftCheckRow {
  id: string;
  blueprintId: string;
  blueprintTitle: string;
  modelId: string;
  fromRunId: string;
  fromRunAt: Date;
  toRunId: string;
  toRunAt: Date;
  paired: number;
  difference: number | null;
  ciLow: number | null;
  ciHigh: number | null;
  mde: number | null;
  flagged: boolean;
  reason: string;
  servedModelBefore: string | null;
  servedModelAfter: string | null;
  fingerprintBefore: string | null;
  fingerprintAfter: string | null;
  servedChanged: boolean;
  moved: DriftMoved[];
  createdAt: Date;
}

export interface DriftFilters {
  blueprintId?: string | undefined;
  modelId?: string | undefined;
  /** Every check, not only the flagged ones. */
  all?: boolean | undefined;
}

export interface DriftList {
  checks: DriftCheckRow[];
  /** Checks stored in all (whatever the filters), and how many are flagged. */
  total: number;
  flagged: number;
  blueprints: { id: string; title: string }[];
  models: string[];
}

/** `offset`: checks to skip in the list's order (the public API's cursor pages through it). */
export async function listDriftChecks(db: Db, filters: DriftFilters = {}, limit = 100, offset = 0): Promise<DriftList> {
  const where = {
    ...(filters.blueprintId ? { blueprintId: filters.blueprintId } : {}),
    ...(filters.modelId ? { modelId: filters.modelId } : {}),
    ...(filters.all ? {} : { flagged: true }),
  };
  const [rows, total, flagged, blueprints, models] = await Promise.all([
    db.driftCheck.findMany({
      where,
      // newest change first (the later run's date), flagged checks before the others of the same runs
      // the id last: a total order, so pages of the list never repeat or skip a check
      orderBy: [{ toRun: { createdAt: 'desc' } }, { flagged: 'desc' }, { modelId: 'asc' }, { id: 'asc' }],
      take: limit,
      skip: offset,
      include: { blueprint: { select: { title: true } }, fromRun: { select: { createdAt: true } }, toRun: { select: { createdAt: true } } },
    }),
    db.driftCheck.count(),
    db.driftCheck.count({ where: { flagged: true } }),
    db.driftCheck.findMany({ distinct: ['blueprintId'], select: { blueprintId: true, blueprint: { select: { title: true } } }, orderBy: { blueprintId: 'asc' } }),
    db.driftCheck.findMany({ distinct: ['modelId'], select: { modelId: true }, orderBy: { modelId: 'asc' } }),
  ]);
  return {
    checks: rows.map((r) => ({
      id: r.id,
      blueprintId: r.blueprintId,
      blueprintTitle: r.blueprint.title,
      modelId: r.modelId,
      fromRunId: r.fromRunId,
      fromRunAt: r.fromRun.createdAt,
      toRunId: r.toRunId,
      toRunAt: r.toRun.createdAt,
      paired: r.paired,
      difference: r.difference,
      ciLow: r.ciLow,
      ciHigh: r.ciHigh,
      mde: r.mde,
      flagged: r.flagged,
      reason: r.reason,
      servedModelBefore: r.servedModelBefore,
      servedModelAfter: r.servedModelAfter,
      fingerprintBefore: r.fingerprintBefore,
      fingerprintAfter: r.fingerprintAfter,
      servedChanged: r.servedChanged,
      moved: parseStored(DriftMovedListSchema, r.moved, `drift_checks.moved of check ${r.id}`),
      createdAt: r.createdAt,
    })),
    total,
    flagged,
    blueprints: blueprints.map((b) => ({ id: b.blueprintId, title: b.blueprint.title })),
    models: models.map((m) => m.modelId),
  };
}
