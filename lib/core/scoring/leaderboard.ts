/**
 * Leaderboard, the level above the model score on a blueprint: a model's score on
 * a board is the mean of its scores on the board's blueprints it was run on (each from the
 * blueprint's latest complete run), overall or on the blueprints of one tag.
 *
 * The 95% interval accounts for blueprint-to-blueprint variance: given the prompt scores behind
 * each row (`prompts`), it is a hierarchical percentile bootstrap, resampling the model's
 * blueprints with replacement and then the prompts inside each drawn blueprint, the statistic
 * being the mean of blueprint means (Davison & Hinkley 1997, §3.8, two-stage sampling). It
 * answers "how sure are we of this model's average over blueprints like these": a model that
 * is brilliant on one blueprint and poor on another gets a wide interval even when each
 * blueprint alone is measured precisely. Seeded (`seed`, mixed with the model id, so adding a
 * model never moves another model's interval): the same rows give the same interval. With one
 * blueprint it is the prompt bootstrap of that blueprint. Without prompt scores it falls back
 * to combining the blueprints' own intervals as normal standard errors (√Σse² / n), which
 * counts only within-blueprint noise.
 *
 * Tied bands (bands.ts): with prompt scores, every pair of ranked models gets a paired test on
 * the prompts they share, Holm-corrected, and each ranked row gets its rank band.
 *
 * Cost and latency beside quality: per model, the mean over the blueprints it scored on of its
 * run's cost per prompt (run cost ÷ prompts) and of its run's median reply latency.
 *
 * Coverage: a model scored on 1 blueprint is not comparable with one scored on 5. Each
 * aggregate carries its blueprint coverage (scored on N of the board's M blueprints) and its
 * verdict coverage (summed over the blueprints that scored); only models whose blueprint
 * coverage reaches the minimum share are ranked, the others are kept apart, unranked.
 * Unscored is not zero: a blueprint with no score is counted, never averaged in as 0.
 */
import { xoroshiro128plus, type RandomGenerator } from 'pure-rand';
import { z } from 'zod';
import { bandLabel, RankBandSchema, rankBands, type PairTest, type RankBand } from './bands';
import { holm } from './holm';
import { DEFAULT_LEVEL, DEFAULT_RESAMPLES, quantileSorted } from './bootstrap';
import { CoverageSchema, sumCoverage } from './coverage';
import { boardPairedComparison, type BoardPromptScore } from './paired';

/** One model's result on one blueprint, as stored by the run summariser. */
export const BoardRowSchema = CoverageSchema.partial().extend({
  blueprintId: z.string(),
  modelId: z.string(),
  tags: z.array(z.string()),
  score: z.number().min(0).max(1).nullable(),
  ciLow: z.number().nullable(),
  ciHigh: z.number().nullable(),
  errorCount: z.number().int().nonnegative(),
  /** The row's run, for this model: total cost, prompts, median reply latency (run_model_summaries). */
  costUsd: z.number().nonnegative().nullable().optional(),
  promptCount: z.number().int().nonnegative().nullable().optional(),
  latencyMsP50: z.number().nonnegative().nullable().optional(),
});
export type BoardRow = z.infer<typeof BoardRowSchema>;

/** One model's score on one prompt of a board's blueprint (run_cell_summaries of the row's run). */
export type BoardPromptRow = BoardPromptScore & { modelId: string };

export const BoardIntervalMethodSchema = z.enum(['hierarchical-bootstrap', 'combined-normal', 'blueprint']);
export type BoardIntervalMethod = z.infer<typeof BoardIntervalMethodSchema>;

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
  /** How the interval was made; null without one. */
  intervalMethod: BoardIntervalMethodSchema.nullable(),
  /** The scored prompts the hierarchical bootstrap resampled (its n; its clusters are the scored blueprints), or the one blueprint's prompts its interval rests on; null for the combined method. */
  intervalPrompts: z.number().int().nonnegative().nullable(),
  /** Mean over the scored blueprints of the run's cost per prompt (USD); null when no run reports a cost. */
  costPerPromptUsd: z.number().nonnegative().nullable(),
  /** Mean over the scored blueprints of the run's median reply latency (ms); null when none is known. */
  latencyMsP50: z.number().nonnegative().nullable(),
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

type AggregatedRow = Pick<BoardRow, 'score' | 'ciLow' | 'ciHigh' | 'errorCount'> &
  Partial<z.infer<typeof CoverageSchema>> &
  Partial<Pick<BoardRow, 'blueprintId' | 'costUsd' | 'promptCount' | 'latencyMsP50'>>;

/** The board's bootstrap settings; `seed` makes every interval reproducible. */
export interface BoardBootstrapOptions {
  seed?: number;
  resamples?: number;
  level?: number;
}

