/**
 * A model across Assay: overall and per-tag scores with its rank among the models, every
 * blueprint compared with the field (the mean of all models on it), its strongest and
 * weakest areas relative to the field (not in absolute terms: a blueprint everyone aces is
 * no strength), and its history over runs.
 */
import { boardPlaceLabel, type Leaderboard, type ModelAggregate, type RankedAggregate } from '@/lib/core';
import type { ModelProfile } from '@/lib/server/db/queries/model-profile';
import { type ChartSeries, type LineChartData, seriesStyle } from './chart-series';
import { describeInterval, formatDate, formatDateTime, formatDelta, formatInterval, formatScore, modelShortName, plural, roundHalfUp } from './format';
import { figureAttrs, type FigureAttrs } from './figures';
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
  /** The figures' identities: the tag board's, or the blueprint's stored run figures. */
  figures: { score: FigureAttrs; interval: FigureAttrs | null; rank: FigureAttrs };
}

export interface ModelPageView {
  modelId: string;
  label: string;
  provider: string | null;
  overall: {
    scoreLabel: string;
    intervalLabel: string | null;
    intervalText: string;
    rankLabel: string;
    blueprintsLabel: string;
    errors: number;
    figures: { score: FigureAttrs; interval: FigureAttrs | null; rank: FigureAttrs };
  };
  tags: AreaView[];
  blueprints: AreaView[];
  strongest: AreaView[];
  weakest: AreaView[];
  history: LineChartData | null;
  historyTable: { label: string; blueprint: string; blueprintHref: string; runHref: string; scoreLabel: string; intervalLabel: string | null; figures: { score: FigureAttrs; interval: FigureAttrs | null } }[];
}

/** History lines drawn at most (one per blueprint); all runs are in the table. */
export const HISTORY_SERIES = 8;

const tone = (d: number | null): Tone => (d === null || Math.abs(d) < 0.0005 ? 'same' : d > 0 ? 'better' : 'worse');

/**
 * The model's place on a board, as the board itself shows it (its band when the board has bands,
 * else its rank; boardPlaceLabel), out of the ranked models; a model the board lists apart says so.
 */
function placeOn(board: Leaderboard | null, modelId: string): { label: string; value: string } {
  if (!board) return { label: '—', value: '—' };
  const ranked = board.ranked.find((a) => a.modelId === modelId);
  if (ranked) return { label: `${boardPlaceLabel(ranked)} of ${board.ranked.length}`, value: boardPlaceLabel(ranked) };
  const label = board.unranked.some((a) => a.modelId === modelId) ? 'not ranked' : '—';
  return { label, value: label };
}

const boardEntry = (board: Leaderboard | null, modelId: string): ModelAggregate | RankedAggregate | undefined =>
  board?.ranked.find((a) => a.modelId === modelId) ?? board?.unranked.find((a) => a.modelId === modelId);

/** The board key of a tag ('tag:<tag>') or of the overall board ('all'), as figure identities name boards. */
const boardKey = (tag: string | null) => (tag === null ? 'all' : `tag:${tag}`);

/**
 * One area (a tag, or one blueprint) of the model: its entry on that area's stored board, so the
 * score, interval and place are the figures the tag board shows (and, for one blueprint, its
 * stored run figures).
 */
function area(kind: AreaView['kind'], name: string, link: string, modelId: string, board: Leaderboard | null, at: { board: string; run: string | null }): AreaView | null {
  const me = boardEntry(board, modelId);
  if (!board || !me) return null;
  const all = [...board.ranked, ...board.unranked];
  const scored = all.filter((a) => a.score !== null);
  const field = scored.length ? scored.reduce((s, a) => s + (a.score as number), 0) / scored.length : null;
  const delta = me.score === null || field === null ? null : me.score - field;
  // one blueprint: the score and interval are its run's (the blueprint and run pages show them); a tag: the tag board's
  const boardScope = { board: at.board, model: modelId };
  const scope = at.run ? { run: at.run, model: modelId } : boardScope;
  const scoreLabel = formatScore(me.score);
  const intervalLabel = formatInterval(me.ciLow, me.ciHigh);
  const place = placeOn(board, modelId);
  return {
    kind,
    name,
    href: link,
    scoreLabel,
    intervalLabel,
    rankLabel: place.label,
    fieldLabel: formatScore(field),
    deltaLabel: formatDelta(delta),
    tone: tone(delta),
    delta,
    blueprints: me.blueprints,
    blueprintsLabel: plural(me.blueprints, 'blueprint'),
    figures: {
      score: figureAttrs('score', scope, scoreLabel),
      interval: intervalLabel ? figureAttrs('interval', scope, intervalLabel) : null,
      rank: figureAttrs('band', boardScope, place.value),
    },
  };
}

