import { describe, expect, it } from 'vitest';
import { runWaitKindOf } from '@/lib/core';
import { roughDuration, runWaitJson, runWaitsView, runWaitView, waitRemainingMs, type RunWait } from './run-wait-view';

const now = new Date('2026-12-06T13:13:00Z');

const wait = (over: Partial<RunWait> = {}): RunWait => ({
  modelId: 'openai:gpt-4o',
  provider: 'openai',
  kind: 'rate_limited',
  message: 'openai: HTTP 429: Rate limit reached for requests per minute.',
  httpStatus: 429,
  retryAfterAt: '2026-12-06T14:05:00.000Z',
  nextAttemptAt: '2026-12-06T14:05:00.000Z',
  attempt: 1,
  since: '2026-12-06T13:05:00.000Z',
  ...over,
});

describe('why a run waits, in words', () => {
  it('names the model, the 429, the moment the provider asked for and the next attempt, with how far off they are', () => {
    expect(runWaitView(wait(), now)).toEqual({
      modelId: 'openai:gpt-4o',
      text: 'Waiting for openai:gpt-4o — rate limited, the provider asked to retry at 14:05 UTC (in 52 min); next attempt 14:05 UTC (in 52 min)',
      detail: 'openai: HTTP 429: Rate limit reached for requests per minute.',
    });
  });

  it('says each kind of wait apart', () => {
    const text = (over: Partial<RunWait>) => runWaitView(wait(over), now).text;
    expect(text({ retryAfterAt: null, nextAttemptAt: '2026-12-06T13:13:04.000Z' })).toBe('Waiting for openai:gpt-4o — rate limited (HTTP 429), backing off; next attempt 13:13 UTC (in 4 s)');
    expect(text({ kind: 'retry_after', httpStatus: 503, retryAfterAt: '2026-12-06T13:18:00.000Z', nextAttemptAt: '2026-12-06T13:18:00.000Z' })).toBe(
      'Waiting for openai:gpt-4o — the provider answered HTTP 503 and asked to retry at 13:18 UTC (in 5 min); next attempt 13:18 UTC (in 5 min)',
    );
    expect(text({ kind: 'backoff', httpStatus: 500, attempt: 2, retryAfterAt: null, nextAttemptAt: '2026-12-06T13:13:02.000Z' })).toBe(
      'Waiting for openai:gpt-4o — backing off after 2 failed attempts (last: HTTP 500); next attempt 13:13 UTC (in 2 s)',
    );
    expect(text({ kind: 'batch', httpStatus: null, message: null, retryAfterAt: null, nextAttemptAt: '2026-12-06T13:14:00.000Z' })).toBe(
      'Waiting for openai:gpt-4o — its calls are in a provider batch that has not ended yet; next poll 13:14 UTC (in 1 min)',
    );
  });

  it('dates a moment on another day, says a passed one is due, and gives only moments without a now', () => {
    expect(runWaitView(wait({ retryAfterAt: null, nextAttemptAt: '2026-12-07T01:00:00.000Z' }), now).text).toMatch(/next attempt 2026-12-07 01:00 UTC \(in 11 h 47 min\)$/);
    expect(runWaitView(wait(), new Date('2026-12-06T14:06:00Z')).text).toMatch(/next attempt 14:05 UTC \(due now\)$/);
    expect(runWaitView(wait(), null).text).toBe('Waiting for openai:gpt-4o — rate limited, the provider asked to retry at 2026-12-06 14:05 UTC; next attempt 2026-12-06 14:05 UTC');
  });

  it('puts the wait that ends last first, and measures what is left of it from now', () => {
    const short = wait({ modelId: 'anthropic:claude', nextAttemptAt: '2026-12-06T13:20:00.000Z', retryAfterAt: null });
    expect(runWaitsView([short, wait()], now).map((w) => w.modelId)).toEqual(['openai:gpt-4o', 'anthropic:claude']);
    expect(waitRemainingMs([short, wait()], now)).toBe(52 * 60_000);
    expect(waitRemainingMs([short], new Date('2026-12-06T13:30:00Z'))).toBe(0);
    expect(waitRemainingMs([], now)).toBeNull();
  });

  it('rounds how far off a moment is to the unit a reader plans with', () => {
    expect([roughDuration(40_400), roughDuration(52 * 60_000 + 20_000), roughDuration(65 * 60_000), roughDuration(2 * 3_600_000)]).toEqual(['40 s', '52 min', '1 h 5 min', '2 h']);
  });

  it('reads a stored row into the API’s JSON and refuses a kind it does not know', () => {
    const row = { modelId: 'openai:gpt-4o', provider: 'openai', kind: 'rate_limited', message: null, httpStatus: 429, retryAfterAt: new Date('2026-12-06T14:05:00Z'), nextAttemptAt: null, attempt: 2, since: new Date('2026-12-06T13:05:00Z') };
    expect(runWaitJson(row)).toMatchObject({ kind: 'rate_limited', retryAfterAt: '2026-12-06T14:05:00.000Z', nextAttemptAt: null, since: '2026-12-06T13:05:00.000Z' });
    expect(() => runWaitJson({ ...row, kind: 'sleeping' })).toThrow();
  });
});

describe('the kind of wait a retried failure starts', () => {
  it('is rate limiting for a 429, a retry-after when another failure names a moment, our backoff otherwise', () => {
    expect(runWaitKindOf({ kind: 'rate_limited' })).toBe('rate_limited');
    expect(runWaitKindOf({ kind: 'rate_limited', retryAfterMs: 3_600_000 })).toBe('rate_limited');
    expect(runWaitKindOf({ kind: 'retryable', retryAfterMs: 5_000 })).toBe('retry_after');
    expect(runWaitKindOf({ kind: 'timeout' })).toBe('backoff');
  });
});
