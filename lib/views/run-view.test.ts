import { describe, expect, it } from 'vitest';
import { batchFacts, coverageText, judgePanelView } from './run-view';
import { runMixedMethodsNote } from './judge-method-view';

describe('the run header', () => {
  it('shows a batch-mode run’s mode and batch discount, and nothing of the kind for a live run', () => {
    expect(batchFacts({ mode: 'batch', lines: 48, batches: 3, savedUsd: 0.0042 })).toEqual([
      { label: 'Mode', value: 'batch: 48 calls in 3 provider batches' },
      { label: 'Batch discount', value: '$0.0042 saved' },
    ]);
    expect(batchFacts({ mode: 'batch', lines: 1, batches: 1, savedUsd: null })[1]).toEqual({ label: 'Batch discount', value: 'unknown (no price for these models)' });
    expect(batchFacts({ mode: 'live', lines: 0, batches: 0, savedUsd: 0 })).toEqual([]);
  });

  it('names the judge panel and flags a judge that is also a graded model', () => {
    const judges = [
      { model: 'openai:judge-a', approach: 'standard' },
      { model: 'openai:model-c', approach: 'prompt-aware' },
    ];
    expect(judgePanelView(judges, ['openai:model-c', 'openai:model-d'])).toEqual([
      { label: 'openai:judge-a (standard)', alsoGraded: false, method: null },
      { label: 'openai:model-c (prompt-aware)', alsoGraded: true, method: null },
    ]);
    expect(judgePanelView('not a panel', [])).toEqual([]);
  });

  it('says per judge how its answers were read: a reasoning judge sampled, with how many samples and why', () => {
    const judges = [
      { model: 'openai:o4-mini', approach: 'standard' },
      { model: 'openai:judge-lp', approach: 'standard' },
    ];
    const methods = [
      { judge: 'openai:judge-lp', approach: 'standard', method: 'logprobs', sampledBecause: null, n: null, count: 4 },
      { judge: 'openai:o4-mini', approach: 'standard', method: 'samples', sampledBecause: 'logprobs-refused' as const, n: 3, count: 4 },
    ];
    expect(judgePanelView(judges, [], methods).map((j) => [j.label, j.method])).toEqual([
      ['openai:o4-mini (standard)', '3 samples each (the model refuses log-probabilities)'],
      ['openai:judge-lp (standard)', 'log-probabilities'],
    ]);
    expect(runMixedMethodsNote(methods)).toMatch(/read by different methods/);
    expect(runMixedMethodsNote(methods.slice(1))).toBeNull();
  });

  it('states coverage per class of point, leaving out a class the run has none of', () => {
    expect(coverageText({ judgedVerdicts: 8, judgedScored: 0, deterministicVerdicts: 6, deterministicScored: 6 })).toBe('judged 0 of 8 (0%) · deterministic 6 of 6 (100%)');
    expect(coverageText({ judgedVerdicts: 0, judgedScored: 0, deterministicVerdicts: 3, deterministicScored: 2 })).toBe('deterministic 2 of 3 (67%)');
    expect(coverageText({ judgedVerdicts: 0, judgedScored: 0, deterministicVerdicts: 0, deterministicScored: 0 })).toBe('—');
  });
});
