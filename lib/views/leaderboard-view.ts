/**
 * Leaderboard pages: the board itself (averaging, intervals, coverage, ranking) is
 * the core level `leaderboard()` (lib/core/scoring/leaderboard.ts); this view model only
 * shapes it for the page: labels, links, interval bars, captions, the tag chips, and why a
 * model is listed apart (ASSAY_LEADERBOARD_MIN_COVERAGE).
 */
import { boardPlaceLabel, coverageShare, leaderboard, type Leaderboard, type AlphaReading, type Coverage, type ModelAggregate, type RankedAggregate } from '@/lib/core';
import type { PooledModelReliability } from '@/lib/server/db/queries/judge-reliability';
import type { BoardPromptCell, LeaderboardRow } from '@/lib/server/db/queries/leaderboard';
import { compareHref } from './compare-view';
import { pooledReliabilityRows, type AlphaAttrs } from './judge-reliability-view';
import { boardIntervalNote, type IntervalNoteView } from './interval-view';
import { describeInterval, formatInterval, formatPercent, formatScore, formatUsd, modelShortName, plural, roundHalfUp } from './format';
import { figureAttrs, type FigureAttrs } from './figures';
import { href } from './urls';

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

export interface IntervalBar {
  /** Percentages of the track (0–100) for the interval's ends and the point. */
  low: number;
  high: number;
  point: number;
}

export function intervalBar(score: number | null, low: number | null, high: number | null): IntervalBar | null {
  if (score === null) return null;
  const pct = (x: number) => roundHalfUp(clamp01(x) * 100, 1);
  return { point: pct(score), low: pct(low ?? score), high: pct(high ?? score) };
}

/** The "Judges α" cell: how far the judges agreed on the model's judged points, pooled over the runs it is ranked on. */
export interface BoardJudgesView {
  /** "α 0.93", or "too few verdicts to tell (3 units)" below ALPHA_MIN_UNITS pairable verdicts (judge-reliability-view.ts). */
  alphaLabel: string;
  /** `alpha|board=<all|tag:…>|model=<id>` with the shown number and its units; null when no α number is shown. */
  alphaAttrs: AlphaAttrs | null;
  /** Null when no α number is shown: the cell is then neutral, never "not reliable". */
  reading: AlphaReading | null;
  /** "reliable", "tentative", "not reliable", or "one judge" when there is no α for that reason. */
  readingLabel: string;
  /** What the shown α rests on: "over 208 units · 208 pairs"; null when no α number is shown. */
  basisLabel: string | null;
  /** "3% disagreement", or null when nothing is pairable. */
  disagreementLabel: string | null;
  /** Coverage for the cell's title: "208 judged verdicts, 208 with ≥ 2 judges · gpt-4.1-mini 208 · … assessments". */
  coverageTitle: string;
  /** The self-judging sentences joined, for the warning mark's title; null when no judge is related to the model. */
  selfJudging: string | null;
  methodologyHref: string;
}

export interface LeaderboardEntryView {
  rank: number | null;
  modelId: string;
  label: string;
  href: string;
  score: number | null;
  scoreLabel: string;
  intervalLabel: string | null;
  intervalText: string;
  bar: IntervalBar | null;
  /** What the interval rests on (blueprints, prompts) and how it was made, shown beneath it. */
  intervalNote: IntervalNoteView | null;
  blueprints: number;
  blueprintsLabel: string;
  /** "judged 96% · deterministic 100%": the share of the verdicts behind the score that got a result. */
  verdictCoverageLabel: string;
  errors: number;
  /** The statistically tied band, "rank 2–4" (bands.ts); null without prompt scores or for a model listed apart. */
  bandLabel: string | null;
  /** Whether the band spans more than one rank (the model is tied with a neighbour). */
  tied: boolean;
  /** The comparison behind the band: with the model ranked just above (the leader: just below); null without a band. */
  bandHref: string | null;
  /** Mean cost per prompt and median reply latency of the runs the model is ranked on. */
  costLabel: string;
  latencyLabel: string;
  /** The comparison with the board's leader; null for the leader itself and for models listed apart. */
  compareWithLeaderHref: string | null;
  /** Null when none of the model's points on this board was judged (the cell shows "—", never an α of 0 or 1). */
  judges: BoardJudgesView | null;
  /**
   * The figures' identities (figures.ts): the board's own, except a row resting on one blueprint,
   * whose score and interval are that blueprint's run figures (the run and blueprint pages show them).
   */
  figures: { score: FigureAttrs; interval: FigureAttrs | null; rank: FigureAttrs | null; band: FigureAttrs | null };
}

export interface UnrankedEntryView extends LeaderboardEntryView {
  /** Why the model is not ranked, e.g. "scored on 1 of 5 blueprints; ranking needs 3". */
  why: string;
}

