import { describe, expect, it } from 'vitest';
import type { PromptResult } from './model';
import { effectiveSize, minimumDetectableEffect, pairedDifferenceVariance, planBlueprint, promptsNeeded, zSum } from './planner';
import { normalCdf, normalQuantile, studentTQuantile } from './distributions';

const prompts = (scores: (number | null)[], weights?: number[]): PromptResult[] => scores.map((score, i) => ({ id: `p${i}`, weight: weights?.[i] ?? 1, score }));

describe('normal and t quantiles', () => {
  it('matches the published tables', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 14);
    expect(normalQuantile(0.8)).toBeCloseTo(0.8416212335729143, 14);
    expect(normalQuantile(0.995)).toBeCloseTo(2.5758293035489004, 13);
    expect(normalQuantile(0.5)).toBeCloseTo(0, 14);
    // far in the tail jStat is good to ~5e-10 relative, ample for intervals and power
    expect(normalQuantile(1e-10)).toBeCloseTo(-6.361340902404056, 8);
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 7);
    expect(normalCdf(-1)).toBeCloseTo(0.15865525393145707, 7);
    // t tables: t(0.975; 10) = 2.228139, t(0.975; 29) = 2.045230, t(0.975; 99) = 1.984217, t(0.975; 1) = 12.7062
    expect(studentTQuantile(0.975, 10)).toBeCloseTo(2.228139, 4);
    expect(studentTQuantile(0.975, 29)).toBeCloseTo(2.04523, 5);
    expect(studentTQuantile(0.975, 99)).toBeCloseTo(1.984217, 5);
    expect(studentTQuantile(0.975, 1)).toBeCloseTo(12.7062, 3);
    expect(studentTQuantile(0.975, 2)).toBeCloseTo(4.302653, 5);
  });

  it('refuses a probability outside (0, 1)', () => {
    expect(() => normalQuantile(1)).toThrow(/strictly between 0 and 1, got 1/);
    expect(() => studentTQuantile(0.5, 0)).toThrow(/at least 1 degree of freedom/);
  });
});

describe('the sample-size formula n = (z₁₋α/₂ + z₁₋β)² ω² / δ²', () => {
  it('gives 126 prompts for δ = 0.05, ω = 0.2, α = 0.05, power 0.8 (hand-computed: 2.80159² · 0.04 / 0.0025 = 125.6)', () => {
    expect(zSum(0.05, 0.8)).toBeCloseTo(1.959963984540054 + 0.8416212335729143, 14);
    expect((zSum() ** 2 * 0.04) / 0.0025).toBeCloseTo(125.58, 2);
    expect(promptsNeeded(0.04, 0.05)).toBe(126);
  });

  it('moves with α, power and δ as the formula says', () => {
    // α = 0.01, power 0.9: (2.575829 + 1.281552)² · 0.04 / 0.0025 = 238.1 → 239
    expect(promptsNeeded(0.04, 0.05, { alpha: 0.01, power: 0.9 })).toBe(239);
    // halving δ quadruples n: 125.58 · 4 = 502.3 → 503
    expect(promptsNeeded(0.04, 0.025)).toBe(503);
    expect(promptsNeeded(0, 0.05)).toBe(2);
  });

  it('has the MDE as its inverse: 126 prompts detect 0.05, 125 do not quite', () => {
    expect(minimumDetectableEffect(0.04, 126)).toBeLessThanOrEqual(0.05);
    expect(minimumDetectableEffect(0.04, 125)).toBeGreaterThan(0.05);
    // MDE = 2.801585 · 0.2 / √100 = 0.0560317
    expect(minimumDetectableEffect(0.04, 100)).toBeCloseTo(0.0560317, 6);
    const n = 400;
    expect(promptsNeeded(0.04, minimumDetectableEffect(0.04, n))).toBe(n);
  });

  it('computes ω² = σ_A² + σ_B² − 2ρσ_Aσ_B', () => {
    expect(pairedDifferenceVariance(0.2, 0.3, 0.5)).toBeCloseTo(0.07, 15);
    expect(pairedDifferenceVariance(0.2, 0.2, 0)).toBeCloseTo(0.08, 15);
    expect(pairedDifferenceVariance(0.2, 0.2, 1)).toBe(0);
    expect(() => pairedDifferenceVariance(0.2, 0.2, 1.5)).toThrow(/correlation is in \[−1, 1\], got ρ = 1.5/);
  });

  it('says what is wrong with bad options', () => {
    expect(() => promptsNeeded(0.04, 0)).toThrow(/delta must be above 0/);
    expect(() => promptsNeeded(0.04, 0.05, { power: 1 })).toThrow(/power must be below 1/);
    expect(() => minimumDetectableEffect(0.04, 0)).toThrow(/number of prompts must be positive/);
  });

  it('uses Kish’s effective size for weighted prompts', () => {
    expect(effectiveSize([1, 1, 1, 1])).toBe(4);
    expect(effectiveSize([1, 1, 1, 3])).toBe(3); // 6² / 12
  });
});

