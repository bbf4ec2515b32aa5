/**
 * A model across Assay: overall and per-tag scores with its rank among the models, every
 * blueprint compared with the field (the mean of all models on it), its strongest and
 * weakest areas relative to the field (not in absolute terms: a blueprint everyone aces is
 * no strength), and its history over runs.
 */
import { aggregateByModel, aggregateRows, compareAggregates, type ModelAggregate } from '@/lib/core';
import type { BoardPromptCell, LeaderboardRow } from '@/lib/server/db/queries/leaderboard';
import type { ModelProfile } from '@/lib/server/db/queries/model-profile';
import { type ChartSeries, type LineChartData, seriesStyle } from './chart-series';
import { describeInterval, formatDate, formatDateTime, formatDelta, formatInterval, formatScore, modelShortName, plural, roundHalfUp } from './format';
import { href } from './urls';

export type Tone = 'better' | 'worse' | 'same';

export interface AreaView {
  kind: 'tag' | 'blueprint';
  name: string;
  href: string;
  scoreLabel: string;
  intervalLabel: string | null;
  rankLabel: string;
  fieldLabel: string;
  deltaLabel: string;
  tone: Tone;
  delta: number | null;
  blueprints: number;
  blueprintsLabel: string;
}

export interface ModelPageView {
  modelId: string;
  label: string;
  provider: string | null;
  overall: { scoreLabel: string; intervalLabel: string | null; intervalText: string; rankLabel: string; blueprintsLabel: string; errors: number };
  tags: AreaView[];
  blueprints: AreaView[];
  strongest: AreaView[];
  weakest: AreaView[];
  history: LineChartData | null;
  historyTable: { label: string; blueprint: string; blueprintHref: string; runHref: string; scoreLabel: string; intervalLabel: string | null }[];
}

/** History lines drawn at most (one per blueprint); all runs are in the table. */
export const HISTORY_SERIES = 8;

const tone = (d: number | null): Tone => (d === null || Math.abs(d) < 0.0005 ? 'same' : d > 0 ? 'better' : 'worse');

function rankAmong(modelId: string, aggregates: ModelAggregate[]): string {
  const sorted = [...aggregates].sort(compareAggregates);
  const i = sorted.findIndex((a) => a.modelId === modelId);
  return i < 0 ? '—' : `#${i + 1} of ${sorted.length}`;
}

function area(kind: AreaView['kind'], name: string, link: string, modelId: string, rows: LeaderboardRow[], prompts?: readonly BoardPromptCell[]): AreaView | null {
  const mine = rows.filter((r) => r.modelId === modelId);
  if (mine.length === 0) return null;
  // with the prompt scores, the intervals are the leaderboard's (hierarchical bootstrap)
  const aggregates = aggregateByModel(rows, { prompts });
  const me = aggregates.find((a) => a.modelId === modelId) ?? aggregateRows(modelId, mine);
  const scored = aggregates.filter((a) => a.score !== null);
  const field = scored.length ? scored.reduce((s, a) => s + (a.score as number), 0) / scored.length : null;
  const delta = me.score === null || field === null ? null : me.score - field;
  return {
    kind,
    name,
    href: link,
    scoreLabel: formatScore(me.score),
    intervalLabel: formatInterval(me.ciLow, me.ciHigh),
    rankLabel: rankAmong(modelId, aggregates),
    fieldLabel: formatScore(field),
    deltaLabel: formatDelta(delta),
    tone: tone(delta),
    delta,
    blueprints: new Set(mine.map((r) => r.blueprintId)).size,
    blueprintsLabel: plural(new Set(mine.map((r) => r.blueprintId)).size, 'blueprint'),
  };
}

export function modelPageView(p: ModelProfile): ModelPageView {
  const { modelId } = p;
  const mine = p.scores.filter((r) => r.modelId === modelId);
  const overall = aggregateByModel(mine, { prompts: p.prompts })[0] ?? aggregateRows(modelId, mine);
  const tags = [...new Set(mine.flatMap((r) => r.tags))]
    .sort()
    .map((t) => area('tag', t, href.home(t), modelId, p.scores.filter((r) => r.tags.includes(t)), p.prompts))
    .filter((a): a is AreaView => a !== null)
    .sort((a, b) => (b.delta ?? -2) - (a.delta ?? -2) || a.name.localeCompare(b.name));
  const blueprints = [...new Map(mine.map((r) => [r.blueprintId, r])).values()]
    .map((r) => area('blueprint', r.blueprintTitle, href.blueprint(r.blueprintId), modelId, p.scores.filter((s) => s.blueprintId === r.blueprintId), p.prompts))
    .filter((a): a is AreaView => a !== null)
    .sort((a, b) => (b.delta ?? -2) - (a.delta ?? -2) || a.name.localeCompare(b.name));
  // areas: tags when there are several, else blueprints; ranked against the field
  const areas = (tags.length >= 2 ? tags : blueprints).filter((a) => a.delta !== null);
  const strongest = areas.slice(0, 3).filter((a) => (a.delta as number) > 0);
  const weakest = [...areas].reverse().slice(0, 3).filter((a) => (a.delta as number) < 0);

  const history = [...p.history].reverse(); // oldest first
  const blueprintOrder = [...new Set(history.map((h) => h.run.blueprint.id))];
  const drawn = blueprintOrder.slice(0, HISTORY_SERIES);
  const titles = new Map(history.map((h) => [h.run.blueprint.id, h.run.blueprint.title]));
  const series: ChartSeries[] = drawn.map((id, i) => ({ key: `s${i}`, label: titles.get(id) ?? id, ...seriesStyle(i) }));
  // one x per date: runs of different blueprints on the same day share it
  const byDate = new Map<string, Record<string, number | null>>();
  for (const h of history) {
    const i = drawn.indexOf(h.run.blueprint.id);
    const x = formatDate(h.run.createdAt);
    const row = byDate.get(x) ?? Object.fromEntries(series.map((s) => [s.key, null]));
    if (i >= 0 && h.score !== null) row[`s${i}`] = roundHalfUp(h.score * 100, 1);
    byDate.set(x, row);
  }
  const rows = [...byDate.entries()].map(([x, values]) => ({ x, ...values }));
  return {
    modelId,
    label: modelShortName(modelId, p.model?.displayName),
    provider: p.model?.provider ?? (modelId.includes(':') ? modelId.slice(0, modelId.indexOf(':')) : null),
    overall: {
      scoreLabel: formatScore(overall.score),
      intervalLabel: formatInterval(overall.ciLow, overall.ciHigh),
      intervalText: describeInterval(overall.ciLow, overall.ciHigh),
      rankLabel: mine.length ? rankAmong(modelId, aggregateByModel(p.scores)) : '—',
      blueprintsLabel: plural(overall.blueprints, 'blueprint'),
      errors: overall.errors,
    },
    tags,
    blueprints,
    strongest,
    weakest,
    history: history.length >= 2 ? { title: 'Score per run, by blueprint (0–100)', series, rows } : null,
    historyTable: [...p.history].map((h) => ({
      label: formatDateTime(h.run.createdAt),
      blueprint: h.run.blueprint.title,
      blueprintHref: href.blueprint(h.run.blueprint.id),
      runHref: href.runModel(h.runId, modelId),
      scoreLabel: formatScore(h.score),
      intervalLabel: formatInterval(h.ciLow, h.ciHigh),
    })),
  };
}
