/**
 * Leaderboards (SPEC §3): a model's score is the mean of its scores on the blueprints it was
 * run on (each from the blueprint's latest complete run), overall and per tag.
 *
 * The 95% interval combines the blueprints' own bootstrap intervals: each is read as a normal
 * standard error (width / 2·1.96) and the mean's error is √Σse² / n. It answers "how sure are
 * we of this model's average over these blueprints", which is what the table claims; with one
 * blueprint it is that blueprint's interval itself. Ordering, ranks and rounding live here.
 *
 * Coverage: a model scored on 1 blueprint is not comparable with one scored on 5. Each entry
 * states its blueprint coverage (scored on N of the board's M blueprints) and its verdict
 * coverage (judged and deterministic verdicts that got a result); only models whose blueprint
 * coverage reaches the configured minimum (ASSAY_LEADERBOARD_MIN_COVERAGE) are ranked, the
 * others are listed apart with why.
 */
import { coverageShare, sumCoverage, type Coverage } from '@/lib/core';
import type { LeaderboardRow } from '../db/queries/leaderboard';
import { describeInterval, formatInterval, formatScore, modelShortName, plural, roundHalfUp } from './format';
import { href } from './urls';

const Z95 = 1.959964;

export interface ModelAggregate {
  modelId: string;
  score: number | null;
  ciLow: number | null;
  ciHigh: number | null;
  blueprints: number;
  scoredBlueprints: number;
  errors: number;
  /** Verdict coverage summed over the blueprints that scored. */
  coverage: Coverage;
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** One model's rows (one per blueprint) → its aggregate. */
type AggregatedRow = Pick<LeaderboardRow, 'score' | 'ciLow' | 'ciHigh' | 'errorCount'> & Partial<Coverage>;

export function aggregateRows(modelId: string, rows: readonly AggregatedRow[]): ModelAggregate {
  const scored = rows.filter((r) => r.score !== null) as (AggregatedRow & { score: number })[];
  const errors = rows.reduce((s, r) => s + r.errorCount, 0);
  const coverage = sumCoverage(
    scored.map((r) => ({ judgedVerdicts: r.judgedVerdicts ?? 0, judgedScored: r.judgedScored ?? 0, deterministicVerdicts: r.deterministicVerdicts ?? 0, deterministicScored: r.deterministicScored ?? 0 })),
  );
  const base = { modelId, blueprints: rows.length, scoredBlueprints: scored.length, errors, coverage };
  if (scored.length === 0) return { ...base, score: null, ciLow: null, ciHigh: null };
  const score = scored.reduce((s, r) => s + r.score, 0) / scored.length;
  if (scored.length === 1) {
    const only = scored[0] as (typeof scored)[number];
    return { ...base, score, ciLow: only.ciLow, ciHigh: only.ciHigh };
  }
  const withCi = scored.filter((r) => r.ciLow !== null && r.ciHigh !== null);
  if (withCi.length === 0) return { ...base, score, ciLow: null, ciHigh: null };
  const variance = withCi.reduce((s, r) => s + (((r.ciHigh as number) - (r.ciLow as number)) / (2 * Z95)) ** 2, 0);
  const se = Math.sqrt(variance) / scored.length;
  return { ...base, score, ciLow: clamp01(score - Z95 * se), ciHigh: clamp01(score + Z95 * se) };
}

/** Best first: score (no score last), then the lower bound, then the id for a stable order. */
export function compareAggregates(a: ModelAggregate, b: ModelAggregate): number {
  if (a.score === null || b.score === null) return a.score === b.score ? a.modelId.localeCompare(b.modelId) : a.score === null ? 1 : -1;
  return b.score - a.score || (b.ciLow ?? -1) - (a.ciLow ?? -1) || a.modelId.localeCompare(b.modelId);
}

/** Competition ranks (1, 2, 2, 4) on the score as displayed: equal-looking scores share a rank. */
export function competitionRanks(scores: readonly (number | null)[], digits = 1): (number | null)[] {
  const ranks: (number | null)[] = [];
  scores.forEach((s, i) => {
    if (s === null) return ranks.push(null);
    const prev = i > 0 ? scores[i - 1] : null;
    const same = prev !== null && prev !== undefined && roundHalfUp(prev * 100, digits) === roundHalfUp(s * 100, digits);
    return ranks.push(same ? (ranks[i - 1] as number) : i + 1);
  });
  return ranks;
}

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
  blueprints: number;
  blueprintsLabel: string;
  /** "judged 96% · deterministic 100%": the share of the verdicts behind the score that got a result. */
  verdictCoverageLabel: string;
  errors: number;
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

export function leaderboardEntries(aggregates: ModelAggregate[], names: ReadonlyMap<string, string>, boardBlueprints?: number, opts: { ranked?: boolean } = {}): LeaderboardEntryView[] {
  const sorted = [...aggregates].sort(compareAggregates);
  const ranks = opts.ranked === false ? sorted.map(() => null) : competitionRanks(sorted.map((a) => a.score));
  return sorted.map((a, i) => ({
    rank: ranks[i] ?? null,
    modelId: a.modelId,
    label: modelShortName(a.modelId, names.get(a.modelId)),
    href: href.model(a.modelId),
    score: a.score,
    scoreLabel: formatScore(a.score),
    intervalLabel: formatInterval(a.ciLow, a.ciHigh),
    intervalText: describeInterval(a.ciLow, a.ciHigh),
    bar: intervalBar(a.score, a.ciLow, a.ciHigh),
    blueprints: a.blueprints,
    blueprintsLabel: `${a.scoredBlueprints} of ${boardBlueprints ?? a.blueprints}`,
    verdictCoverageLabel: verdictCoverageLabel(a.coverage),
    errors: a.errors,
  }));
}

/** Rows → per-model aggregates over the rows given. */
export function aggregateByModel(rows: readonly LeaderboardRow[]): ModelAggregate[] {
  const byModel = new Map<string, LeaderboardRow[]>();
  for (const r of rows) byModel.set(r.modelId, [...(byModel.get(r.modelId) ?? []), r]);
  return [...byModel.entries()].map(([id, list]) => aggregateRows(id, list));
}

/** The tags of the blueprints that have results, most blueprints first. */
export function tagChips(rows: readonly LeaderboardRow[], active: string | null): TagChipView[] {
  const blueprintsByTag = new Map<string, Set<string>>();
  for (const r of rows) for (const t of r.tags) blueprintsByTag.set(t, (blueprintsByTag.get(t) ?? new Set()).add(r.blueprintId));
  return [...blueprintsByTag.entries()]
    .sort(([ta, a], [tb, b]) => b.size - a.size || ta.localeCompare(tb))
    .map(([tag, set]) => ({ tag, href: href.home(tag), label: `${tag} (${set.size})`, active: tag === active }));
}

/** Blueprints a model needs a score on, out of `total`, to be ranked at `minCoverage` (at least 1). */
export function requiredBlueprints(total: number, minCoverage: number): number {
  return Math.max(1, Math.ceil(total * minCoverage - 1e-9));
}

/**
 * The overall board, or the board of one tag. `minCoverage`: the share of the board's
 * blueprints a model needs a score on to be ranked (ASSAY_LEADERBOARD_MIN_COVERAGE).
 */
export function leaderboardView(rows: readonly LeaderboardRow[], names: ReadonlyMap<string, string>, tag: string | null, opts: { minCoverage?: number } = {}): LeaderboardView {
  const minCoverage = opts.minCoverage ?? 0.5;
  const selected = tag ? rows.filter((r) => r.tags.includes(tag)) : rows;
  const blueprintCount = new Set(selected.map((r) => r.blueprintId)).size;
  const required = requiredBlueprints(blueprintCount, minCoverage);
  const aggregates = aggregateByModel(selected);
  const ranked = aggregates.filter((a) => a.scoredBlueprints >= required);
  const apart = aggregates.filter((a) => a.scoredBlueprints < required);
  const rule = `Ranked: models with a score on at least ${plural(required, 'blueprint')} of ${blueprintCount} (${roundHalfUp(minCoverage * 100, 0)}%).`;
  return {
    title: tag ? `Leaderboard: ${tag}` : 'Overall leaderboard',
    caption: `${tag ? `Models on the ${plural(blueprintCount, 'blueprint')} tagged “${tag}”` : `Models across ${plural(blueprintCount, 'blueprint')}`}: mean score (0–100) over the blueprints each model scored on, each from the latest run in which it scored, with a 95% interval. ${rule} Coverage: the share of the judged and of the deterministic verdicts behind a score that got a result.`,
    entries: leaderboardEntries(ranked, names, blueprintCount),
    unranked: leaderboardEntries(apart, names, blueprintCount, { ranked: false }).map((e) => {
      const a = apart.find((x) => x.modelId === e.modelId)!;
      return { ...e, why: `scored on ${a.scoredBlueprints} of ${blueprintCount} blueprints; ranking needs ${required}` };
    }),
    unrankedCaption: `Listed apart, not ranked: a model needs a score on at least ${plural(required, 'blueprint')} of ${blueprintCount} (${roundHalfUp(minCoverage * 100, 0)}%) to be compared fairly with the others (ASSAY_LEADERBOARD_MIN_COVERAGE).`,
    blueprintCount,
    requiredBlueprints: required,
  };
}
