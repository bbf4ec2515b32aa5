/**
 * Judge panel consensus: the mean of the judges that answered, their spread, and
 * Krippendorff's α (interval metric) as the agreement statistic over a points × judges
 * matrix. A judge that failed is absent (null), never a 0 (an outage must not read as a low score).
 */

/** Population standard deviation above which a point's judges are flagged as disagreeing. */
export const DISAGREEMENT_STD = 0.25;

export interface PanelConsensus {
  /** Mean of the answers, or null when no judge answered (the verdict is then `error`). */
  score: number | null;
  answered: number;
  failed: number;
  /** Population standard deviation of the answers (0 for one answer). */
  std: number | null;
  /** max − min of the answers. */
  range: number | null;
  /** True when `std` exceeds the threshold (for two judges: they are more than 0.5 apart). */
  disagree: boolean;
}

/** One point's panel: each judge's value (null = that judge failed after retries). */
export function panelConsensus(answers: readonly (number | null)[], opts: { disagreeAbove?: number } = {}): PanelConsensus {
  const threshold = opts.disagreeAbove ?? DISAGREEMENT_STD;
  const values = answers.filter((a): a is number => a !== null && Number.isFinite(a));
  const failed = answers.length - values.length;
  if (values.length === 0) return { score: null, answered: 0, failed, std: null, range: null, disagree: false };
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  const variance = values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length;
  const std = Math.sqrt(variance);
  const range = Math.max(...values) - Math.min(...values);
  return { score: mean, answered: values.length, failed, std, range, disagree: std > threshold };
}

/**
 * Krippendorff's α with the interval (squared-difference) metric.
 * `matrix[u][j]` is judge j's value on unit (point) u, or null when missing. Only units with
 * at least two values are pairable. α = 1 − D_o / D_e; returns null when fewer than two
 * pairable values exist (nothing to agree on). When every value is the same (D_e = 0) the
 * judges agree perfectly and α is 1.
 *
 * The bare formula, kept inside core for the comparison of two judging modes (mode-agreement.ts)
 * and as the independent check of the statistics in alpha.ts. Anything a page or report shows
 * goes through `krippendorffAlpha` (alpha.ts), which reports α with its units and refuses a
 * number below ALPHA_MIN_UNITS: over one unit this formula gives 0 or 1 whatever the judges said.
 */
export function krippendorffAlphaInterval(matrix: readonly (readonly (number | null)[])[]): number | null {
  const units = matrix
    .map((row) => row.filter((v): v is number => v !== null && Number.isFinite(v)))
    .filter((vals) => vals.length >= 2);
  const all = units.flat();
  const n = all.length;
  if (n < 2) return null;

  // Observed disagreement: within-unit pairs, each unit weighted by 1/(m_u − 1).
  let within = 0;
  for (const vals of units) {
    let s = 0;
    for (let i = 0; i < vals.length; i++) {
      for (let k = 0; k < vals.length; k++) {
        if (i !== k) s += ((vals[i] as number) - (vals[k] as number)) ** 2;
      }
    }
    within += s / (vals.length - 1);
  }
  const dObserved = within / n;

  // Expected disagreement: all ordered pairs of pairable values. Σ_{i≠k}(x_i − x_k)² = 2n·Σ(x − x̄)².
  const mean = all.reduce((s, v) => s + v, 0) / n;
  const ss = all.reduce((s, v) => s + (v - mean) ** 2, 0);
  const dExpected = (2 * n * ss) / (n * (n - 1));
  if (dExpected === 0) return 1;
  return 1 - dObserved / dExpected;
}
