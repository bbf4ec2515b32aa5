/**
 * Drift as a test, not a threshold. Between two consecutive scheduled runs of one blueprint
 * version, per model: the paired difference after − before over the prompts both runs scored
 * (`pairedComparison`: prompt difficulty cancels), with its 95% interval. A drift is flagged
 * when
 *
 *   1. the interval excludes 0 (the change is real at α = 0.05, two-sided), and
 *   2. the interval reaches the blueprint's minimum detectable effect (planner.ts, from the
 *      earlier run): max(|low|, |high|) ≥ MDE, i.e. the data do not show the change to be
 *      smaller than what the blueprint is sized to see.
 *
 * Why (2) reads the interval and not the point estimate: at a true change of exactly one MDE
 * the estimate exceeds the MDE only half the time (it is centred on it), so "|difference| >
 * MDE" would find a one-MDE drift in ~50% of blueprints, not the 80% the MDE is defined by
 * (drift-simulation.test.ts measures both). Reading the interval keeps the test's 80% power at
 * one MDE and its ≤ 5% false alarms at 0, and still refuses the tiny-but-significant changes the
 * MDE guards against: a shift of 0.01 ± 0.002 on a blueprint whose MDE is 0.1 is not flagged.
 *
 * The interval is the paired percentile bootstrap of `pairedComparison`, expanded for small
 * samples as Hesterberg recommends ("What Teachers Should Know About the Bootstrap", The
 * American Statistician 69(4), 2015, §4.2): the plain percentile interval is too narrow by
 * about √((n−1)/n) and uses z where t belongs, so its 95% covers about 94% at 100 prompts and
 * a drift test on it would raise false alarms above 5%. The expanded interval takes the
 * percentiles at the level whose normal quantile is √(n/(n−1)) · t₀.₉₇₅,ₙ₋₁ (≈ 95.4% at 100
 * prompts, 96.1% at 30).
 *
 * Served identity: when the provider's own `model` field or `system_fingerprint` differs between
 * the runs, the check says the provider changed the model behind the id.
 */
import type { RandomGenerator } from 'pure-rand';
import { z } from 'zod';
import type { BootstrapOptions } from './bootstrap';
import type { PromptResult } from './model';
import { comparePairs, matchPairs, pairedComparison } from './paired';
import { normalCdf, studentTQuantile } from './distributions';

/** How many of the prompts that moved most a check keeps for its deep links. */
export const MOVED_KEPT = 5;

/** One prompt's move between the runs (drift_checks.moved): what the drift page links to. */
export const DriftMovedSchema = z.object({
  promptKey: z.string(),
  before: z.number(),
  after: z.number(),
  /** after − before. */
  delta: z.number(),
});
export const DriftMovedListSchema = z.array(DriftMovedSchema);
export type DriftMoved = z.infer<typeof DriftMovedSchema>;

export const DriftTestSchema = z.object({
  paired: z.number().int().nonnegative(),
  unpaired: z.number().int().nonnegative(),
  /** Weighted mean of after − before over the paired prompts; null with none. */
  difference: z.number().nullable(),
  /** The 95% interval of the difference (expanded percentile bootstrap, see above). */
  interval: z.object({ low: z.number(), high: z.number() }).nullable(),
  mde: z.number().nonnegative().nullable(),
  excludesZero: z.boolean(),
  flagged: z.boolean(),
  reason: z.string(),
  moved: DriftMovedListSchema,
});
export type DriftTest = z.infer<typeof DriftTestSchema>;

/** A difference as points out of 100, as every page writes it: −0.5531 → "−55.3". */
const fmt = (x: number) => {
  const p = Math.round(Math.abs(x) * 1000) / 10;
  return p === 0 ? '0.0' : `${x < 0 ? '−' : ''}${p.toFixed(1)}`;
};

/** The rule, on numbers already computed: exported so a reader of the rule can test it alone. */
export function driftRule(interval: { low: number; high: number } | null, mde: number | null): { excludesZero: boolean; flagged: boolean; reason: string } {
  if (!interval) return { excludesZero: false, flagged: false, reason: 'fewer than two prompts were scored in both runs: nothing to test' };
  const { low, high } = interval;
  const range = `[${fmt(low)}, ${fmt(high)}] points`;
  const excludesZero = low > 0 || high < 0;
  if (!excludesZero) return { excludesZero, flagged: false, reason: `the interval ${range} includes 0: no evidence of a change` };
  if (mde === null) return { excludesZero, flagged: true, reason: `the interval ${range} excludes 0 (the earlier run has no MDE to compare with)` };
  const reach = Math.max(Math.abs(low), Math.abs(high));
  if (reach < mde) return { excludesZero, flagged: false, reason: `a real but small change: the interval ${range} lies inside ±${fmt(mde)}, the blueprint's MDE` };
  return { excludesZero, flagged: true, reason: `the interval ${range} excludes 0 and reaches the blueprint's MDE of ${fmt(mde)} points` };
}

