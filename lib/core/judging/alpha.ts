/**
 * Krippendorff's α (interval metric) over a level of judged verdicts, always with what it rests
 * on, and only where it can say something.
 *
 * The reliability data: one unit per judged verdict (a point of a reply), one coder per judge,
 * each value a judge's answer in [0, 1]. A unit with answers from at least two judges is
 * pairable; only pairable units inform α. α = 1 − D_o / D_e, D_o the disagreement within units,
 * D_e the disagreement between all pairable values regardless of unit (Krippendorff 2011,
 * "Computing Krippendorff's Alpha-Reliability").
 *
 * Why a minimum: over ONE unit D_o and D_e are the same sum (every pair of values is both
 * within the unit and among all values), so α is 0 whatever the judges said, or 1 when they
 * gave the same answer: two identical verdicts read 0.99 on one reply and −0.67 on the next.
 * Over a handful of units α swings as widely. `krippendorffAlpha` therefore returns
 * "not enough" (a kind of result, not a number) below ALPHA_MIN_UNITS pairable units, and the
 * pages say "too few verdicts to tell (n units)" instead of a number.
 *
 * Sufficient statistics (`AlphaStats`): over the pairable values, `n` values, their sum and sum
 * of squares, and `within` = Σ over units of Σ_{i≠k}(x_i − x_k)² / (m_u − 1)
 * = 2(m_u Σx² − (Σx)²) / (m_u − 1). Then D_o = within / n and
 * D_e = Σ_{i≠k}(x_i − x_k)² / (n(n − 1)) = 2(n Σx² − (Σx)²) / (n(n − 1)). Every field is a sum
 * over units, so the statistics of two levels add up to those of their union and α from the
 * sum is exactly the pooled α: the leaderboard sums them in SQL over many runs without loading
 * a verdict (alpha.test.ts holds the sum to the matrix).
 */

/**
 * The fewest pairable units (judged verdicts with answers from at least two judges) over which
 * α is reported. Krippendorff's guidance on sample size (Content Analysis, the chapter on
 * reliability, 2004 and 2019 editions) asks for enough reliability data that α can be shown to
 * clear the smallest acceptable value (0.667, or 0.80 for data relied on) at a chosen level of
 * significance, and that every value of the scale that matters turns up; his table for two
 * coders asks for dozens to well over a hundred pairable values. Ten units is therefore a
 * floor, not a guarantee: below it α is not even a rough figure (over one unit it is 0 or 1 by
 * construction, see above), so no page prints one; above it every α is printed with its units
 * and pairs so a reader can weigh it. Exported so the pages' crawler can check that no element
 * carrying `data-figure="alpha|…"` shows a `data-value` with fewer `data-units` than this.
 */
export const ALPHA_MIN_UNITS = 10;

export interface AlphaStats {
  /** Pairable units: verdicts with values from at least two judges. */
  units: number;
  /** Pairable values (the judges' answers on those units). */
  n: number;
  /** Pairs of values compared within units: Σ m_u(m_u − 1)/2 (one per pair of judges on a verdict). */
  pairs: number;
  sum: number;
  sumSq: number;
  within: number;
}

export const EMPTY_ALPHA_STATS: AlphaStats = { units: 0, n: 0, pairs: 0, sum: 0, sumSq: 0, within: 0 };

/** One unit's contribution (its values; a unit with fewer than two is not pairable and adds nothing). */
export function unitAlphaStats(values: readonly number[]): AlphaStats {
  const m = values.length;
  if (m < 2) return EMPTY_ALPHA_STATS;
  const sum = values.reduce((s, v) => s + v, 0);
  const sumSq = values.reduce((s, v) => s + v * v, 0);
  return { units: 1, n: m, pairs: (m * (m - 1)) / 2, sum, sumSq, within: (2 * (m * sumSq - sum * sum)) / (m - 1) };
}

export function addAlphaStats(a: AlphaStats, b: AlphaStats): AlphaStats {
  return { units: a.units + b.units, n: a.n + b.n, pairs: a.pairs + b.pairs, sum: a.sum + b.sum, sumSq: a.sumSq + b.sumSq, within: a.within + b.within };
}

/** Reliability data as rows: `matrix[u][j]` is judge j's value on unit u, or null when missing. */
export type AlphaMatrix = readonly (readonly (number | null)[])[];

/** The statistics of a matrix (missing and non-finite values left out). */
export function alphaStatsOf(matrix: AlphaMatrix): AlphaStats {
  return matrix.map((row) => unitAlphaStats(row.filter((v): v is number => v !== null && Number.isFinite(v)))).reduce(addAlphaStats, EMPTY_ALPHA_STATS);
}

/** What α rests on, reported with it and without it. */
interface AlphaBasis {
  /** Pairable units. */
  units: number;
  /** Pairable values. */
  values: number;
  /** Pairs of values compared within units. */
  pairs: number;
}

/** α at one level, or why there is none: fewer than `minUnits` pairable units. */
export type JudgeAlpha = ({ kind: 'alpha'; value: number } & AlphaBasis) | ({ kind: 'not-enough'; minUnits: number } & AlphaBasis);

/**
 * Krippendorff's α (interval) over a level's reliability data, as its statistics or its
 * matrix; "not enough" below ALPHA_MIN_UNITS pairable units. When every pairable value is the
 * same (D_e = 0) the judges agree perfectly and α is 1.
 */
export function krippendorffAlpha(data: AlphaStats | AlphaMatrix): JudgeAlpha {
  const s = Array.isArray(data) ? alphaStatsOf(data as AlphaMatrix) : (data as AlphaStats);
  const basis: AlphaBasis = { units: s.units, values: s.n, pairs: s.pairs };
  if (s.units < ALPHA_MIN_UNITS) return { kind: 'not-enough', minUnits: ALPHA_MIN_UNITS, ...basis };
  const dExpected = (2 * (s.n * s.sumSq - s.sum * s.sum)) / (s.n * (s.n - 1));
  // float noise: values that are all equal can leave a residue of ~1e-16 instead of 0
  const value = dExpected <= 1e-12 ? 1 : 1 - s.within / s.n / dExpected;
  return { kind: 'alpha', value, ...basis };
}

/** Krippendorff's (2004) reading of α, for the pages. */
export type AlphaReading = 'reliable' | 'tentative' | 'unreliable';

export function readAlpha(alpha: number): AlphaReading {
  if (alpha >= 0.8) return 'reliable';
  if (alpha >= 0.667) return 'tentative';
  return 'unreliable';
}
