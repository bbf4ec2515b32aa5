/**
 * Statistically tied bands on a leaderboard, so a reader never over-reads a 0.3-point gap.
 *
 * The rule (rank intervals in the manner of LMArena, from paired tests instead of overlapping
 * intervals): every pair of ranked models is compared with a paired t-test on the prompts they
 * share (`boardPairedComparison`), and the family of all pairs is Holm-corrected at α (5%).
 * A model is "clearly better" than another only when their pair is rejected after Holm and the
 * difference favours it. Then a model's band is
 *
 *   best rank  = 1 + (models clearly better than it)
 *   worst rank = N − (models it is clearly better than)
 *
 * so "rank 2–4" reads: one model is clearly ahead of it, N − 4 are clearly behind, and it cannot
 * be told apart from the ones in between. Two neighbours whose difference is not significant
 * overlap in their bands (they are tied); a model separated from everyone gets a single rank.
 * Testing every pair (not only neighbours) keeps the bands consistent when A ≈ B and B ≈ C but
 * A > C; Holm keeps the chance of any reversed order across bands at α or below.
 */
import { z } from 'zod';
import { holm } from './holm';

export const RankBandSchema = z.object({
  best: z.number().int().positive(),
  worst: z.number().int().positive(),
});
export type RankBand = z.infer<typeof RankBandSchema>;

/** A comparison of models i and j (indices into the ranked list): p-value and sign of the difference i − j. */
export interface PairTest {
  i: number;
  j: number;
  p: number | null;
  /** Mean difference i − j (> 0: i ahead). */
  diff: number | null;
}

export const BANDS_ALPHA = 0.05;

/**
 * Bands for `n` ranked models from their pairwise tests (any order of pairs; a missing pair or
 * a null p counts as "not told apart"). Returns one band per model, in the ranked order.
 */
export function rankBands(n: number, tests: readonly PairTest[], alpha = BANDS_ALPHA): RankBand[] {
  const usable = tests.filter((t) => t.p !== null && t.diff !== null && t.i !== t.j);
  for (const t of usable) if (t.i < 0 || t.j < 0 || t.i >= n || t.j >= n) throw new RangeError(`pair (${t.i}, ${t.j}) is outside the ${n} ranked models`);
  const { rejected } = holm(usable.map((t) => t.p as number), alpha);
  const above = new Array<number>(n).fill(0);
  const below = new Array<number>(n).fill(0);
  usable.forEach((t, k) => {
    if (!rejected[k] || t.diff === 0) return;
    const [winner, loser] = (t.diff as number) > 0 ? [t.i, t.j] : [t.j, t.i];
    below[winner] = (below[winner] as number) + 1;
    above[loser] = (above[loser] as number) + 1;
  });
  return Array.from({ length: n }, (_v, k) => ({ best: 1 + (above[k] as number), worst: n - (below[k] as number) }));
}

/** "rank 2–4", or "rank 1" when the band is a single rank. */
export function bandLabel(band: RankBand): string {
  return band.best === band.worst ? `rank ${band.best}` : `rank ${band.best}–${band.worst}`;
}
