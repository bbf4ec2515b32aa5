/**
 * Simulated blueprints for the calibration tests of the comparison statistics: seeded, pure.
 * A prompt has a difficulty θ (shared by every model, which is what makes per-prompt scores of
 * two models correlated, as on real blueprints); a model has an ability; each of the prompt's
 * `points` criteria passes with probability σ(ability − θ + ε), ε a per-(model, prompt) noise,
 * so a prompt score is a share of passed points (0, 1/3, 2/3, 1 for three points): discrete,
 * bounded, with many 0s and 1s, like judged and deterministic scores.
 */
import { unsafeUniformIntDistribution, xoroshiro128plus, type RandomGenerator } from 'pure-rand';

export class Rng {
  private readonly g: RandomGenerator;
  private spare: number | null = null;
  constructor(seed: number) {
    this.g = xoroshiro128plus(seed);
  }
  /** Uniform in (0, 1). */
  uniform(): number {
    return (unsafeUniformIntDistribution(0, 2 ** 30 - 1, this.g) + 0.5) / 2 ** 30;
  }
  int(min: number, max: number): number {
    return unsafeUniformIntDistribution(min, max, this.g);
  }
  /** Standard normal (Box–Muller). */
  normal(): number {
    if (this.spare !== null) {
      const s = this.spare;
      this.spare = null;
      return s;
    }
    const r = Math.sqrt(-2 * Math.log(this.uniform()));
    const t = 2 * Math.PI * this.uniform();
    this.spare = r * Math.sin(t);
    return r * Math.cos(t);
  }
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

export interface SimulatedBlueprint {
  difficulties: number[];
}

export function simulateBlueprint(rng: Rng, prompts: number, spread = 1.5): SimulatedBlueprint {
  return { difficulties: Array.from({ length: prompts }, () => spread * rng.normal()) };
}

/** One model's prompt scores on a blueprint. */
export function simulateScores(rng: Rng, bp: SimulatedBlueprint, ability: number, opts: { points?: number; noise?: number } = {}): number[] {
  const points = opts.points ?? 3;
  const noise = opts.noise ?? 0.7;
  return bp.difficulties.map((theta) => {
    const p = sigmoid(ability - theta + noise * rng.normal());
    let passed = 0;
    for (let k = 0; k < points; k++) if (rng.uniform() < p) passed++;
    return passed / points;
  });
}