/**
 * `boards`: the stored boards the model sits on ('all', 'tag:<tag>', 'blueprint:<id>':
 * db/commands/board-snapshots.ts), the ones the leaderboard pages read, so every place, score and
 * interval here is the board's own. A board the map lacks is a board the model is not on.
 */
export function modelPageView(p: ModelProfile, opts: { boards: ReadonlyMap<string, Leaderboard> }): ModelPageView {
  const { modelId } = p;
  const mine = p.scores.filter((r) => r.modelId === modelId);
  const boardOf = (tag: string | null) => opts.boards.get(boardKey(tag)) ?? null;
  const overallBoard = boardOf(null);
  const overall = boardEntry(overallBoard, modelId);
  const tags = [...new Set(mine.flatMap((r) => r.tags))]
    .sort()
    .map((t) => area('tag', t, href.home(t), modelId, boardOf(t), { board: boardKey(t), run: null }))
    .filter((a): a is AreaView => a !== null)
    .sort((a, b) => (b.delta ?? -2) - (a.delta ?? -2) || a.name.localeCompare(b.name));
  const blueprints = [...new Map(mine.map((r) => [r.blueprintId, r])).values()]
    .map((r) => {
      // a blueprint's own board: its rows alone, every model with a score on it ranked
      const board = opts.boards.get(`blueprint:${r.blueprintId}`) ?? null;
      return area('blueprint', r.blueprintTitle, href.blueprint(r.blueprintId), modelId, board, { board: `blueprint:${r.blueprintId}`, run: r.runId });
    })
    .filter((a): a is AreaView => a !== null)
    .sort((a, b) => (b.delta ?? -2) - (a.delta ?? -2) || a.name.localeCompare(b.name));
  // areas: tags when there are several, else blueprints; ranked against the field
  const areas = (tags.length >= 2 ? tags : blueprints).filter((a) => a.delta !== null);
  const strongest = areas.slice(0, 3).filter((a) => (a.delta as number) > 0);
  const weakest = [...areas].reverse().slice(0, 3).filter((a) => (a.delta as number) < 0);
  const overallScope = { board: boardKey(null), model: modelId };
  const overallScore = formatScore(overall?.score ?? null);
  const overallInterval = formatInterval(overall?.ciLow ?? null, overall?.ciHigh ?? null);
  const overallPlace = mine.length ? placeOn(overallBoard, modelId) : { label: '—', value: '—' };

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
      scoreLabel: overallScore,
      intervalLabel: overallInterval,
      intervalText: describeInterval(overall?.ciLow ?? null, overall?.ciHigh ?? null),
      rankLabel: overallPlace.label,
      blueprintsLabel: plural(overall?.blueprints ?? 0, 'blueprint'),
      errors: overall?.errors ?? 0,
      figures: {
        score: figureAttrs('score', overallScope, overallScore),
        interval: overallInterval ? figureAttrs('interval', overallScope, overallInterval) : null,
        rank: figureAttrs('band', overallScope, overallPlace.value),
      },
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
      figures: {
        score: figureAttrs('score', { run: h.runId, model: modelId }, formatScore(h.score)),
        interval: h.ciLow === null ? null : figureAttrs('interval', { run: h.runId, model: modelId }, formatInterval(h.ciLow, h.ciHigh) ?? '—'),
      },
    })),
  };
}
