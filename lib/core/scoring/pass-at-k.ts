/**
 * pass@k and pass^k with the unbiased estimators (Chen et al. 2021, "Evaluating Large Language
 * Models Trained on Code", §2.1; pass^k as in Yao et al. 2024, τ-bench). Of n scored attempts at
 * a prompt, c pass (score ≥ the blueprint's `pass_threshold`). Drawing k of the n without
 * replacement:
 *
 *   pass@k = P(at least one of the k passes) = 1 − C(n−c, k) / C(n, k)
 *   pass^k = P(all k pass)                   =     C(c, k)   / C(n, k)
 *
 * Both are unbiased for the chance with k fresh attempts; estimating them from the first k
 * attempts alone, or as "any/all of n passed", is biased. The binomials overflow long before
 * n is large, so each ratio is a product of k factors (Chen et al.'s numerically stable form):
 *   C(n−c,k)/C(n,k) = Π_{i=n−c+1}^{n} (1 − k/i),   C(c,k)/C(n,k) = Π_{i=0}^{k−1} (c−i)/(n−i).
 */
import { z } from 'zod';

export const PassPointSchema = z.object({
  k: z.number().int().positive(),
  passAtK: z.number().min(0).max(1),
  passHatK: z.number().min(0).max(1),
});
/** pass@k and pass^k for k = 1..n at one prompt. */
export const PassCurveSchema = z.array(PassPointSchema);
export type PassCurve = z.infer<typeof PassCurveSchema>;

/** Over a model's prompts: the prompt-weighted mean at each k, over the prompts with ≥ k scored attempts. */
export const ModelPassCurveSchema = z.array(PassPointSchema.extend({ prompts: z.number().int().positive() }));
export type ModelPassCurve = z.infer<typeof ModelPassCurveSchema>;

function check(n: number, c: number, k: number): void {
  if (!(Number.isInteger(n) && n >= 1)) throw new RangeError(`pass@k needs n ≥ 1 scored attempts, got ${n}`);
  if (!(Number.isInteger(c) && c >= 0 && c <= n)) throw new RangeError(`passes c must be a whole number in [0, n=${n}], got ${c}`);
  if (!(Number.isInteger(k) && k >= 1 && k <= n)) throw new RangeError(`k must be a whole number in [1, n=${n}], got ${k}: an unbiased pass@k needs at least k attempts`);
}

/** 1 − C(n−c,k)/C(n,k). */
export function passAtK(n: number, c: number, k: number): number {
  check(n, c, k);
  if (n - c < k) return 1;
  let fail = 1;
  for (let i = n - c + 1; i <= n; i++) fail *= 1 - k / i;
  return 1 - fail;
}

/** C(c,k)/C(n,k). */
export function passHatK(n: number, c: number, k: number): number {
  check(n, c, k);
  if (c < k) return 0;
  let all = 1;
  for (let i = 0; i < k; i++) all *= (c - i) / (n - i);
  return all;
}

/** Every k from 1 to n. */
export function passCurve(n: number, c: number): PassCurve {
  return Array.from({ length: n }, (_v, i) => ({ k: i + 1, passAtK: passAtK(n, c, i + 1), passHatK: passHatK(n, c, i + 1) }));
}

export interface PromptPasses {
  /** The prompt's weight in the blueprint, > 0. */
  weight: number;
  /** Scored attempts. */
  n: number;
  /** Attempts at or above the pass threshold. */
  passes: number;
}

/**
 * The model's pass@k and pass^k: at each k, the prompt-weighted mean of the prompts' unbiased
 * estimates (so the same weights as the score), over the prompts with at least k scored
 * attempts; `prompts` says how many that is. Prompts with no scored attempt are left out.
 */
export function modelPassCurve(prompts: readonly PromptPasses[]): ModelPassCurve {
  const usable = prompts.filter((p) => p.n >= 1);
  const maxN = Math.max(0, ...usable.map((p) => p.n));
  const out: ModelPassCurve = [];
  for (let k = 1; k <= maxN; k++) {
    let at = 0;
    let hat = 0;
    let weight = 0;
    let count = 0;
    for (const p of usable) {
      if (p.n < k) continue;
      if (!(p.weight > 0)) throw new RangeError(`prompt weight must be positive, got ${p.weight}`);
      at += p.weight * passAtK(p.n, p.passes, k);
      hat += p.weight * passHatK(p.n, p.passes, k);
      weight += p.weight;
      count++;
    }
    out.push({ k, passAtK: at / weight, passHatK: hat / weight, prompts: count });
  }
  return out;
}
