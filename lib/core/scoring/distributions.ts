/**
 * The standard normal and Student's t distributions, from jStat (its `inv` refines erfc⁻¹ by Newton steps, so
 * z₀.₉₇₅ = 1.959963984540054 to double precision): the quantile for normal and Wilson
 * intervals, the CDF and quantile for BCa's bias correction, the t quantile for small-n paired
 * intervals and the planner.
 */
import jstat from 'jstat';

// A UMD bundle: its one export is an object, so the name is read from the default import.
const { jStat } = jstat;

/** Φ⁻¹(p): the z with P(Z ≤ z) = p. */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`a normal quantile needs a probability strictly between 0 and 1, got ${p}`);
  return jStat.normal.inv(p, 0, 1);
}

/** Φ(z) = P(Z ≤ z). */
export function normalCdf(z: number): number {
  return jStat.normal.cdf(z, 0, 1);
}

/** The two-sided critical value for a confidence level: 0.95 → 1.96. */
export function zForLevel(level: number): number {
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0,1), e.g. 0.95; got ${level}`);
  return normalQuantile(1 - (1 - level) / 2);
}

/** The p-quantile of Student's t with ν degrees of freedom (ν ≥ 1). */
export function studentTQuantile(p: number, nu: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`a t quantile needs a probability strictly between 0 and 1, got ${p}`);
  if (!(nu >= 1)) throw new RangeError(`Student's t needs at least 1 degree of freedom, got ${nu}`);
  return jStat.studentt.inv(p, nu);
}

function checkDf(df: number): void {
  if (!(df > 0 && Number.isFinite(df))) throw new RangeError(`degrees of freedom must be a positive number, got ${df}`);
}

/** Two-sided p-value of a t statistic with `df` degrees of freedom: 2 · P(T ≤ −|t|). */
export function tTwoSidedP(t: number, df: number): number {
  checkDf(df);
  if (Number.isNaN(t)) throw new RangeError('t statistic is NaN');
  if (!Number.isFinite(t)) return 0;
  return Math.min(1, 2 * jStat.studentt.cdf(-Math.abs(t), df));
}

/** The t quantile for a two-sided interval at `level` (e.g. 0.95, df 9 → 2.262). */
export function tCritical(level: number, df: number): number {
  checkDf(df);
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0,1), e.g. 0.95; got ${level}`);
  return jStat.studentt.inv(1 - (1 - level) / 2, df);
}
