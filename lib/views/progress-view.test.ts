import { describe, expect, it } from 'vitest';
import { progressJson, progressView, RunProgressSchema } from './progress-view';

const row = {
  id: 'r1',
  status: 'running',
  totalCalls: 200,
  doneCalls: 50,
  errorCalls: 1,
  totalVerdicts: 1000,
  doneVerdicts: 200,
  errorVerdicts: 2,
  costUsd: 0.0123,
  error: null,
  startedAt: new Date('2026-11-30T10:00:00Z'),
  finishedAt: null,
  updatedAt: new Date('2026-11-30T10:05:00Z'),
};

describe('run progress', () => {
  it('turns a run row into the API’s validated JSON', () => {
    const json = progressJson(row);
    expect(json).toMatchObject({ runId: 'r1', status: 'running', startedAt: '2026-11-30T10:00:00.000Z', finishedAt: null });
    expect(RunProgressSchema.safeParse({ ...json, doneCalls: -1 }).success).toBe(false);
    expect(() => progressJson({ ...row, status: 'exploded' })).toThrow();
  });

  it('says the cost so far is unknown for models priced nowhere, not $0', () => {
    const cost = (unpricedModels: string[], costUsd: number) => progressView(progressJson({ ...row, costUsd, unpricedModels }), new Date('2026-11-30T10:05:00Z')).facts.find((f) => f.label === 'Cost so far')?.value;
    expect(cost(['openai:house-model'], 0)).toBe('unknown (no price known for openai:house-model)');
    expect(cost(['openai:house-judge'], 0.0123)).toBe('$0.01 + unknown (no price known for openai:house-judge)');
  });

  it('shows bars, errors, cost and a labelled estimate while working', () => {
    const v = progressView(progressJson(row), new Date('2026-11-30T10:05:00Z'));
    expect(v.terminal).toBe(false);
    expect(v.bars.map((b) => [b.label, b.percent, b.text])).toEqual([
      ['Replies', 25, '50 of 200 (25%)'],
      ['Verdicts', 20, '200 of 1,000 (20%)'],
    ]);
    expect(v.facts).toEqual([
      { label: 'Errors', value: '1 failed reply, 2 verdict errors' },
      { label: 'Cost so far', value: '$0.01' },
      { label: 'Elapsed', value: '5 min 0 s' },
      { label: 'Estimated time left', value: 'about 15 min 0 s' },
    ]);
  });

  it('stops estimating once the run has ended', () => {
    const done = progressView(progressJson({ ...row, status: 'completed', doneCalls: 200, finishedAt: new Date('2026-11-30T10:20:00Z') }), new Date('2026-11-30T11:00:00Z'));
    expect(done.terminal).toBe(true);
    expect(done.facts.map((f) => f.label)).toEqual(['Errors', 'Cost so far', 'Took']);
    expect(done.facts[2]?.value).toBe('20 min 0 s');
  });
});
