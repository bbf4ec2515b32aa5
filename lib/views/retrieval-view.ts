/**
 * How a retrieval run reads on every page and in `assay run`: metric values on trec_eval's 0–1
 * scale to three decimals, intervals over queries, the ladder's words and tones, the per-model
 * results table, the leaderboard of embedding models, and the per-query drill-down. Decided
 * once here; the components only render.
 */
import { roundHalfUp, type Interval, type LadderStatus } from '@/lib/core';
import type { RetrievalModelResults, RetrievalRunResults } from '@/lib/server/db/queries/retrieval-results';
import { formatUsd, plural } from './format';
import type { StatusTone } from './run-view';
import { href } from './urls';

/** A metric value as trec_eval prints it, to 3 decimals: 0.81234 → "0.812"; null → "—". */
export function formatMetric(v: number | null | undefined): string {
  return v === null || v === undefined || !Number.isFinite(v) ? '—' : roundHalfUp(v, 3).toFixed(3);
}

export function formatMetricInterval(i: Pick<Interval, 'low' | 'high'> | null): string | null {
  return i ? `${formatMetric(i.low)}–${formatMetric(i.high)}` : null;
}

const LADDER: Record<LadderStatus, { label: string; tone: StatusTone }> = {
  pass: { label: 'Pass', tone: 'ok' },
  warn: { label: 'Warn', tone: 'working' },
  fail: { label: 'Fail', tone: 'failed' },
};

export interface LadderView {
  label: string;
  tone: StatusTone;
}

export function ladderView(s: LadderStatus | null): LadderView | null {
  return s ? LADDER[s] : null;
}

export interface MetricCellView {
  metric: string;
  value: string;
  interval: string | null;
  /** "95% interval over 12 queries (BCa bootstrap, 1,000 resamples)". */
  basis: string | null;
  ladder: LadderView | null;
  threshold: string | null;
  primary: boolean;
}

function basisOf(i: Interval | null, queries: number): string | null {
  if (!i) return queries < 2 ? `no interval: ${plural(queries, 'query', 'queries')}` : null;
  return `${Math.round(i.level * 100)}% interval over ${plural(i.clusters, 'query', 'queries')} (BCa bootstrap${i.resamples ? `, ${i.resamples.toLocaleString('en-US')} resamples` : ''})`;
}

export interface RetrievalModelRowView {
  modelId: string;
  modelHref: string;
  metrics: MetricCellView[];
  ladder: LadderView | null;
  cost: string;
  calls: string;
  error: string | null;
}

export interface RetrievalResultsView {
  metricLabels: string[];
  primaryMetric: string;
  rows: RetrievalModelRowView[];
  thresholdsNote: string | null;
  queriesHref: string | null;
}

function metricCells(m: RetrievalModelResults, labels: string[]): MetricCellView[] {
  return labels.map((label) => {
    const r = m.metrics.find((x) => x.metric === label);
    return {
      metric: label,
      value: formatMetric(r?.value),
      interval: formatMetricInterval(r?.interval ?? null),
      basis: r ? basisOf(r.interval, r.queryCount) : null,
      ladder: ladderView(r?.status ?? null),
      threshold: r?.threshold === null || r?.threshold === undefined ? null : `min ${formatMetric(r.threshold)}`,
      primary: r?.primary ?? false,
    };
  });
}

/** The run page's results: one row per model, best primary metric first (unscored last). */
export function retrievalResultsView(r: RetrievalRunResults, firstQueryId: string | null): RetrievalResultsView {
  const primary = (m: RetrievalModelResults) => m.metrics.find((x) => x.metric === r.primaryMetric)?.value ?? null;
  const rows = [...r.models]
    .sort((a, b) => (primary(b) ?? -1) - (primary(a) ?? -1) || a.modelId.localeCompare(b.modelId))
    .map((m) => ({
      modelId: m.modelId,
      modelHref: href.model(m.modelId),
      metrics: metricCells(m, r.metricLabels),
      ladder: ladderView(m.ladder),
      cost: formatUsd(m.costUsd),
      calls: `${plural(m.calls, 'call')}, ${m.cached} cached`,
      error: m.error,
    }));
  const t = r.thresholds;
  const thresholdsNote = t
    ? `Ladder: below the minimum fails, within ${formatMetric(t.warnMargin)} above it warns (${Object.entries(t.min).map(([k, v]) => `${k} ≥ ${formatMetric(v)}`).join(', ')}).`
    : null;
  return { metricLabels: r.metricLabels, primaryMetric: r.primaryMetric, rows, thresholdsNote, queriesHref: firstQueryId ? href.retrievalQuery(r.runId, firstQueryId) : null };
}
