/**
 * Leaderboards (SPEC §3): a model's score is the mean of its scores on the blueprints it was
 * run on (each from the blueprint's latest complete run), overall and per tag.
 *
 * The 95% interval combines the blueprints' own bootstrap intervals: each is read as a normal
 * standard error (width / 2·1.96) and the mean's error is √Σse² / n. It answers "how sure are
 * we of this model's average over these blueprints", which is what the table claims; with one
 * blueprint it is that blueprint's interval itself. Ordering, ranks and rounding live here.
 */
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
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** One model's rows (one per blueprint) → its aggregate. */
export function aggregateRows(modelId: string, rows: readonly Pick<LeaderboardRow, 'score' | 'ciLow' | 'ciHigh' | 'errorCount'>[]): ModelAggregate {
  const scored = rows.filter((r) => r.score !== null) as (Pick<LeaderboardRow, 'ciLow' | 'ciHigh' | 'errorCount'> & { score: number })[];
  const errors = rows.reduce((s, r) => s + r.errorCount, 0);
  const base = { modelId, blueprints: rows.length, scoredBlueprints: scored.length, errors };
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
  errors: number;
}

export interface LeaderboardView {
  title: string;
  caption: string;
  entries: LeaderboardEntryView[];
  blueprintCount: number;
}

export interface TagChipView {
  tag: string;
  href: string;
  label: string;
  active: boolean;
}

export function leaderboardEntries(aggregates: ModelAggregate[], names: ReadonlyMap<string, string>): LeaderboardEntryView[] {
  const sorted = [...aggregates].sort(compareAggregates);
  const ranks = competitionRanks(sorted.map((a) => a.score));
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
    blueprintsLabel: a.scoredBlueprints === a.blueprints ? String(a.blueprints) : `${a.scoredBlueprints} of ${a.blueprints}`,
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

/** The overall board, or the board of one tag. */
export function leaderboardView(rows: readonly LeaderboardRow[], names: ReadonlyMap<string, string>, tag: string | null): LeaderboardView {
  const selected = tag ? rows.filter((r) => r.tags.includes(tag)) : rows;
  const blueprintCount = new Set(selected.map((r) => r.blueprintId)).size;
  return {
    title: tag ? `Leaderboard: ${tag}` : 'Overall leaderboard',
    caption: `${tag ? `Models on the ${plural(blueprintCount, 'blueprint')} tagged “${tag}”` : `Models across ${plural(blueprintCount, 'blueprint')}`}: mean score (0–100) of each blueprint’s latest complete run, with a 95% interval.`,
    entries: leaderboardEntries(aggregateByModel(selected), names),
    blueprintCount,
  };
}