export interface LeaderboardView {
  title: string;
  caption: string;
  entries: LeaderboardEntryView[];
  /** Models under the minimum blueprint coverage: listed, not ranked. */
  unranked: UnrankedEntryView[];
  unrankedCaption: string;
  /** What a band means (null when the board has no bands); a slot for the one-line "how to read this". */
  bandsCaption: string | null;
  blueprintCount: number;
  /** Blueprints a model needs a score on to be ranked. */
  requiredBlueprints: number;
}

export interface TagChipView {
  tag: string;
  href: string;
  label: string;
  active: boolean;
}

const pct = (x: number | null) => (x === null ? null : `${roundHalfUp(x * 100, 0)}%`);

/** "judged 96% · deterministic 100%" (a class without points is left out). */
export function verdictCoverageLabel(c: Coverage): string {
  const parts = [
    ['judged', pct(coverageShare(c, 'judged'))],
    ['deterministic', pct(coverageShare(c, 'deterministic'))],
  ].flatMap(([name, share]) => (share === null ? [] : [`${name} ${share}`]));
  return parts.length ? parts.join(' · ') : '—';
}

const SHORT_READING: Record<AlphaReading, string> = { reliable: 'reliable', tentative: 'tentative', unreliable: 'not reliable' };

/**
 * Each model's pooled judge figures as its leaderboard cell, worded by the same line the run and
 * model pages show (judge-reliability-view.ts), only shortened to fit a column.
 */
export function boardJudges(pooled: readonly PooledModelReliability[], names: ReadonlyMap<string, string> = new Map(), tag: string | null = null): Map<string, BoardJudgesView> {
  const lines = pooledReliabilityRows(pooled, new Map(names), tag ? `tag:${tag}` : 'all');
  return new Map(
    pooled.flatMap((p, i) => {
      const line = lines[i]!.line;
      if (!line.judged) return [];
      const cell: BoardJudgesView = {
        alphaLabel: line.alphaLabel,
        alphaAttrs: line.alphaAttrs,
        basisLabel: line.basisLabel,
        reading: line.reading,
        readingLabel: line.reading ? SHORT_READING[line.reading] : new Set(p.judges.map((j) => j.id)).size < 2 ? 'one judge' : '',
        disagreementLabel: p.pairable > 0 ? `${formatPercent(p.disagreements / p.pairable)} disagreement` : null,
        coverageTitle: `${line.coverageLabel} · ${line.assessmentsLabel}`,
        selfJudging: line.selfJudging.length > 0 ? line.selfJudging.join(' ') : null,
        methodologyHref: line.methodologyHref,
      };
      return [[p.modelId, cell] as const];
    }),
  );
}

const latency = (ms: number | null) => (ms === null ? '—' : ms >= 1000 ? `${roundHalfUp(ms / 1000, 1).toFixed(1)} s` : `${Math.round(ms)} ms`);

/** Aggregates (already in board order) → table rows; `rank` is absent for models listed apart. */
export function leaderboardEntries(
  aggregates: readonly (ModelAggregate | RankedAggregate)[],
  names: ReadonlyMap<string, string>,
  boardBlueprints?: number,
  opts: { tag?: string | null; judges?: ReadonlyMap<string, BoardJudgesView>; singleRun?: ReadonlyMap<string, string> } = {},
): LeaderboardEntryView[] {
  const leader = aggregates[0] && 'rank' in aggregates[0] ? aggregates[0].modelId : null;
  const board = opts.tag ? `tag:${opts.tag}` : 'all';
  return aggregates.map((a, i) => {
    const neighbour = 'band' in a && a.band ? (aggregates[i - 1] ?? aggregates[i + 1]) : undefined;
    const boardScope = { board, model: a.modelId };
    const run = a.intervalMethod === 'blueprint' || a.scoredBlueprints === 1 ? opts.singleRun?.get(a.modelId) : undefined;
    const scope = run ? { run, model: a.modelId } : boardScope;
    const scoreLabel = formatScore(a.score);
    const intervalLabel = formatInterval(a.ciLow, a.ciHigh);
    const ranked = 'rank' in a;
    return {
      bandLabel: 'bandLabel' in a ? a.bandLabel : null,
      tied: 'band' in a && a.band !== null && a.band.best !== a.band.worst,
      bandHref: neighbour && 'rank' in neighbour ? compareHref(a.modelId, neighbour.modelId, opts.tag) : null,
      costLabel: a.costPerPromptUsd === null ? '—' : formatUsd(a.costPerPromptUsd),
      latencyLabel: latency(a.latencyMsP50),
      compareWithLeaderHref: leader && ranked && a.modelId !== leader ? compareHref(leader, a.modelId, opts.tag) : null,
      rank: ranked ? a.rank : null,
      modelId: a.modelId,
      label: modelShortName(a.modelId, names.get(a.modelId)),
      href: href.model(a.modelId),
      score: a.score,
      scoreLabel,
      intervalLabel,
      intervalText: describeInterval(a.ciLow, a.ciHigh),
      bar: intervalBar(a.score, a.ciLow, a.ciHigh),
      intervalNote: boardIntervalNote(a),
      blueprints: a.blueprints,
      blueprintsLabel: `${a.scoredBlueprints} of ${boardBlueprints ?? a.blueprints}`,
      verdictCoverageLabel: verdictCoverageLabel(a.coverage),
      errors: a.errors,
      judges: opts.judges?.get(a.modelId) ?? null,
      figures: {
        score: figureAttrs('score', scope, scoreLabel),
        interval: intervalLabel ? figureAttrs('interval', scope, intervalLabel) : null,
        rank: ranked && a.rank !== null ? figureAttrs('rank', boardScope, String(a.rank)) : null,
        band: ranked ? figureAttrs('band', boardScope, boardPlaceLabel(a)) : null,
      },
    };
  });
}

