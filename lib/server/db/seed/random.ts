/**
 * A small seeded generator (mulberry32) for the seeder: the same seed gives the same
 * database, so e2e specs and benchmarks see the same numbers every time.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number;
  pick<T>(items: readonly T[]): T;
  /** Approximately normal (sum of uniforms), mean 0, standard deviation `sd`. */
  normal(sd: number): number;
}

export function seededRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (items) => items[Math.floor(next() * items.length)] as never,
    normal: (sd) => (next() + next() + next() + next() + next() + next() - 3) * sd * Math.SQRT2,
  };
}

export const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
