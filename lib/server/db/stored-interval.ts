/**
 * The stored shapes of intervals and pass curves: the summariser writes them and the queries
 * read them through these functions, with the core schemas, so the writer and every reader
 * agree on one shape (an interval is five columns beside ci_low/ci_high; a pass curve a JSON
 * column checked by its zod schema on the way in and on the way out).
 */
import { IntervalSchema, ModelPassCurveSchema, PassCurveSchema, type Interval, type ModelPassCurve, type PassCurve } from '@/lib/core';
import { Prisma } from '@/generated/prisma/client';

/** The columns an interval is stored in (run and blueprint model summaries). */
export interface IntervalColumns {
  ciLow: number | null;
  ciHigh: number | null;
  ciMethod: string | null;
  ciLevel: number | null;
  ciN: number | null;
  ciClusters: number | null;
  ciResamples: number | null;
}

export function intervalColumns(i: Interval | null): IntervalColumns {
  if (!i) return { ciLow: null, ciHigh: null, ciMethod: null, ciLevel: null, ciN: null, ciClusters: null, ciResamples: null };
  const v = IntervalSchema.parse(i);
  return { ciLow: v.low, ciHigh: v.high, ciMethod: v.method, ciLevel: v.level, ciN: v.n, ciClusters: v.clusters, ciResamples: v.resamples };
}

/**
 * The interval of a stored row; null without one, and null for a row written before intervals
 * recorded how they were made (ci_method null): its ends still show, with nothing beside them.
 */
export function storedInterval(row: IntervalColumns): Interval | null {
  if (row.ciLow === null || row.ciHigh === null || row.ciMethod === null) return null;
  return IntervalSchema.parse({ low: row.ciLow, high: row.ciHigh, level: row.ciLevel, method: row.ciMethod, n: row.ciN, clusters: row.ciClusters, resamples: row.ciResamples });
}

/** A JSON column's value for a pass curve: SQL NULL when there is none. */
export function passCurveColumn(curve: ModelPassCurve | PassCurve | null, schema: typeof ModelPassCurveSchema | typeof PassCurveSchema): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return curve === null ? Prisma.DbNull : (schema.parse(curve) as Prisma.InputJsonValue);
}

export function storedModelPassCurve(json: unknown): ModelPassCurve | null {
  return json === null || json === undefined ? null : ModelPassCurveSchema.parse(json);
}

export function storedPassCurve(json: unknown): PassCurve | null {
  return json === null || json === undefined ? null : PassCurveSchema.parse(json);
}
