/**
 * The threshold ladder of a retrieval blueprint's `thresholds` (docs/retrieval.md): below `min`
 * fails, within [min, min + warn_margin) warns, otherwise passes. A metric with no threshold, or no
 * value (unscored), has no status: unscored is not a failure.
 */
import type { RetrievalThresholds } from './block';

export type LadderStatus = 'pass' | 'warn' | 'fail';

export function ladderStatus(value: number | null | undefined, metricLabel: string, thresholds: RetrievalThresholds | null): LadderStatus | null {
  const min = thresholds?.min[metricLabel];
  if (min === undefined || value === null || value === undefined || !Number.isFinite(value)) return null;
  if (value < min) return 'fail';
  if (value < min + thresholds!.warnMargin) return 'warn';
  return 'pass';
}

const SEVERITY: Record<LadderStatus, number> = { pass: 0, warn: 1, fail: 2 };

/** The worst of some metrics' statuses (one failing metric fails the model); metrics without one are skipped; null when none has one. */
export function worstLadder(statuses: Iterable<LadderStatus | null>): LadderStatus | null {
  let worst: LadderStatus | null = null;
  for (const s of statuses) if (s !== null && (worst === null || SEVERITY[s] > SEVERITY[worst])) worst = s;
  return worst;
}

/**
 * The status of a model over every thresholded metric: the worst of them (one failing metric
 * fails the model), null when no metric has both a threshold and a value.
 */
export function overallLadder(overall: Record<string, number>, thresholds: RetrievalThresholds | null): { status: LadderStatus | null; metrics: Record<string, LadderStatus> } {
  const metrics: Record<string, LadderStatus> = {};
  if (!thresholds) return { status: null, metrics };
  for (const label of Object.keys(thresholds.min)) {
    const s = ladderStatus(overall[label], label, thresholds);
    if (s) metrics[label] = s;
  }
  return { status: worstLadder(Object.values(metrics)), metrics };
}
