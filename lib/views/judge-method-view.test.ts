import { describe, expect, it } from 'vitest';
import type { JudgeMethodCount } from '@/lib/server/db/queries/run-judge-methods';
import { runJudgeMethods, runMixedMethodsNote } from './judge-method-view';

const row = (r: Partial<JudgeMethodCount>): JudgeMethodCount => ({ judge: 'openai:o4-mini', approach: 'standard', method: 'samples', sampledBecause: 'logprobs-refused', n: 3, count: 6, ...r });

describe('how a run’s judges were read, per judge', () => {
  it('says each judge’s method once when it was read one way, with why it was sampled', () => {
    const said = runJudgeMethods([row({}), row({ judge: 'openai:gpt-4o', approach: 'prompt-aware', method: 'logprobs', sampledBecause: null, n: null })]);
    expect([...said]).toEqual([
      ['openai:o4-mini (standard)', '3 samples each (the model refuses log-probabilities)'],
      ['openai:gpt-4o (prompt-aware)', 'log-probabilities'],
    ]);
  });

  it('counts the verdicts of each way when one judge was read two ways (some labels unreadable in its log-probabilities)', () => {
    const said = runJudgeMethods([
      row({ judge: 'openai:gpt-4o', method: 'logprobs', sampledBecause: null, n: null, count: 5 }),
      row({ judge: 'openai:gpt-4o', sampledBecause: 'label-not-in-logprobs', count: 1 }),
    ]);
    expect(said.get('openai:gpt-4o (standard)')).toBe('log-probabilities on 5 verdicts; 3 samples each (the label could not be found in the log-probabilities) on 1 verdict');
  });

  it('notes a panel that mixes methods, and only then', () => {
    expect(runMixedMethodsNote([row({}), row({ judge: 'openai:gpt-4o', method: 'logprobs', sampledBecause: null, n: null })])).toMatch(/different methods/);
    expect(runMixedMethodsNote([row({}), row({ judge: 'openai:gpt-5' })])).toBeNull();
  });
});
