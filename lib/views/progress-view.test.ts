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

  it('says why a waiting run stands still, and counts the wait in the estimate', () => {
    // the demo's live run: 39 of 65 replies after 14 minutes, one model's provider asked for an hour
    const waiting = {
      ...row,
      totalCalls: 65,
      doneCalls: 39,
      startedAt: new Date('2026-12-06T13:00:00Z'),
      waits: [
        {
          modelId: 'openai:gpt-4o',
          provider: 'openai',
          kind: 'rate_limited',
          message: 'openai: HTTP 429: Rate limit reached for requests per minute.',
          httpStatus: 429,
          retryAfterAt: new Date('2026-12-06T14:05:00Z'),
          nextAttemptAt: new Date('2026-12-06T14:05:00Z'),
          attempt: 1,
          since: new Date('2026-12-06T13:05:00Z'),
        },
      ],
    };
    const v = progressView(progressJson(waiting), new Date('2026-12-06T13:14:00Z'));
    expect(v.statusLabel).toBe('Generating replies');
    expect(v.waits.map((w) => w.text)).toEqual(['Waiting for openai:gpt-4o — rate limited, the provider asked to retry at 14:05 UTC (in 51 min); next attempt 14:05 UTC (in 51 min)']);
    // 51 min of waiting plus the 26 replies left at 39 per 14 min (9 min 20 s)
    expect(v.facts.find((f) => f.label === 'Estimated time left')?.value).toBe('about 1 h 0 min (51 min 0 s of it waiting on a provider)');
    // the linear estimate alone would have said about 9 min; too little done to extrapolate, the wait is the floor
    const early = progressView(progressJson({ ...waiting, doneCalls: 1 }), new Date('2026-12-06T13:14:00Z'));
    expect(early.facts.find((f) => f.label === 'Estimated time left')?.value).toBe('at least 51 min 0 s (waiting on a provider)');
    // once the moment has passed the wait adds nothing, and an ended run shows no wait at all
    const due = progressView(progressJson(waiting), new Date('2026-12-06T14:10:00Z'));
    expect(due.facts.find((f) => f.label === 'Estimated time left')?.value).toBe('about 46 min 40 s');
    expect(due.waits[0]?.text).toMatch(/\(due now\)$/);
    const ended = progressView(progressJson({ ...waiting, status: 'failed', finishedAt: new Date('2026-12-06T13:20:00Z') }), new Date('2026-12-06T13:30:00Z'));
    expect(ended.waits).toEqual([]);
  });

  it('stops estimating once the run has ended', () => {
    const done = progressView(progressJson({ ...row, status: 'completed', doneCalls: 200, finishedAt: new Date('2026-11-30T10:20:00Z') }), new Date('2026-11-30T11:00:00Z'));
    expect(done.terminal).toBe(true);
    expect(done.facts.map((f) => f.label)).toEqual(['Errors', 'Cost so far', 'Took']);
    expect(done.facts[2]?.value).toBe('20 min 0 s');
  });
});