describe('planBlueprint', () => {
  it('gives no MDE when nothing varies (ω = 0), rather than claiming it sees a difference of 0', () => {
    const same = prompts([0.6, 0.6, 0.9]);
    const plan = planBlueprint([{ modelId: 'a', prompts: same }, { modelId: 'b', prompts: same }], { delta: 0.05 });
    expect([plan.basis, plan.omega, plan.mde, plan.promptsNeeded]).toEqual(['none', 0, null, null]);
    expect(plan.note).toMatch(/ω = 0/);
    const flat = planBlueprint([{ modelId: 'a', prompts: prompts([0.5, 0.5]) }]);
    expect([flat.basis, flat.mde, flat.note]).toEqual(['none', null, expect.stringMatching(/σ = 0/)]);
  });

  // Hand-computed: σ_A² = 0.2/3, σ_B² = 0.32/3, cov = 0.24/3, ρ = 0.948683, ω² = 0.04/3 (the differences ±0.1).
  const A = prompts([0.2, 0.4, 0.6, 0.8]);
  const B = prompts([0.1, 0.5, 0.5, 0.9]);

  it('reads σ, ρ and ω of a pair from a run and plans from them', () => {
    const plan = planBlueprint([{ modelId: 'a', prompts: A }, { modelId: 'b', prompts: B }], { delta: 0.05 });
    expect(plan.basis).toBe('pairs');
    const [pair] = plan.pairs;
    expect(pair!.sdA).toBeCloseTo(Math.sqrt(0.2 / 3), 12);
    expect(pair!.sdB).toBeCloseTo(Math.sqrt(0.32 / 3), 12);
    expect(pair!.rho).toBeCloseTo(0.948683, 6);
    expect(pair!.omega ** 2).toBeCloseTo(0.04 / 3, 12);
    // MDE = 2.801585 · √(0.013333 / 4) = 0.161750; n for 0.05 = 7.84888 · 0.013333 / 0.0025 = 41.86 → 42
    expect(plan.mde).toBeCloseTo(0.16175, 5);
    expect(plan.promptsNeeded).toBe(42);
    expect(plan).toMatchObject({ models: 2, prompts: 4, alpha: 0.05, power: 0.8, delta: 0.05, note: null });
  });

  it('averages ω² over pairs and uses only prompts both models scored', () => {
    const C = prompts([0.2, null, 0.6, 0.8]);
    const plan = planBlueprint([{ modelId: 'a', prompts: A }, { modelId: 'b', prompts: B }, { modelId: 'c', prompts: C }]);
    expect(plan.pairs.map((p) => [p.modelA, p.modelB, p.paired])).toEqual([
      ['a', 'b', 4],
      ['a', 'c', 3],
      ['b', 'c', 3],
    ]);
    expect(plan.omega! ** 2).toBeCloseTo((plan.pairs[0]!.omega ** 2 + plan.pairs[1]!.omega ** 2 + plan.pairs[2]!.omega ** 2) / 3, 12);
    expect(plan.mde).toBeCloseTo(Math.sqrt(plan.pairs.reduce((s, p) => s + p.mde ** 2, 0) / 3), 12);
  });

  it('falls back to ω² = 2σ² for one model, and says so', () => {
    const plan = planBlueprint([{ modelId: 'a', prompts: A }]);
    expect(plan.basis).toBe('single-model');
    expect(plan.omega! ** 2).toBeCloseTo((2 * 0.2) / 3, 12);
    expect(plan.mde).toBeCloseTo(zSum() * Math.sqrt(0.4 / 3 / 4), 12);
    expect(plan.note).toMatch(/one model only/);
  });

  it('has no MDE with fewer than two scored prompts, and says why', () => {
    const plan = planBlueprint([{ modelId: 'a', prompts: prompts([0.5]) }, { modelId: 'b', prompts: prompts([0.7]) }]);
    expect(plan).toMatchObject({ basis: 'none', mde: null, promptsNeeded: null });
    expect(plan.note).toMatch(/fewer than two prompts/);
  });
});
