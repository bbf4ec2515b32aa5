/**
 * Holm's step-down correction (Holm 1979) for a family of tests, e.g. every pair of models on a
 * leaderboard: it holds the chance of any false "different" across the whole family at α,
 * where testing 28 pairs at 5% each would flag about one tie as a difference by luck alone.
 * Uniformly more powerful than Bonferroni and valid under any dependence between the tests.
 *
 * Sort the m p-values ascending; the i-th smallest (from 1) is adjusted to
 * max over j ≤ i of min(1, (m − j + 1) · p₍ⱼ₎) and rejected when the adjusted value ≤ α
 * (the same as R's `p.adjust(p, "holm")`).
 */

export interface HolmResult {
  /** Adjusted p-values, in the order given. */
  adjusted: number[];
  /** Whether each hypothesis is rejected at α, in the order given. */
  rejected: boolean[];
}

export function holm(pValues: readonly number[], alpha = 0.05): HolmResult {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0,1), e.g. 0.05; got ${alpha}`);
  pValues.forEach((p, i) => {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`p-value ${i} is ${p}; p-values are in [0,1]`);
  });
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((x, y) => x.p - y.p || x.i - y.i);
  const adjusted = new Array<number>(m).fill(1);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return { adjusted, rejected: adjusted.map((p) => p <= alpha) };
}
