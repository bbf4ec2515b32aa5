/**
 * Student's t and normal quantiles and tails, from jStat (a maintained library) rather than
 * hand-rolled special functions. One small module so every caller gets the same numbers and
 * the same input checks.
 */
import jStat from 'jstat';

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

/** The standard normal quantile (0.975 → 1.95996). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`p must be in (0,1), got ${p}`);
  return jStat.normal.inv(p, 0, 1);
}
