/** A seeded random order: the same seed gives the same order, so a draw can be made again and checked. */
import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';

/** The indices 0…n−1 in a random order (Fisher–Yates) drawn from `seed`. */
export function seededOrder(n: number, seed: number): number[] {
  const rng = xoroshiro128plus(seed);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = unsafeUniformIntDistribution(0, i, rng);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}
