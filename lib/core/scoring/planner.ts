/**
 * The sample-size planner: how small a difference a blueprint can see, and how many prompts it
 * would need to see a chosen one. For a paired comparison of two models over n prompts whose
 * per-prompt differences have variance ω², a two-sided test at level α has power 1 − β
 * against a true difference δ when
 *
 *     n = (z₁₋α/₂ + z₁₋β)² · ω² / δ²,      ω² = σ_A² + σ_B² − 2ρ σ_A σ_B,
 *
 * so the minimum detectable effect (MDE) of n prompts is (z₁₋α/₂ + z₁₋β) · ω / √n. σ_A, σ_B
 * and ρ are read from a run: the spread of each model's prompt scores and how strongly two
 * models' scores move together over the same prompts (a paired design gains exactly by that
 * correlation). With prompt weights the mean's variance is ω² / n_eff, n_eff = (Σw)² / Σw²
 * (Kish's effective sample size), so a weighted blueprint's MDE is the larger one it really has.
 *
 * Pure: the run's prompt results come in; no randomness is involved.
 */
import { z } from 'zod';
import type { PromptResult } from './model';
import { normalQuantile } from './distributions';

export const DEFAULT_ALPHA = 0.05;
export const DEFAULT_POWER = 0.8;

const Probability = (name: string) => z.number({ error: `${name} must be a number` }).gt(0, `${name} must be above 0`).lt(1, `${name} must be below 1`);

export const PlanOptionsSchema = z.object({
  /** Two-sided significance level α (default 0.05). */
  alpha: Probability('alpha').default(DEFAULT_ALPHA),
  /** Power 1 − β against the difference (default 0.8). */
  power: Probability('power').default(DEFAULT_POWER),
  /** A difference of interest on the 0–1 score scale; with it, the prompts needed to detect it. */
  delta: z.number({ error: 'delta must be a number' }).gt(0, 'delta must be above 0 (a difference on the 0–1 score scale, e.g. 0.05)').max(1, 'delta is a difference of scores in [0,1]: at most 1').nullable().default(null),
});
export type PlanOptions = z.input<typeof PlanOptionsSchema>;

/** z₁₋α/₂ + z₁₋β: the sum every sample-size formula of a two-sided normal test multiplies by. */
export function zSum(alpha = DEFAULT_ALPHA, power = DEFAULT_POWER): number {
  const o = PlanOptionsSchema.parse({ alpha, power });
  return normalQuantile(1 - o.alpha / 2) + normalQuantile(o.power);
}

/** ω² = σ_A² + σ_B² − 2ρσ_Aσ_B: the variance of the per-prompt difference A − B. */
export function pairedDifferenceVariance(sdA: number, sdB: number, rho: number): number {
  if (!(sdA >= 0 && sdB >= 0)) throw new RangeError(`standard deviations must be ≥ 0, got σ_A = ${sdA}, σ_B = ${sdB}`);
  if (!(rho >= -1 && rho <= 1)) throw new RangeError(`a correlation is in [−1, 1], got ρ = ${rho}`);
  return Math.max(0, sdA * sdA + sdB * sdB - 2 * rho * sdA * sdB);
}

/** n = ⌈(z₁₋α/₂ + z₁₋β)² ω² / δ²⌉, and never fewer than 2 (a paired test needs a spread). */
export function promptsNeeded(omega2: number, delta: number, opts: Omit<PlanOptions, 'delta'> = {}): number {
  const o = PlanOptionsSchema.parse({ ...opts, delta });
  if (!(omega2 >= 0 && Number.isFinite(omega2))) throw new RangeError(`ω² must be a finite variance ≥ 0, got ${omega2}`);
  const z = normalQuantile(1 - o.alpha / 2) + normalQuantile(o.power);
  return Math.max(2, Math.ceil((z * z * omega2) / (o.delta! * o.delta!)));
}

