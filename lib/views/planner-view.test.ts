import { describe, expect, it } from 'vitest';
import { planBlueprint, type PromptResult } from '@/lib/core';
import { PLANNER_PAIRS_SHOWN, plannerView } from './planner-view';

const prompts = (scores: number[]): PromptResult[] => scores.map((score, i) => ({ id: `p${i}`, weight: 1, score }));
const run = { runId: 'r1', finishedAt: new Date('2026-11-29T12:00:00Z') };

describe('planner view', () => {
  it('states the MDE in points and the prompts some differences need', () => {
    // ω² = 0.04/3 over 4 prompts: MDE 0.16175; n(0.1) = 7.84888 · 0.013333 / 0.01 = 10.5 → 11; n(0.05) = 42; n(0.03) = 117; n(0.02) = 262
    const plan = planBlueprint([
      { modelId: 'openai:a', prompts: prompts([0.2, 0.4, 0.6, 0.8]) },
      { modelId: 'openai:b', prompts: prompts([0.1, 0.5, 0.5, 0.9]) },
    ]);
    const v = plannerView({ blueprintId: 'x', title: 'X', run, plan, runMde: plan.mde }, new Map([['openai:a', 'Model A']]));
    expect(v.mde).toBe('16.2 points');
    expect(v.figure).toEqual({ 'data-figure': 'mde|run=r1', 'data-value': '16.2' });
    expect(v.headline).toBe('With its 4 prompts, this blueprint tells two models apart (at 80% power, α = 0.05) when their scores differ by at least 16.2 points; a smaller gap may be noise.');
    expect(v.needed).toEqual([
      { delta: '10 points', prompts: '11', enough: false },
      { delta: '5 points', prompts: '42', enough: false },
      { delta: '3 points', prompts: '117', enough: false },
      { delta: '2 points', prompts: '262', enough: false },
    ]);
    // spreads on the same 0–100 point scale as the MDE beside them (ω 0.1155 → 11.5 points); ρ stays a correlation
    expect(v.basis).toEqual([
      { label: 'Spread of prompt scores (σ, mean over models)', value: '29.2 points' },
      { label: 'Correlation between models (ρ, mean over 1 pair)', value: '0.95' },
      { label: 'Spread of the paired difference (ω)', value: '11.5 points' },
      { label: 'Scored prompts', value: '4' },
    ]);
    expect(v.pairs).toEqual([{ label: 'Model A vs b', paired: '4', rho: '0.95', omega: '11.5', mde: '16.2' }]);
    expect(v.run).toEqual({ href: '/runs/r1', label: 'the run of 2026-11-29 12:00 UTC' });
  });

  it('lists the pairs hardest to tell apart first, at most PLANNER_PAIRS_SHOWN of them, and says where the rest are', () => {
    // 30 models: 435 pairs; model i's scores are spread i times as wide, so pairs with wide models have large MDEs
    const models = Array.from({ length: 30 }, (_v, i) => ({ modelId: `openai:m${i}`, prompts: prompts([0.5 - 0.01 * i, 0.5 + 0.01 * i, 0.5 - 0.005 * i, 0.5 + 0.02 * i]) }));
    const plan = planBlueprint(models);
    expect(plan.pairs).toHaveLength(435);
    const v = plannerView({ blueprintId: 'big', title: 'Big', run, plan, runMde: plan.mde }, new Map());
    expect(v.pairs).toHaveLength(PLANNER_PAIRS_SHOWN);
    const largest = [...plan.pairs].sort((a, b) => b.mde - a.mde)[0]!;
    expect(v.pairs[0]!.mde).toBe((largest.mde * 100).toFixed(1));
    const shown = v.pairs.map((p) => Number(p.mde));
    expect(shown).toEqual([...shown].sort((a, b) => b - a));
    expect(v.pairsNote).toBe(`The ${PLANNER_PAIRS_SHOWN} pairs of 435 hardest to tell apart (largest MDE); \`assay plan big --json\` lists every pair.`);
  });

  it('says why there is no plan', () => {
    expect(plannerView({ blueprintId: 'x', title: 'X', run: null, plan: null, runMde: null }, new Map()).empty).toMatch(/^No completed run yet/);
    const none = planBlueprint([{ modelId: 'a', prompts: prompts([0.5]) }]);
    expect(plannerView({ blueprintId: 'x', title: 'X', run, plan: none, runMde: null }, new Map()).empty).toMatch(/fewer than two prompts/);
  });

  it('shows the run’s stored MDE, the figure its drift checks compare with, not a second computation', () => {
    const plan = planBlueprint([
      { modelId: 'openai:a', prompts: prompts([0.2, 0.4, 0.6, 0.8]) },
      { modelId: 'openai:b', prompts: prompts([0.1, 0.5, 0.5, 0.9]) },
    ]);
    const v = plannerView({ blueprintId: 'x', title: 'X', run, plan, runMde: 0.3128 }, new Map());
    expect([v.mde, v.mdeValue, v.figure]).toEqual(['31.3 points', '31.3', { 'data-figure': 'mde|run=r1', 'data-value': '31.3' }]);
    expect(v.headline).toMatch(/differ by at least 31\.3 points/);
  });
});
