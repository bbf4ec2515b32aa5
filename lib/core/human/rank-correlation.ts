/**
 * Rank correlations: do two lists of scores put the same things in the same order? Used to set
 * people's pairwise ranking beside the rubric leaderboard.
 *
 * - Spearman's ρ: Pearson's correlation of the ranks, tied values sharing the average of the
 *   ranks they span (so 1, 2, 2, 3 ranks 1, 2.5, 2.5, 4).
 * - Kendall's τ-b: (concordant − discordant pairs) / √((n₀ − ties in x)(n₀ − ties in y)), n₀ =
 *   n(n − 1)/2; the tie correction keeps it in [−1, 1] when scores tie (Kendall 1945).
 *
 * Both are null under three items (two points always lie on a line: ±1 says nothing) or when
 * either list is constant (no order to compare).
 */

const MIN_ITEMS = 3;

/** Ranks from 1, ties sharing their average rank, in the order the values were given. */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const ranks = new Array<number>(values.length);
  let start = 0;
  while (start < order.length) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]![0] === order[start]![0]) end++;
    // positions start…end (0-based) hold ranks start+1 … end+1: their average
    const rank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k++) ranks[order[k]![1]] = rank;
    start = end + 1;
  }
  return ranks;
}

function checkPaired(xs: readonly number[], ys: readonly number[]): void {
  if (xs.length !== ys.length) throw new RangeError(`a rank correlation needs one y per x; got ${xs.length} x and ${ys.length} y`);
  if (![...xs, ...ys].every(Number.isFinite)) throw new RangeError('a rank correlation needs finite numbers; leave out the items without a score');
}

function pearson(xs: readonly number[], ys: readonly number[]): number | null {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
  }
  return sxx === 0 || syy === 0 ? null : sxy / Math.sqrt(sxx * syy);
}

/** Spearman's ρ with average ranks for ties; null under three items or when either side is constant. */
export function spearman(xs: readonly number[], ys: readonly number[]): number | null {
  checkPaired(xs, ys);
  if (xs.length < MIN_ITEMS) return null;
  return pearson(averageRanks(xs), averageRanks(ys));
}

/** Kendall's τ-b; null under three items or when either side is constant. */
export function kendallTauB(xs: readonly number[], ys: readonly number[]): number | null {
  checkPaired(xs, ys);
  const n = xs.length;
  if (n < MIN_ITEMS) return null;
  let concordant = 0;
  let discordant = 0;
  let tiedX = 0;
  let tiedY = 0;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = Math.sign(xs[i]! - xs[j]!);
      const dy = Math.sign(ys[i]! - ys[j]!);
      if (dx === 0) tiedX++;
      if (dy === 0) tiedY++;
      if (dx * dy > 0) concordant++;
      else if (dx * dy < 0) discordant++;
    }
  }
  const pairs = (n * (n - 1)) / 2;
  const denominator = Math.sqrt((pairs - tiedX) * (pairs - tiedY));
  return denominator === 0 ? null : (concordant - discordant) / denominator;
}