/** MDE = (z₁₋α/₂ + z₁₋β) · ω / √n: the smallest true difference n (effective) prompts detect with the given power. */
export function minimumDetectableEffect(omega2: number, n: number, opts: Omit<PlanOptions, 'delta'> = {}): number {
  if (!(omega2 >= 0 && Number.isFinite(omega2))) throw new RangeError(`ω² must be a finite variance ≥ 0, got ${omega2}`);
  if (!(n > 0 && Number.isFinite(n))) throw new RangeError(`the number of prompts must be positive, got ${n}`);
  const o = PlanOptionsSchema.parse(opts);
  return (normalQuantile(1 - o.alpha / 2) + normalQuantile(o.power)) * Math.sqrt(omega2 / n);
}

/** Kish's effective sample size of a weighted mean: (Σw)² / Σw² (n when the weights are equal). */
export function effectiveSize(weights: readonly number[]): number {
  const s = weights.reduce((a, w) => a + w, 0);
  const s2 = weights.reduce((a, w) => a + w * w, 0);
  return s2 === 0 ? 0 : (s * s) / s2;
}

const mean = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
/** Sample standard deviation (n − 1). */
const sd = (xs: readonly number[]) => {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
};

export const PairPlanSchema = z.object({
  modelA: z.string(),
  modelB: z.string(),
  /** Prompts scored for both. */
  paired: z.number().int().nonnegative(),
  effectivePrompts: z.number().nonnegative(),
  sdA: z.number().nonnegative(),
  sdB: z.number().nonnegative(),
  /** Pearson correlation of the two models' prompt scores; null when either does not vary. */
  rho: z.number().min(-1).max(1).nullable(),
  /** √ω², the standard deviation of the per-prompt difference. */
  omega: z.number().nonnegative(),
  mde: z.number().nonnegative(),
});
export type PairPlan = z.infer<typeof PairPlanSchema>;

export const BlueprintPlanSchema = z.object({
  alpha: z.number(),
  power: z.number(),
  /** z₁₋α/₂ + z₁₋β. */
  zSum: z.number(),
  models: z.number().int().nonnegative(),
  /** Prompts with a score for at least one model. */
  prompts: z.number().int().nonnegative(),
  /**
   * `pairs`: ω from every pair of models on their shared prompts; `single-model`: one model
   * only, so ω² = 2σ² (two runs of it, assumed uncorrelated: the larger, safe MDE); `none`: too
   * few scored prompts to estimate a spread.
   */
  basis: z.enum(['pairs', 'single-model', 'none']),
  /** Mean over models of each one's prompt-score standard deviation. */
  sd: z.number().nonnegative().nullable(),
  /** Mean correlation over the pairs that have one. */
  rho: z.number().min(-1).max(1).nullable(),
  /** √(mean ω² over pairs). */
  omega: z.number().nonnegative().nullable(),
  /** The blueprint's MDE: the root mean square of the pairs' MDEs (the typical pair's), at this α and power. */
  mde: z.number().nonnegative().nullable(),
  delta: z.number().nullable(),
  /** Prompts (equally weighted) needed to detect `delta` with this ω, α and power. */
  promptsNeeded: z.number().int().positive().nullable(),
  pairs: z.array(PairPlanSchema),
  /** Why there is no MDE, when there is none. */
  note: z.string().nullable(),
});
export type BlueprintPlan = z.infer<typeof BlueprintPlanSchema>;

export interface ModelPrompts {
  modelId: string;
  prompts: readonly PromptResult[];
}

function pairPlan(a: ModelPrompts, b: ModelPrompts, z: number): PairPlan | null {
  const byId = new Map(b.prompts.map((p) => [p.id, p]));
  const xs: number[] = [];
  const ys: number[] = [];
  const ws: number[] = [];
  for (const pa of a.prompts) {
    const pb = byId.get(pa.id);
    if (!pb || pa.score === null || pb.score === null) continue;
    xs.push(pa.score);
    ys.push(pb.score);
    ws.push(pa.weight);
  }
  if (xs.length < 2) return null;
  const sdA = sd(xs);
  const sdB = sd(ys);
  const mx = mean(xs);
  const my = mean(ys);
  const cov = xs.reduce((s, x, i) => s + (x - mx) * (ys[i]! - my), 0) / (xs.length - 1);
  const rho = sdA > 0 && sdB > 0 ? Math.max(-1, Math.min(1, cov / (sdA * sdB))) : null;
  const omega2 = pairedDifferenceVariance(sdA, sdB, rho ?? 0);
  const nEff = effectiveSize(ws);
  return { modelA: a.modelId, modelB: b.modelId, paired: xs.length, effectivePrompts: nEff, sdA, sdB, rho, omega: Math.sqrt(omega2), mde: z * Math.sqrt(omega2 / nEff) };
}

