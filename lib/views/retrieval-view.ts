/**
 * How a retrieval run reads on every page and in `assay run`: metric values on trec_eval's 0–1
 * scale to three decimals, intervals over queries, the ladder's words and tones, the per-model
 * results table, the leaderboard of embedding models, and the per-query drill-down. Decided
 * once here; the components only render.
 */
import { rankRetrievalModels, roundHalfUp, type Interval, type LadderStatus } from '@/lib/core';
import type { RetrievalBoardRow } from '@/lib/server/db/queries/retrieval-leaderboard';
import type { RetrievalQueryDetail } from '@/lib/server/db/queries/retrieval-query';
import type { RetrievalModelResults, RetrievalRunResults } from '@/lib/server/db/queries/retrieval-results';
import { figureAttrs, type FigureAttrs } from './figures';
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

/**
 * The identity of a retrieval status wherever a page shows it: the model's status on a run
 * (`metric` absent: the stored retrievalModelStatus, on the run page and the home board), or one
 * metric's status on it.
 */
export function statusFigure(runId: string, modelId: string, ladder: LadderView | null, metric?: string): FigureAttrs | null {
  return ladder ? figureAttrs('status', { run: runId, model: modelId, ...(metric === undefined ? {} : { metric }) }, ladder.label) : null;
}

export interface MetricCellView {
  metric: string;
  value: string;
  interval: string | null;
  /** "95% interval over 12 queries (BCa bootstrap, 1,000 resamples)". */
  basis: string | null;
  ladder: LadderView | null;
  /** The metric's own status (status|run|model|metric); null without one. */
  figure: FigureAttrs | null;
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
  /** The model's status on the run (stored; the home board shows the same figure). */
  ladder: LadderView | null;
  figure: FigureAttrs | null;
  cost: string;
  calls: string;
  error: string | null;
}

export interface RetrievalResultsView {
  metricLabels: string[];
  primaryMetric: string;
  rows: RetrievalModelRowView[];
  thresholdsNote: string | null;
  /** The per-query table: each listed query with each model's primary metric on it. */
  queries: { id: string; text: string; href: string; values: string[] }[];
  /** Model ids in the order of `rows` (the columns of `queries`). */
  queryColumns: string[];
  queriesNote: string;
}

function metricCells(runId: string, m: RetrievalModelResults, labels: string[]): MetricCellView[] {
  return labels.map((label) => {
    const r = m.metrics.find((x) => x.metric === label);
    const ladder = ladderView(r?.status ?? null);
    return {
      metric: label,
      value: formatMetric(r?.value),
      interval: formatMetricInterval(r?.interval ?? null),
      basis: r ? basisOf(r.interval, r.queryCount) : null,
      ladder,
      figure: statusFigure(runId, m.modelId, ladder, label),
      threshold: r?.threshold === null || r?.threshold === undefined ? null : `min ${formatMetric(r.threshold)}`,
      primary: r?.primary ?? false,
    };
  });
}

/** The run page's results: one row per model, best primary metric first (unscored last). */
export function retrievalResultsView(r: RetrievalRunResults): RetrievalResultsView {
  const primary = (m: RetrievalModelResults) => m.metrics.find((x) => x.metric === r.primaryMetric)?.value ?? null;
  const rows = [...r.models]
    .sort((a, b) => (primary(b) ?? -1) - (primary(a) ?? -1) || a.modelId.localeCompare(b.modelId))
    .map((m) => ({
      modelId: m.modelId,
      modelHref: href.model(m.modelId),
      metrics: metricCells(r.runId, m, r.metricLabels),
      ladder: ladderView(m.ladder),
      figure: statusFigure(r.runId, m.modelId, ladderView(m.ladder)),
      cost: formatUsd(m.costUsd),
      calls: `${plural(m.calls, 'call')}, ${m.cached} cached`,
      error: m.error,
    }));
  const t = r.thresholds;
  const thresholdsNote = t
    ? `Ladder: below the minimum fails, within ${formatMetric(t.warnMargin)} above it warns (${Object.entries(t.min).map(([k, v]) => `${k} ≥ ${formatMetric(v)}`).join(', ')}).`
    : null;
  const columns = rows.map((x) => x.modelId);
  const queries = r.queries.map((q) => ({ id: q.id, text: q.text, href: href.retrievalQuery(r.runId, q.id), values: columns.map((m) => formatMetric(q.primary[m])) }));
  const queriesNote = r.sealed
    ? `This blueprint is sealed: its ${plural(r.queryCount, 'query', 'queries')} and documents are scored but not shown.`
    : r.queryCount > r.queries.length
      ? `The first ${r.queries.length} of ${r.queryCount} queries; each query's page moves through all of them.`
      : `${plural(r.queryCount, 'query', 'queries')}, each with its ${r.primaryMetric} per model; open one for its rankings.`;
  return { metricLabels: r.metricLabels, primaryMetric: r.primaryMetric, rows, thresholdsNote, queries, queryColumns: columns, queriesNote };
}