export const DEFAULT_BOARD_SEED = 20261201;

/** FNV-1a of a string, as a 32-bit seed: the board mixes the model id into its seed; runs seed their bootstraps with their ids (summarise.ts, drift-check.ts). */
export function hashSeed(text: string, seed = 0): number {
  let h = (2166136261 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h | 0;
}

/** A blueprint's scored prompts, as the hierarchical bootstrap resamples them. */
export type BlueprintSample = readonly { weight: number; score: number }[];

/**
 * Hierarchical (two-stage) percentile bootstrap of the mean of blueprint means: each resample
 * draws the blueprints with replacement, then the prompts of each drawn blueprint with
 * replacement, and takes the prompt-weighted mean per drawn blueprint, then their plain mean.
 * The generator is cloned, never advanced. Needs at least one blueprint with a prompt.
 */
export function hierarchicalBootstrap(blueprints: readonly BlueprintSample[], rng: RandomGenerator, opts: { resamples?: number; level?: number } = {}): { low: number; high: number; level: number; resamples: number } {
  const resamples = opts.resamples ?? DEFAULT_RESAMPLES;
  const level = opts.level ?? DEFAULT_LEVEL;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0,1), e.g. 0.95; got ${level}`);
  if (blueprints.length === 0 || blueprints.some((b) => b.length === 0)) throw new RangeError('every blueprint needs at least one scored prompt to be resampled');
  const g = rng.clone();
  // An index in [0, n) from one 32-bit draw (bias ≤ n / 2³², below 10⁻⁷ for any real blueprint):
  // a page builds a board per request, and rejection sampling per draw cost 5× as much here.
  const draw = (n: number) => Math.floor(((g.unsafeNext() >>> 0) / 4294967296) * n);
  const B = blueprints.length;
  const weights = blueprints.map((b) => Float64Array.from(b, (p) => p.weight));
  const scores = blueprints.map((b) => Float64Array.from(b, (p) => p.score));
  const stats = new Array<number>(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let k = 0; k < B; k++) {
      // with one blueprint there is nothing to draw between: the prompt bootstrap alone
      const j = B === 1 ? 0 : draw(B);
      const w = weights[j] as Float64Array;
      const x = scores[j] as Float64Array;
      let total = 0;
      let weight = 0;
      for (let i = 0; i < w.length; i++) {
        const d = draw(w.length);
        total += (w[d] as number) * (x[d] as number);
        weight += w[d] as number;
      }
      sum += total / weight;
    }
    stats[r] = sum / B;
  }
  stats.sort((x, y) => x - y);
  const alpha = 1 - level;
  return { low: quantileSorted(stats, alpha / 2), high: quantileSorted(stats, 1 - alpha / 2), level, resamples };
}

const meanOf = (xs: readonly number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null);

/**
 * One model's rows (one per blueprint) → its aggregate. `prompts`: the model's prompt scores
 * per blueprint id; when every scored row has some, the interval is the hierarchical bootstrap.
 */
export function aggregateRows(
  modelId: string,
  rows: readonly AggregatedRow[],
  opts: BoardBootstrapOptions & { prompts?: ReadonlyMap<string, BlueprintSample> } = {},
): ModelAggregate {
  const scored = rows.filter((r) => r.score !== null) as (AggregatedRow & { score: number })[];
  const errors = rows.reduce((s, r) => s + r.errorCount, 0);
  const coverage = sumCoverage(
    scored.map((r) => ({ judgedVerdicts: r.judgedVerdicts ?? 0, judgedScored: r.judgedScored ?? 0, deterministicVerdicts: r.deterministicVerdicts ?? 0, deterministicScored: r.deterministicScored ?? 0 })),
  );
  const costs = scored.flatMap((r) => (r.costUsd !== null && r.costUsd !== undefined && r.promptCount ? [r.costUsd / r.promptCount] : []));
  const latencies = scored.flatMap((r) => (r.latencyMsP50 !== null && r.latencyMsP50 !== undefined ? [r.latencyMsP50] : []));
  const base = { modelId, blueprints: rows.length, scoredBlueprints: scored.length, errors, coverage, costPerPromptUsd: meanOf(costs), latencyMsP50: meanOf(latencies) };
  if (scored.length === 0) return { ...base, score: null, ciLow: null, ciHigh: null, intervalMethod: null, intervalPrompts: null };
  const score = scored.reduce((s, r) => s + r.score, 0) / scored.length;
  // One blueprint: its own stored interval (the run's, made once when the run was summarised), so a
  // board over one blueprint shows the figure the blueprint's and the run's pages show. A prompt
  // bootstrap here gave a second interval for the same quantity (60.8–95.9 beside 50.9–95.6).
  if (scored.length === 1) {
    const only = scored[0] as (typeof scored)[number];
    const intervalPrompts = only.ciLow === null ? null : (only.promptCount ?? null);
    return { ...base, score, ciLow: only.ciLow, ciHigh: only.ciHigh, intervalMethod: only.ciLow === null ? null : 'blueprint', intervalPrompts };
  }
  const samples = scored.map((r) => (r.blueprintId === undefined ? undefined : opts.prompts?.get(r.blueprintId)));
  if (samples.every((s) => s !== undefined && s.length > 0)) {
    const rng = xoroshiro128plus(hashSeed(modelId, opts.seed ?? DEFAULT_BOARD_SEED));
    const ci = hierarchicalBootstrap(samples as BlueprintSample[], rng, opts);
    const intervalPrompts = (samples as BlueprintSample[]).reduce((n, b) => n + b.length, 0);
    return { ...base, score, ciLow: clamp01(ci.low), ciHigh: clamp01(ci.high), intervalMethod: 'hierarchical-bootstrap', intervalPrompts };
  }
  const withCi = scored.filter((r) => r.ciLow !== null && r.ciHigh !== null);
  if (withCi.length === 0) return { ...base, score, ciLow: null, ciHigh: null, intervalMethod: null, intervalPrompts: null };
  const variance = withCi.reduce((s, r) => s + (((r.ciHigh as number) - (r.ciLow as number)) / (2 * Z95)) ** 2, 0);
  const se = Math.sqrt(variance) / scored.length;
  return { ...base, score, ciLow: clamp01(score - Z95 * se), ciHigh: clamp01(score + Z95 * se), intervalMethod: 'combined-normal', intervalPrompts: null };
}

/** Per model, per blueprint id: the scored prompts. */
function samplesByModel(prompts: readonly BoardPromptRow[]): Map<string, Map<string, { weight: number; score: number }[]>> {
  const out = new Map<string, Map<string, { weight: number; score: number }[]>>();
  for (const p of prompts) {
    if (p.score === null) continue;
    const byBlueprint = out.get(p.modelId) ?? new Map<string, { weight: number; score: number }[]>();
    const list = byBlueprint.get(p.blueprintId);
    if (list) list.push({ weight: p.weight, score: p.score });
    else byBlueprint.set(p.blueprintId, [{ weight: p.weight, score: p.score }]);
    out.set(p.modelId, byBlueprint);
  }
  return out;
}

/** Rows of many models → one aggregate per model, over the rows given (and their prompt scores, if any). */
export function aggregateByModel(rows: readonly (AggregatedRow & { modelId: string })[], opts: BoardBootstrapOptions & { prompts?: readonly BoardPromptRow[] } = {}): ModelAggregate[] {
  const byModel = new Map<string, AggregatedRow[]>();
  for (const r of rows) (byModel.get(r.modelId) ?? byModel.set(r.modelId, []).get(r.modelId)!).push(r);
  const samples = opts.prompts ? samplesByModel(opts.prompts) : null;
  return [...byModel.entries()].map(([id, list]) => aggregateRows(id, list, { ...opts, prompts: samples?.get(id) }));
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

export const RankedAggregateSchema = ModelAggregateSchema.extend({
  rank: z.number().int().positive().nullable(),
  /** The model's statistically tied band (bands.ts); null without prompt scores to test pairs on. */
  band: RankBandSchema.nullable(),
  /** "rank 2–4"; null without a band. */
  bandLabel: z.string().nullable(),
});
export type RankedAggregate = z.infer<typeof RankedAggregateSchema>;

/** A ranked model's place as a board shows it: its tied band ("rank 1–3") when the board has bands, else its rank. */
export function boardPlaceLabel(a: Pick<RankedAggregate, 'bandLabel' | 'rank'>): string {
  return a.bandLabel ?? `rank ${a.rank ?? '—'}`;
}

/** Every pair of a board's ranked models, tested on the prompts they share, with its Holm-adjusted p over the whole family. */
export const BoardPairTestSchema = z.object({
  i: z.number().int().nonnegative(),
  j: z.number().int().nonnegative(),
  p: z.number().min(0).max(1).nullable(),
  /** Mean difference i − j (> 0: i ahead). */
  diff: z.number().nullable(),
  /** Holm-adjusted over every tested pair of the board (null when untested). */
  adjustedP: z.number().min(0).max(1).nullable(),
  /** Told apart at the board's level after the correction. */
  separated: z.boolean(),
});
export type BoardPairTest = z.infer<typeof BoardPairTestSchema>;

/**
 * A board as made and as stored (board_snapshots): the one shape its writer and every page that
 * reads it share.
 */
export const LeaderboardSchema = z.object({
  /** The tag whose blueprints the board covers; null for the overall board (and a blueprint's own). */
  tag: z.string().nullable(),
  blueprintCount: z.number().int().nonnegative(),
  minCoverage: z.number().min(0).max(1),
  /** Blueprints a model needs a score on to be ranked. */
  requiredBlueprints: z.number().int().nonnegative(),
  /** Models at or over the required coverage, best first, with competition ranks. */
  ranked: z.array(RankedAggregateSchema),
  /** Models under the required coverage, best first: listed, never ranked. */
  unranked: z.array(ModelAggregateSchema),
  /** Every pair of ranked models (indices into `ranked`) as tested and Holm-corrected for the bands; null without prompt scores. */
  pairs: z.array(BoardPairTestSchema).nullable(),
});
export type Leaderboard = z.infer<typeof LeaderboardSchema>;

/**
 * The overall board, or the board of one tag. `minCoverage`: the share of the board's
 * blueprints a model needs a score on to be ranked (ASSAY_LEADERBOARD_MIN_COVERAGE).
 */
export function leaderboard(
  rows: readonly BoardRow[],
  opts: BoardBootstrapOptions & { tag?: string | null; minCoverage?: number; prompts?: readonly BoardPromptRow[] } = {},
): Leaderboard {
  const tag = opts.tag ?? null;
  const minCoverage = opts.minCoverage ?? DEFAULT_MIN_BLUEPRINT_COVERAGE;
  const selected = tag ? rows.filter((r) => r.tags.includes(tag)) : rows;
  const blueprintIds = new Set(selected.map((r) => r.blueprintId));
  const blueprintCount = blueprintIds.size;
  const required = requiredBlueprints(blueprintCount, minCoverage);
  // only the prompts of the rows on this board: the blueprint and the run each row was scored on
  const rowKeys = new Set(selected.filter((r) => r.score !== null).map((r) => `${r.blueprintId}\u0000${r.modelId}`));
  const prompts = opts.prompts?.filter((p) => rowKeys.has(`${p.blueprintId}\u0000${p.modelId}`));
  const aggregates = aggregateByModel(selected, { ...opts, prompts }).sort(compareAggregates);
  const ranked = aggregates.filter((a) => a.scoredBlueprints >= required);
  const ranks = competitionRanks(ranked.map((a) => a.score));
  const pairs = prompts ? boardPairTests(ranked.map((a) => a.modelId), prompts, opts.level) : null;
  const bands = pairs ? rankBands(ranked.length, pairs, 1 - (opts.level ?? DEFAULT_LEVEL)) : null;
  return {
    tag,
    blueprintCount,
    minCoverage,
    requiredBlueprints: required,
    ranked: ranked.map((a, i) => {
      const band = bands?.[i] ?? null;
      return { ...a, rank: ranks[i] ?? null, band, bandLabel: band ? bandLabel(band) : null };
    }),
    unranked: aggregates.filter((a) => a.scoredBlueprints < required),
    pairs,
  };
}

/** Every model's prompt scores on a board, by model id. */
export function promptsByModel(prompts: readonly BoardPromptRow[]): Map<string, BoardPromptRow[]> {
  const out = new Map<string, BoardPromptRow[]>();
  for (const p of prompts) {
    const list = out.get(p.modelId);
    if (list) list.push(p);
    else out.set(p.modelId, [p]);
  }
  return out;
}


/** The paired test of every pair of ranked models (in order), Holm-corrected as a family: what the bands are made of. */
export function boardPairTests(modelIds: readonly string[], prompts: readonly BoardPromptRow[], level = DEFAULT_LEVEL): BoardPairTest[] {
  const byModel = promptsByModel(prompts);
  const tests: PairTest[] = [];
  for (let i = 0; i < modelIds.length; i++) {
    for (let j = i + 1; j < modelIds.length; j++) {
      const c = boardPairedComparison(byModel.get(modelIds[i] as string) ?? [], byModel.get(modelIds[j] as string) ?? [], level);
      tests.push({ i, j, p: c.tTestP, diff: c.meanDiff });
    }
  }
  // the same family and α as rankBands: the pairs with a test
  const usable = tests.filter((t) => t.p !== null && t.diff !== null);
  const { adjusted, rejected } = holm(usable.map((t) => t.p as number), 1 - level);
  return tests.map((t) => {
    const k = usable.indexOf(t);
    return { ...t, adjustedP: k < 0 ? null : (adjusted[k] as number), separated: k >= 0 && (rejected[k] as boolean) && t.diff !== 0 };
  });
}

/** Bands of the ranked models (in order) from the paired test of every pair (bands.ts). */
export function boardBands(modelIds: readonly string[], prompts: readonly BoardPromptRow[], level = DEFAULT_LEVEL): RankBand[] {
  return rankBands(modelIds.length, boardPairTests(modelIds, prompts, level), 1 - level);
}
