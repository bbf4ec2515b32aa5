/**
 * Leaderboard (SPEC §3), the level above the model score on a blueprint: a model's score on
 * a board is the mean of its scores on the board's blueprints it was run on (each from the
 * blueprint's latest complete run), overall or on the blueprints of one tag.
 *
 * The 95% interval combines the blueprints' own bootstrap intervals: each is read as a normal
 * standard error (width / 2·1.96) and the mean's error is √Σse² / n. It answers "how sure are
 * we of this model's average over these blueprints", which is what a board claims; with one
 * blueprint it is that blueprint's interval itself.
 *
 * Coverage: a model scored on 1 blueprint is not comparable with one scored on 5. Each
 * aggregate carries its blueprint coverage (scored on N of the board's M blueprints) and its
 * verdict coverage (summed over the blueprints that scored); only models whose blueprint
 * coverage reaches the minimum share are ranked, the others are kept apart, unranked.
 * Unscored is not zero: a blueprint with no score is counted, never averaged in as 0.
 */
import { z } from 'zod';
import { CoverageSchema, sumCoverage } from './coverage';

/** One model's result on one blueprint, as stored by the run summariser. */
export const BoardRowSchema = CoverageSchema.partial().extend({
  blueprintId: z.string(),
  modelId: z.string(),
  tags: z.array(z.string()),
  score: z.number().min(0).max(1).nullable(),
  ciLow: z.number().nullable(),
  ciHigh: z.number().nullable(),
  errorCount: z.number().int().nonnegative(),
});
export type BoardRow = z.infer<typeof BoardRowSchema>;

export const ModelAggregateSchema = z.object({
  modelId: z.string(),
  /** Mean over the blueprints that scored; null when none did. */
  score: z.number().min(0).max(1).nullable(),
  ciLow: z.number().min(0).max(1).nullable(),
  ciHigh: z.number().min(0).max(1).nullable(),
  /** Blueprints the model has a row on, and how many of them scored. */
  blueprints: z.number().int().nonnegative(),
  scoredBlueprints: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  /** Verdict coverage summed over the blueprints that scored. */
  coverage: CoverageSchema,
});
export type ModelAggregate = z.infer<typeof ModelAggregateSchema>;

/** The two-sided 95% normal quantile. */
const Z95 = 1.959964;

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** Rounds half away from zero at `digits` decimals, immune to binary noise (0.735 → 0.74, not 0.73). */
export function roundHalfUp(x: number, digits: number): number {
  const f = 10 ** digits;
  const scaled = Number((Math.abs(x) * f).toPrecision(12));
  return (Math.sign(x) * Math.round(scaled)) / f;
}

type AggregatedRow = Pick<BoardRow, 'score' | 'ciLow' | 'ciHigh' | 'errorCount'> & Partial<z.infer<typeof CoverageSchema>>;

/** One model's rows (one per blueprint) → its aggregate. */
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

/** Rows of many models → one aggregate per model, over the rows given. */
export function aggregateByModel(rows: readonly (AggregatedRow & { modelId: string })[]): ModelAggregate[] {
  const byModel = new Map<string, AggregatedRow[]>();
  for (const r of rows) byModel.set(r.modelId, [...(byModel.get(r.modelId) ?? []), r]);
  return [...byModel.entries()].map(([id, list]) => aggregateRows(id, list));
}

/** Best first: score (no score last), then the lower bound, then the id for a stable order. */
export function compareAggregates(a: ModelAggregate, b: ModelAggregate): number {
  if (a.score === null || b.score === null) return a.score === b.score ? a.modelId.localeCompare(b.modelId) : a.score === null ? 1 : -1;
  return b.score - a.score || (b.ciLow ?? -1) - (a.ciLow ?? -1) || a.modelId.localeCompare(b.modelId);
}

/**
 * Competition ranks (1, 2, 2, 4) of scores already in order, on the score as displayed (out
 * of 100 at `digits` decimals): equal-looking scores share a rank. No score → no rank.
 */
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

/** Blueprints a model needs a score on, out of `total`, to be ranked at `minCoverage` (at least 1). */
export function requiredBlueprints(total: number, minCoverage: number): number {
  return Math.max(1, Math.ceil(total * minCoverage - 1e-9));
}

/** The share of a board's blueprints a model needs a score on to be ranked, unless configured. */
export const DEFAULT_MIN_BLUEPRINT_COVERAGE = 0.5;

export interface RankedAggregate extends ModelAggregate {
  rank: number | null;
}

export interface Leaderboard {
  /** The tag whose blueprints the board covers; null for the overall board. */
  tag: string | null;
  blueprintCount: number;
  minCoverage: number;
  /** Blueprints a model needs a score on to be ranked. */
  requiredBlueprints: number;
  /** Models at or over the required coverage, best first, with competition ranks. */
  ranked: RankedAggregate[];
  /** Models under the required coverage, best first: listed, never ranked. */
  unranked: ModelAggregate[];
}

/**
 * The overall board, or the board of one tag. `minCoverage`: the share of the board's
 * blueprints a model needs a score on to be ranked (ASSAY_LEADERBOARD_MIN_COVERAGE).
 */
export function leaderboard(rows: readonly BoardRow[], opts: { tag?: string | null; minCoverage?: number } = {}): Leaderboard {
  const tag = opts.tag ?? null;
  const minCoverage = opts.minCoverage ?? DEFAULT_MIN_BLUEPRINT_COVERAGE;
  const selected = tag ? rows.filter((r) => r.tags.includes(tag)) : rows;
  const blueprintCount = new Set(selected.map((r) => r.blueprintId)).size;
  const required = requiredBlueprints(blueprintCount, minCoverage);
  const aggregates = aggregateByModel(selected).sort(compareAggregates);
  const ranked = aggregates.filter((a) => a.scoredBlueprints >= required);
  const ranks = competitionRanks(ranked.map((a) => a.score));
  return {
    tag,
    blueprintCount,
    minCoverage,
    requiredBlueprints: required,
    ranked: ranked.map((a, i) => ({ ...a, rank: ranks[i] ?? null })),
    unranked: aggregates.filter((a) => a.scoredBlueprints < required),
  };
}