/**
 * The plan of a blueprint from one run's prompt results per model: σ, ρ and ω of every pair of
 * models, the blueprint's MDE at α and power, and (with `delta`) the prompts needed for it.
 */
/** ω² under this (ω < 10⁻⁶ on the 0–1 scale) is rounding noise of equal scores, not a spread. */
const NO_SPREAD_BELOW = 1e-12;
const NO_SPREAD = 'the paired differences do not vary: every prompt shows the same difference between the models (ω = 0), so there is no spread to plan from; a run with more prompts, or models that differ somewhere, gives one';

export function planBlueprint(models: readonly ModelPrompts[], options: PlanOptions = {}): BlueprintPlan {
  const o = PlanOptionsSchema.parse(options);
  const z = normalQuantile(1 - o.alpha / 2) + normalQuantile(o.power);
  const scoredIds = new Set(models.flatMap((m) => m.prompts.filter((p) => p.score !== null).map((p) => p.id)));
  const sds = models.flatMap((m) => {
    const s = m.prompts.flatMap((p) => (p.score === null ? [] : [p.score]));
    return s.length >= 2 ? [sd(s)] : [];
  });
  const base = { alpha: o.alpha, power: o.power, zSum: z, models: models.length, prompts: scoredIds.size, delta: o.delta, sd: sds.length ? mean(sds) : null };
  const pairs: PairPlan[] = [];
  for (let i = 0; i < models.length; i++) for (let j = i + 1; j < models.length; j++) {
    const p = pairPlan(models[i]!, models[j]!, z);
    if (p) pairs.push(p);
  }
  const needed = (omega2: number) => (o.delta === null ? null : promptsNeeded(omega2, o.delta, o));
  if (pairs.length > 0) {
    const omega2 = mean(pairs.map((p) => p.omega ** 2));
    const rhos = pairs.flatMap((p) => (p.rho === null ? [] : [p.rho]));
    // No spread at all is no information, not a blueprint that sees every difference: an MDE of 0 would claim that.
    if (omega2 < NO_SPREAD_BELOW) return { ...base, basis: 'none', rho: rhos.length ? mean(rhos) : null, omega: 0, mde: null, promptsNeeded: null, pairs, note: NO_SPREAD };
    return {
      ...base,
      basis: 'pairs',
      rho: rhos.length ? mean(rhos) : null,
      omega: Math.sqrt(omega2),
      mde: Math.sqrt(mean(pairs.map((p) => p.mde ** 2))),
      promptsNeeded: needed(omega2),
      pairs,
      note: null,
    };
  }
  const single = models.length === 1 ? models[0]!.prompts.filter((p) => p.score !== null) : [];
  if (single.length >= 2) {
    const s = sd(single.map((p) => p.score!));
    const omega2 = 2 * s * s;
    if (omega2 < NO_SPREAD_BELOW) return { ...base, basis: 'none', rho: null, omega: 0, mde: null, promptsNeeded: null, pairs: [], note: 'one model only, and it scored the same on every prompt (σ = 0): no spread to plan from' };
    return {
      ...base,
      basis: 'single-model',
      rho: null,
      omega: Math.sqrt(omega2),
      mde: z * Math.sqrt(omega2 / effectiveSize(single.map((p) => p.weight))),
      promptsNeeded: needed(omega2),
      pairs: [],
      note: 'one model only: ω² = 2σ², as for two runs of it that are not correlated (a safe, larger MDE)',
    };
  }
  return { ...base, basis: 'none', rho: null, omega: null, mde: null, promptsNeeded: null, pairs: [], note: 'fewer than two prompts were scored for a pair of models: no spread to plan from' };
}
