import { describe, expect, it } from 'vitest';
import type { HeatmapPage } from '@/lib/server/db/queries/run-heatmap';
import type { RunModelRow } from '@/lib/server/db/queries/run-ranking';
import { scoreColour } from './colour-scale';
import { cellText, heatmapView } from './heatmap-view';

const model = (modelId: string, score: number | null): RunModelRow => ({
  modelId,
  displayName: null,
  score,
  ciLow: null,
  ciHigh: null,
  promptCount: 2,
  replyCount: 2,
  verdictCount: 4,
  errorCount: 0,
  costUsd: 0,
  latencyMsP50: null,
});

const page: HeatmapPage = {
  prompts: [
    { promptKey: 'p1', position: 0, weight: 1, snippet: 'What is the capital of Australia?' },
    { promptKey: 'p2', position: 1, weight: 1, snippet: 'Rewrite this email' },
  ],
  cells: [
    { promptKey: 'p1', modelId: 'openai:gpt-4o', score: 0.9, attempts: 1, errorCount: 0, gateFailed: false },
    { promptKey: 'p1', modelId: 'x:weak/model', score: 0, attempts: 1, errorCount: 1, gateFailed: true },
    { promptKey: 'p2', modelId: 'x:weak/model', score: null, attempts: 1, errorCount: 1, gateFailed: false },
  ],
  total: 40,
  sealedCount: 1,
};

describe('heatmap view', () => {
  const v = heatmapView('run1', [model('openai:gpt-4o', 0.8), model('x:weak/model', 0.3)], page, { page: 1, pageSize: 25, sort: 'position' });

  it('puts models in ranking order as columns, linked to the model in this run', () => {
    expect(v.columns.map((c) => [c.label, c.href, c.scoreLabel])).toEqual([
      ['gpt-4o', '/runs/run1/models/openai%3Agpt-4o', '80.0'],
      ['model', '/runs/run1/models/x%3Aweak/model', '30.0'],
    ]);
  });

  it('makes every cell a deep link whose name says prompt, model, score and errors', () => {
    const [good, weak] = v.rows[0]?.cells ?? [];
    expect(good).toMatchObject({ text: '90', href: '/runs/run1/prompts/p1?model=openai%3Agpt-4o#cell', ariaLabel: 'p1 × gpt-4o: score 90.0', ...{ background: scoreColour(0.9).background } });
    expect(weak).toMatchObject({ text: '0 ⊘', gateFailed: true, ariaLabel: 'p1 × model: score 0.0, a gate failed (scored 0), 1 error' });
    expect(good?.gateFailed).toBe(false);
    expect(v.rows[0]?.meanLabel).toBe('45.0');
  });

  it('shows failed and missing cells as such, never as 0', () => {
    const [notRun, failed] = v.rows[1]?.cells ?? [];
    expect(notRun).toMatchObject({ text: '—', ariaLabel: 'p2 × gpt-4o: not run' });
    expect(failed).toMatchObject({ text: 'err', ariaLabel: 'p2 × model: no score, failed, 1 error', background: scoreColour(null).background });
    expect(cellText(null, 1, 0)).toBe('—');
  });

  it('counts sealed prompts without naming them, and pages through the rest', () => {
    expect(v.sealedNote).toBe('1 sealed test prompt is scored in every model’s total but not shown.');
    expect(JSON.stringify(v)).not.toMatch(/sealed-holdout/);
    expect(v.pagination).toMatchObject({ pages: 2, nextHref: '/runs/run1?page=2' });
    expect(v.sorts.find((s) => s.current)?.label).toBe('Blueprint order');
    expect(heatmapView('run1', [], { ...page, prompts: [], cells: [], total: 0 }, { page: 1, pageSize: 25, sort: 'hardest' }).emptyMessage).toMatch(/No results yet/);
  });
});