// ---------------------------------------------------------------------------------------------
// the leaderboard of embedding models

export interface RetrievalBoardEntryView {
  rank: number;
  modelId: string;
  modelHref: string;
  /** Mean of the primary metric over the blueprints the model was scored on. */
  mean: string;
  blueprints: string;
  /** Each blueprint's primary metric, and the model's status on that run (`figure`: the run page's status|run|model). */
  cells: { blueprintId: string; value: string; interval: string | null; ladder: LadderView | null; figure: FigureAttrs | null; runHref: string }[];
}

export interface RetrievalBoardView {
  title: string;
  columns: { blueprintId: string; title: string; metric: string; href: string }[];
  entries: RetrievalBoardEntryView[];
  note: string;
}

/**
 * Embedding models ranked by the mean of each blueprint's primary metric over the retrieval
 * blueprints they were scored on (those with `tag` when one is chosen); ties share a rank.
 */
export function retrievalBoardView(rows: readonly RetrievalBoardRow[], tag: string | null): RetrievalBoardView {
  const kept = rows.filter((r) => tag === null || r.tags.includes(tag));
  const columns = [...new Map(kept.map((r) => [r.blueprintId, { blueprintId: r.blueprintId, title: r.blueprintTitle, metric: r.metric, href: href.blueprint(r.blueprintId) }])).values()].sort((a, b) => a.title.localeCompare(b.title));
  const scored = rankRetrievalModels(rows, tag).map((m) => ({ modelId: m.modelId, mine: m.rows, mean: m.mean, rank: m.rank }));
  const entries = scored.map((s): RetrievalBoardEntryView => {
    return {
      rank: s.rank,
      modelId: s.modelId,
      modelHref: href.model(s.modelId),
      mean: formatMetric(s.mean),
      blueprints: plural(s.mine.length, 'blueprint'),
      cells: columns.map((c) => {
        const r = s.mine.find((x) => x.blueprintId === c.blueprintId);
        const ladder = ladderView(r?.modelStatus ?? null);
        return {
          blueprintId: c.blueprintId,
          value: formatMetric(r?.value),
          interval: formatMetricInterval(r?.interval ?? null),
          ladder,
          figure: r ? statusFigure(r.runId, r.modelId, ladder) : null,
          runHref: r ? href.run(r.runId) : '',
        };
      }),
    };
  });
  return {
    title: tag ? `Embedding models: retrieval, tagged “${tag}”` : 'Embedding models: retrieval',
    columns,
    entries,
    note: 'Each retrieval blueprint’s primary metric (trec_eval, 0–1) from its latest completed run, with its 95% interval over queries and the model’s status on that run (the worst over every metric the blueprint sets a minimum for, as on the run page); models ranked by the mean over the blueprints they were scored on.',
  };
}

// ---------------------------------------------------------------------------------------------
// one query's drill-down

export interface RetrievalQueryView {
  queryId: string;
  queryText: string;
  previousHref: string | null;
  nextHref: string | null;
  runHref: string;
  models: {
    modelId: string;
    metrics: { metric: string; value: string }[];
    ranking: { rank: number; docId: string; score: string; text: string; relevance: string; relevant: boolean }[];
    missed: { docId: string; text: string; relevance: string; where: string }[];
  }[];
  shown: number;
}

/** Relevance as the qrels grade it; unjudged is not "not relevant" (trec_eval treats both alike, readers should not). */
function relevanceLabel(r: number | null): string {
  return r === null ? 'unjudged' : r >= 1 ? `relevant (${r})` : `not relevant (${r})`;
}

export function retrievalQueryView(d: RetrievalQueryDetail, model: string | null): RetrievalQueryView {
  const at = d.queryIds.indexOf(d.queryId);
  const neighbour = (i: number) => (i >= 0 && i < d.queryIds.length ? href.retrievalQuery(d.runId, d.queryIds[i]!, { model }) : null);
  return {
    queryId: d.queryId,
    queryText: d.queryText,
    previousHref: neighbour(at - 1),
    nextHref: neighbour(at + 1),
    runHref: href.run(d.runId),
    shown: d.shown,
    models: d.models
      .filter((m) => model === null || m.modelId === model)
      .map((m) => ({
        modelId: m.modelId,
        metrics: d.metricLabels.map((metric) => ({ metric, value: formatMetric(m.metrics[metric]) })),
        ranking: m.ranking.map((x) => ({ rank: x.rank, docId: x.docId, score: x.score.toFixed(4), text: x.text, relevance: relevanceLabel(x.relevance), relevant: (x.relevance ?? 0) >= 1 })),
        missed: m.missed.map((x) => ({ docId: x.docId, text: x.text, relevance: relevanceLabel(x.relevance), where: x.rank === null ? 'not retrieved' : `rank ${x.rank}` })),
      })),
  };
}
