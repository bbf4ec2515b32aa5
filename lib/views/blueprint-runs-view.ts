/**
 * A blueprint's runs: the history table, the trend of each model's score over completed runs
 * (drift), and the latest completed run's ranking.
 */
import type { BlueprintRuns } from '@/lib/server/db/queries/blueprint-runs';
import type { RunModelRow } from '@/lib/server/db/queries/run-ranking';
import { type ChartSeries, type LineChartData, seriesStyle } from './chart-series';
import { formatCount, formatDate, formatDateTime, formatScore, formatUsd, modelShortName, plural, roundHalfUp, shortSha } from './format';
import { rankingView, runStatus, type RankingEntryView, type StatusTone } from './run-view';
import { figureAttrs, type FigureAttrs } from './figures';
import { href } from './urls';

/** Lines drawn at most; the rest are in the table under the chart. */
export const TREND_SERIES = 8;

export interface RunHistoryRowView {
  id: string;
  href: string;
  label: string;
  statusLabel: string;
  statusTone: StatusTone;
  trigger: string;
  commit: string | null;
  repliesLabel: string;
  errorsLabel: string;
  cost: string;
}

export interface BlueprintRunsView {
  history: RunHistoryRowView[];
  trend: LineChartData | null;
  trendTable: { header: string[]; rows: { label: string; href: string; values: string[]; figures: FigureAttrs[] }[] } | null;
  latest: { runId: string; href: string; label: string; ranking: RankingEntryView[] } | null;
}

export function blueprintRunsView(data: BlueprintRuns, names: ReadonlyMap<string, string>): BlueprintRunsView {
  const history = data.runs.map((r) => {
    const s = runStatus(r.status);
    return {
      id: r.id,
      href: s.working ? href.progress(r.id) : href.run(r.id),
      label: formatDateTime(r.createdAt),
      statusLabel: s.label,
      statusTone: s.tone,
      trigger: r.trigger,
      commit: shortSha(r.sourceCommit),
      repliesLabel: `${formatCount(r.doneCalls)} / ${formatCount(r.totalCalls)}`,
      errorsLabel: plural(r.errorCalls + r.errorVerdicts, 'error'),
      cost: formatUsd(r.costUsd),
    };
  });

  const completed = data.runs.filter((r) => r.status === 'completed').reverse(); // oldest first
  const byRun = new Map<string, Map<string, number | null>>();
  for (const s of data.scores) byRun.set(s.runId, (byRun.get(s.runId) ?? new Map()).set(s.modelId, s.score));
  const latestScores = data.latestCompletedRunId ? data.scores.filter((s) => s.runId === data.latestCompletedRunId) : [];
  // the lines drawn: the latest run's best models, then any other model seen
  const models = [
    ...latestScores.sort((a, b) => (b.score ?? -1) - (a.score ?? -1) || a.modelId.localeCompare(b.modelId)).map((s) => s.modelId),
    ...[...new Set(data.scores.map((s) => s.modelId))].sort(),
  ].filter((m, i, all) => all.indexOf(m) === i);
  const label = (m: string) => modelShortName(m, names.get(m));
  const series: ChartSeries[] = models.slice(0, TREND_SERIES).map((m, i) => ({ key: `s${i}`, label: label(m), ...seriesStyle(i) }));
  const value = (runId: string, m: string) => {
    const s = byRun.get(runId)?.get(m);
    return s === null || s === undefined ? null : roundHalfUp(s * 100, 1);
  };
  const trend: LineChartData | null =
    completed.length >= 2
      ? {
          title: 'Score of each model per completed run (0–100)',
          series,
          rows: completed.map((r) => ({ x: formatDate(r.createdAt), ...Object.fromEntries(series.map((s, i) => [s.key, value(r.id, models[i] as string)])) })),
        }
      : null;
  const trendTable =
    completed.length > 0
      ? {
          header: models.map(label),
          rows: completed.map((r) => {
            const values = models.map((m) => formatScore(byRun.get(r.id)?.get(m) ?? null));
            return { label: formatDateTime(r.createdAt), href: href.run(r.id), values, figures: models.map((m, i) => figureAttrs('score', { run: r.id, model: m }, values[i] as string)) };
          }),
        }
      : null;

  let latest: BlueprintRunsView['latest'] = null;
  if (data.latestCompletedRunId) {
    const run = data.runs.find((r) => r.id === data.latestCompletedRunId);
    const rows: RunModelRow[] = data.scores
      .filter((s) => s.runId === data.latestCompletedRunId)
      .map((s) => ({ modelId: s.modelId, displayName: names.get(s.modelId) ?? null, score: s.score, ciLow: s.ciLow, ciHigh: s.ciHigh, promptCount: 0, replyCount: 0, verdictCount: 0, errorCount: s.errorCount, costUsd: 0, latencyMsP50: null, interval: s.interval }))
      .sort((a, b) => (b.score ?? -1) - (a.score ?? -1) || a.modelId.localeCompare(b.modelId));
    latest = { runId: data.latestCompletedRunId, href: href.run(data.latestCompletedRunId), label: run ? `Run of ${formatDateTime(run.createdAt)}` : 'Latest run', ranking: rankingView(data.latestCompletedRunId, rows) };
  }
  return { history, trend, trendTable, latest };
}