/** The prompts scored in both runs, largest move first (ties by key), at most `keep`. */
export function mostMoved(before: readonly PromptResult[], after: readonly PromptResult[], keep = MOVED_KEPT): DriftMoved[] {
  const was = new Map(before.map((p) => [p.id, p.score]));
  const moves: DriftMoved[] = [];
  for (const p of after) {
    const b = was.get(p.id);
    if (b === undefined || b === null || p.score === null) continue;
    moves.push({ promptKey: p.id, before: b, after: p.score, delta: p.score - b });
  }
  return moves
    .filter((m) => Math.abs(m.delta) > 1e-9)
    .sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || x.promptKey.localeCompare(y.promptKey))
    .slice(0, keep);
}

/** Hesterberg's expanded percentile level for n paired prompts: 2Φ(√(n/(n−1)) · t_{(1+level)/2, n−1}) − 1. */
export function expandedLevel(n: number, level = 0.95): number {
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0,1), e.g. 0.95; got ${level}`);
  if (n < 2) return level;
  return 2 * normalCdf(Math.sqrt(n / (n - 1)) * studentTQuantile((1 + level) / 2, n - 1)) - 1;
}

/** A model's change between two runs, as every page shows it: the figure, and the prompts it rests on. */
export interface DriftDifference {
  /** Prompts scored in both runs. */
  paired: number;
  /** Prompts scored in one run only, or in neither. */
  unpaired: number;
  /** The prompt-weighted mean of after − before over the paired prompts; null with none. */
  difference: number | null;
  /** Paired prompts that scored higher, lower, and the same (closer than 10⁻⁹) in the later run. */
  better: number;
  worse: number;
  same: number;
}

/**
 * The change of one model between two runs of a blueprint: the weighted mean of after − before
 * over the prompts both runs scored (the drift check's `difference`, and the run diff page's
 * change). One function, so the two pages cannot disagree: an unweighted mean of the cells, or the
 * difference of the two runs' scores (each over every prompt it scored), are other quantities.
 */
export function driftDifference(before: readonly PromptResult[], after: readonly PromptResult[]): DriftDifference {
  const { pairs, unpaired } = matchPairs(after, before);
  const c = comparePairs(pairs, unpaired);
  return { paired: c.paired, unpaired: c.unpaired, difference: c.meanDiff, better: c.wins, worse: c.losses, same: c.ties };
}

/** Prompts scored in both lists. */
function pairedCount(a: readonly PromptResult[], b: readonly PromptResult[]): number {
  const scored = new Set(b.flatMap((p) => (p.score === null ? [] : [p.id])));
  return a.filter((p) => p.score !== null && scored.has(p.id)).length;
}

/**
 * The drift test of one model between two runs of the same blueprint version. `mde` is the
 * earlier run's (planBlueprint); `rng` seeds the paired bootstrap (pure-rand, cloned).
 */
export function driftTest(before: readonly PromptResult[], after: readonly PromptResult[], mde: number | null, rng: RandomGenerator, opts: BootstrapOptions = {}): DriftTest {
  if (mde !== null && !(mde >= 0 && Number.isFinite(mde))) throw new RangeError(`the MDE must be a finite number ≥ 0 or null, got ${mde}`);
  const level = expandedLevel(pairedCount(after, before), opts.level ?? 0.95);
  const c = pairedComparison(after, before, rng, { ...opts, level });
  const interval = c.interval ? { low: c.interval.low, high: c.interval.high } : null;
  const d = driftDifference(before, after);
  return { paired: d.paired, unpaired: d.unpaired, difference: d.difference, interval, mde, ...driftRule(interval, mde), moved: mostMoved(before, after) };
}

export interface ServedIdentity {
  model: string | null;
  fingerprint: string | null;
}

/**
 * Whether the provider says something else answered: the served model or the fingerprint
 * differs where both runs recorded one (a run stored before served records existed says
 * nothing, and is not a change).
 */
export function servedChanged(before: ServedIdentity, after: ServedIdentity): boolean {
  const differs = (a: string | null, b: string | null) => a !== null && b !== null && a !== b;
  return differs(before.model, after.model) || differs(before.fingerprint, after.fingerprint);
}

/**
 * The served identity of a model in a run: its most frequent served model and fingerprint
 * over the replies (ties: the alphabetically first), nulls ignored.
 */
export function typicalServed(replies: readonly ServedIdentity[]): ServedIdentity {
  const mode = (values: (string | null)[]): string | null => {
    const counts = new Map<string, number>();
    for (const v of values) if (v !== null) counts.set(v, (counts.get(v) ?? 0) + 1);
    let best: string | null = null;
    for (const [v, n] of counts) if (best === null || n > counts.get(best)! || (n === counts.get(best)! && v < best)) best = v;
    return best;
  };
  return { model: mode(replies.map((r) => r.model)), fingerprint: mode(replies.map((r) => r.fingerprint)) };
}