/** The tags of the blueprints that have results, most blueprints first. */
export function tagChips(rows: readonly Pick<LeaderboardRow, 'tags' | 'blueprintId'>[], active: string | null): TagChipView[] {
  const blueprintsByTag = new Map<string, Set<string>>();
  for (const r of rows) for (const t of r.tags) blueprintsByTag.set(t, (blueprintsByTag.get(t) ?? new Set()).add(r.blueprintId));
  return [...blueprintsByTag.entries()]
    .sort(([ta, a], [tb, b]) => b.size - a.size || ta.localeCompare(tb))
    .map(([tag, set]) => ({ tag, href: href.home(tag), label: `${tag} (${set.size})`, active: tag === active }));
}

/** The overall board, or the board of one tag, as the home page shows it. */
export function leaderboardView(
  rows: readonly LeaderboardRow[],
  names: ReadonlyMap<string, string>,
  tag: string | null,
  /** `board`: the board as stored (db/commands/board-snapshots.ts); without it, made here from `rows` and `prompts`. */
  opts: { minCoverage?: number; prompts?: readonly BoardPromptCell[]; judges?: readonly PooledModelReliability[]; board?: Leaderboard } = {},
): LeaderboardView {
  const board = opts.board ?? leaderboard(rows, { tag, minCoverage: opts.minCoverage, prompts: opts.prompts });
  const judges = boardJudges(opts.judges ?? [], names, tag);
  const { blueprintCount, requiredBlueprints: required, minCoverage } = board;
  // the run behind a model's row when it scored on one blueprint of the board: its figures are that run's
  const scoredRuns = new Map<string, string[]>();
  for (const r of rows) if (r.score !== null && (tag === null || r.tags.includes(tag))) scoredRuns.set(r.modelId, [...(scoredRuns.get(r.modelId) ?? []), r.runId]);
  const singleRun = new Map([...scoredRuns.entries()].flatMap(([m, runs]) => (runs.length === 1 ? [[m, runs[0] as string] as const] : [])));
  const rule = `Ranked: models with a score on at least ${plural(required, 'blueprint')} of ${blueprintCount} (${roundHalfUp(minCoverage * 100, 0)}%).`;
  return {
    title: tag ? `Leaderboard: ${tag}` : 'Overall leaderboard',
    caption: `${tag ? `Models on the ${plural(blueprintCount, 'blueprint')} tagged “${tag}”` : `Models across ${plural(blueprintCount, 'blueprint')}`}: mean score (0–100) over the blueprints each model scored on, each from the latest run in which it scored, with a 95% interval${board.pairs ? ' that allows for blueprint-to-blueprint variation (a bootstrap over blueprints, then over prompts)' : ''}. ${rule} Coverage: the share of the judged and of the deterministic verdicts behind a score that got a result. Judges α: how far the judges agreed on the model’s judged points over the runs it is ranked on (pooled Krippendorff’s α; reliable from 0.80, tentative from 0.667), with the share of them flagged as disagreement; ⚠ marks a judge of the model’s own model or maker.`,
    entries: leaderboardEntries(board.ranked, names, blueprintCount, { tag, judges, singleRun }),
    bandsCaption: board.ranked.some((r) => r.band)
      ? 'Band: the ranks a model could hold once chance is allowed for. Every pair of ranked models is compared on the prompts they share (paired t-test, Holm-corrected across all pairs at 5%); models whose difference is not significant share a band; select a band for the comparison behind it. Cost and latency: the mean cost per prompt and median reply latency of the runs each model is ranked on.'
      : null,
    unranked: board.unranked.map((a) => ({
      ...(leaderboardEntries([a], names, blueprintCount, { tag, judges, singleRun })[0] as LeaderboardEntryView),
      why: `scored on ${a.scoredBlueprints} of ${blueprintCount} blueprints; ranking needs ${required}`,
    })),
    unrankedCaption: `Listed apart, not ranked: a model needs a score on at least ${plural(required, 'blueprint')} of ${blueprintCount} (${roundHalfUp(minCoverage * 100, 0)}%) to be compared fairly with the others (ASSAY_LEADERBOARD_MIN_COVERAGE).`,
    blueprintCount,
    requiredBlueprints: required,
  };
}
