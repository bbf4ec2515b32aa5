/**
 * The drift test's operating characteristics, measured on 1,000 simulated blueprints (seeded,
 * pure): at a true change of 0 it flags ≤ 5% (its size), at a true change of exactly one MDE
 * (the planner's, for the simulated blueprint's variance) it finds ≈ 80% (the power the MDE is
 * defined by). Each blueprint: n prompts whose scores in the two runs have spread σ and
 * correlate ρ over prompts (a shared prompt difficulty plus independent noise), the later run
 * shifted by δ. The point-estimate reading of the MDE gate is measured beside it, to show why
 * the rule reads the interval (drift.ts).
 */
import { unsafeUniformIntDistribution, xoroshiro128plus, type RandomGenerator } from 'pure-rand';
import { describe, expect, it } from 'vitest';
import { driftTest } from './drift';
import type { PromptResult } from './model';
import { minimumDetectableEffect, pairedDifferenceVariance } from './planner';

const BLUEPRINTS = 1000;
const PROMPTS = 60;
const SIGMA = 0.2;
const RHO = 0.5;
const RESAMPLES = 500;

/** A standard normal draw (Box–Muller) from the generator, which it advances. */
function gaussian(g: RandomGenerator): number {
  const u = (unsafeUniformIntDistribution(1, 2 ** 30, g) - 0.5) / 2 ** 30;
  const v = unsafeUniformIntDistribution(0, 2 ** 30 - 1, g) / 2 ** 30;
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** One blueprint's two runs: before_i = μ + u_i + e_i, after_i = μ + δ + u_i + e'_i, Var(u) = ρσ², Var(e) = (1 − ρ)σ². */
function simulate(g: RandomGenerator, delta: number): { before: PromptResult[]; after: PromptResult[] } {
  const before: PromptResult[] = [];
  const after: PromptResult[] = [];
  for (let i = 0; i < PROMPTS; i++) {
    const shared = Math.sqrt(RHO) * SIGMA * gaussian(g);
    const id = `p${i}`;
    before.push({ id, weight: 1, score: 0.6 + shared + Math.sqrt(1 - RHO) * SIGMA * gaussian(g) });
    after.push({ id, weight: 1, score: 0.6 + delta + shared + Math.sqrt(1 - RHO) * SIGMA * gaussian(g) });
  }
  return { before, after };
}

function operatingRate(delta: number, mde: number, seed: number): { flagged: number; pointEstimateRule: number } {
  const g = xoroshiro128plus(seed);
  let flagged = 0;
  let pointEstimateRule = 0;
  for (let b = 0; b < BLUEPRINTS; b++) {
    const { before, after } = simulate(g, delta);
    const t = driftTest(before, after, mde, xoroshiro128plus(seed * 7919 + b), { resamples: RESAMPLES });
    if (t.flagged) flagged++;
    if (t.excludesZero && Math.abs(t.difference!) > mde) pointEstimateRule++;
  }
  return { flagged: flagged / BLUEPRINTS, pointEstimateRule: pointEstimateRule / BLUEPRINTS };
}

const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1e6;
};

describe('drift test on 1,000 simulated blueprints', () => {
  const omega2 = pairedDifferenceVariance(SIGMA, SIGMA, RHO);
  const mde = minimumDetectableEffect(omega2, PROMPTS);

  it('uses the planner’s MDE for the simulated variance (ω² = 2σ²(1 − ρ))', () => {
    expect(omega2).toBeCloseTo(0.04, 12);
    expect(mde).toBeCloseTo((1.959963984540054 + 0.8416212335729143) * Math.sqrt(0.04 / PROMPTS), 12);
  });

  it('flags a true change of 0 in at most 5% of blueprints', { timeout: 60_000 }, () => {
    const started = process.cpuUsage();
    const r = operatingRate(0, mde, 11);
    console.info(`drift simulation: δ = 0 → flagged ${(r.flagged * 100).toFixed(1)}% (${cpuSeconds(started).toFixed(1)} s CPU)`);
    expect(r.flagged).toBeLessThanOrEqual(0.05);
  });

  it('finds a true change of one MDE in about 80% of blueprints (the point-estimate gate would find about half)', { timeout: 60_000 }, () => {
    const started = process.cpuUsage();
    const r = operatingRate(mde, mde, 23);
    console.info(
      `drift simulation: δ = 1 MDE (${mde.toFixed(4)}) → flagged ${(r.flagged * 100).toFixed(1)}%, point-estimate gate ${(r.pointEstimateRule * 100).toFixed(1)}% (${cpuSeconds(started).toFixed(1)} s CPU)`,
    );
    expect(r.flagged).toBeGreaterThanOrEqual(0.74);
    expect(r.flagged).toBeLessThanOrEqual(0.86);
    expect(r.pointEstimateRule).toBeGreaterThan(0.4);
    expect(r.pointEstimateRule).toBeLessThan(0.6);
  });
});
