import { describe, expect, it } from 'vitest';
import { HeatmapSortSchema, RunModelSortSchema } from '@/lib/core';
import { BlueprintParams, CompareParams, HEATMAP_MAX_CELLS, HEATMAP_PAGE_SIZE, heatmapPageSize, ModelParams, RunModelParams, RunParams } from './params';
import { href } from './urls';

describe('the sort parameters', () => {
  it('take every value of the sort vocabulary and fall back to its default on anything else', () => {
    for (const sort of HeatmapSortSchema.options) expect(RunParams.parse({ sort }).sort).toBe(sort);
    for (const sort of RunModelSortSchema.options) expect(RunModelParams.parse({ sort }).sort).toBe(sort);
    expect(RunParams.parse({ sort: 'weakest' }).sort).toBe('position');
    expect(RunModelParams.parse({ sort: 'hardest' }).sort).toBe('weakest');
    expect(RunParams.parse({}).sort).toBe('position');
  });

  it('round-trip through the links, the default left out', () => {
    for (const sort of HeatmapSortSchema.options) {
      const q = new URL(href.run('r1', { sort }), 'http://x').searchParams;
      expect(RunParams.parse(Object.fromEntries(q)).sort).toBe(sort);
    }
    expect(href.run('r1', { sort: 'position' })).toBe('/runs/r1');
    expect(href.runModel('r1', 'm', { sort: 'weakest' })).toBe('/runs/r1/models/m');
  });
});

describe('comparison parameters', () => {
  it('accept model ids with ":" and "/", and drop what is malformed instead of failing the page', () => {
    expect(CompareParams.parse({ a: 'openrouter:openai/gpt-4o', b: 'openai:gpt-4o-mini', tag: 'coding' })).toEqual({ a: 'openrouter:openai/gpt-4o', b: 'openai:gpt-4o-mini', tag: 'coding' });
    expect(CompareParams.parse({ a: ['x', 'y'], b: '', tag: 'x'.repeat(600) })).toEqual({ a: undefined, b: undefined, tag: undefined });
    expect(BlueprintParams.parse({ page: '2', a: 'm:a', b: 'x'.repeat(301) })).toEqual({ page: 2, a: 'm:a', b: undefined });
    expect(ModelParams.parse({ vs: 'anthropic:claude' })).toEqual({ vs: 'anthropic:claude' });
    expect(ModelParams.parse({})).toEqual({ vs: undefined });
  });
});

describe('heatmap page size', () => {
  it('shows 20 prompts a page up to 20 models, then as many as keep a page within HEATMAP_MAX_CELLS cells, never fewer than 5', () => {
    expect([1, 5, 20].map(heatmapPageSize)).toEqual([HEATMAP_PAGE_SIZE, HEATMAP_PAGE_SIZE, HEATMAP_PAGE_SIZE]);
    expect(heatmapPageSize(50)).toBe(8);
    expect(heatmapPageSize(50) * 50).toBeLessThanOrEqual(HEATMAP_MAX_CELLS);
    expect(heatmapPageSize(200)).toBe(5);
    expect(heatmapPageSize(0)).toBe(HEATMAP_PAGE_SIZE);
  });
});
