import { describe, expect, it } from 'vitest';
import { startFakeLlm } from '@/testing/fakes/llm-server';
import { OpenAiCompatibleClient } from './openai-compatible';
import { backoffDelay, deadlineAfter, withRetry } from './retry';
import { ProviderError, type ProviderErrorKind } from './types';

const err = (kind: ProviderErrorKind, retryAfterMs?: number) => new ProviderError({ kind, provider: 'p', message: kind, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });

/** A function that fails with the given errors in turn, then succeeds. */
function failing(...errors: Error[]) {
  let calls = 0;
  const fn = async (attempt: number) => {
    calls++;
    const e = errors[attempt - 1];
    if (e) throw e;
    return `ok after ${attempt}`;
  };
  return { fn, calls: () => calls };
}

function recorder() {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

describe('withRetry', () => {
  it('retries retryable, rate-limited and timed-out calls with full-jitter exponential backoff', async () => {
    const { waits, sleep } = recorder();
    const f = failing(err('retryable'), err('timeout'), err('rate_limited'));
    await expect(withRetry(f.fn, { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 10_000, sleep, random: () => 0.5 })).resolves.toBe('ok after 4');
    expect(waits).toEqual([50, 100, 200]);
  });

  it('caps the backoff at maxDelayMs', () => {
    expect(backoffDelay(20, { baseDelayMs: 100, maxDelayMs: 1_000, random: () => 0.999 })).toBe(999);
    expect(backoffDelay(1, { baseDelayMs: 100, maxDelayMs: 1_000, random: () => 0 })).toBe(0);
  });

  it('waits at least the retry-after the provider asked for', async () => {
    const { waits, sleep } = recorder();
    const f = failing(err('rate_limited', 1_500), err('rate_limited', 10));
    await withRetry(f.fn, { baseDelayMs: 100, sleep, random: () => 0.5 });
    expect(waits).toEqual([1_500, 100]);
  });

  it('gives up at once when retry-after is longer than maxDelayMs (the queue can come back later)', async () => {
    const { waits, sleep } = recorder();
    const f = failing(err('rate_limited', 120_000));
    await expect(withRetry(f.fn, { maxDelayMs: 30_000, sleep })).rejects.toMatchObject({ kind: 'rate_limited' });
    expect(waits).toEqual([]);
  });

  it('gives up after maxAttempts with the last error', async () => {
    const { sleep } = recorder();
    const f = failing(err('retryable'), err('retryable'), err('timeout'), err('retryable'));
    await expect(withRetry(f.fn, { maxAttempts: 3, sleep })).rejects.toMatchObject({ kind: 'timeout' });
    expect(f.calls()).toBe(3);
  });

  it.each(['auth', 'bad_request', 'malformed'] as const)('does not retry %s', async (kind) => {
    const { sleep } = recorder();
    const f = failing(err(kind));
    await expect(withRetry(f.fn, { sleep })).rejects.toMatchObject({ kind });
    expect(f.calls()).toBe(1);
  });

  it('does not retry a cancellation or a programming error', async () => {
    const { sleep } = recorder();
    const abort = failing(new DOMException('aborted', 'AbortError'));
    await expect(withRetry(abort.fn, { sleep })).rejects.toThrow('aborted');
    expect(abort.calls()).toBe(1);
    const bug = failing(new TypeError('x is undefined'));
    await expect(withRetry(bug.fn, { sleep })).rejects.toThrow(TypeError);
    expect(bug.calls()).toBe(1);
  });

  it('tells onRetry about each wait', async () => {
    const seen: unknown[] = [];
    const f = failing(err('retryable'));
    await withRetry(f.fn, { sleep: async () => {}, random: () => 0, onRetry: (i) => seen.push([i.attempt, i.delayMs, i.error.kind]) });
    expect(seen).toEqual([[1, 0, 'retryable']]);
  });

  it('stops waiting when the signal aborts', async () => {
    const controller = new AbortController();
    const f = failing(err('retryable', 5_000));
    const p = withRetry(f.fn, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('run cancelled')), 20);
    await expect(p).rejects.toThrow('run cancelled');
  });

  it('tries a timed-out call again once only (it may already be billed), while other faults keep every attempt', async () => {
    const { sleep } = recorder();
    const twice = failing(err('timeout'), err('timeout'));
    await expect(withRetry(twice.fn, { maxAttempts: 4, sleep })).rejects.toMatchObject({ kind: 'timeout' });
    expect(twice.calls()).toBe(2);
    const mixed = failing(err('retryable'), err('timeout'), err('rate_limited'));
    await expect(withRetry(mixed.fn, { maxAttempts: 4, sleep })).resolves.toBe('ok after 4');
    // A caller whose calls bill nothing may allow more.
    const polls = failing(err('timeout'), err('timeout'), err('timeout'));
    await expect(withRetry(polls.fn, { maxAttempts: 5, maxTimeoutRetries: 4, sleep })).resolves.toBe('ok after 4');
  });

  it('gives the retry after a timeout twice the deadline, and every other attempt the same one', async () => {
    const deadlines: number[] = [];
    const f = failing(err('retryable'), err('timeout'));
    await withRetry((attempt, previous) => (deadlines.push(deadlineAfter(1_000, previous)), f.fn(attempt)), { sleep: async () => {} });
    expect(deadlines).toEqual([1_000, 1_000, 2_000]);
  });

  it('gets through 429s from the real fake by honouring its retry-after', async () => {
    // With seed 4 this request draws 429 three times, then succeeds (draws are per occurrence, so retries differ).
    const fake = await startFakeLlm({ faults: { rateLimited: 0.5 }, seed: 4 });
    try {
      const client = new OpenAiCompatibleClient({ provider: 'openai', baseURL: fake.url, apiKey: 'k' });
      const { waits, sleep } = recorder();
      const res = await withRetry(() => client.chat({ model: 'fake-model', messages: [{ role: 'user', content: 'hello' }] }), { sleep, random: () => 0 });
      expect(res.content).toContain('Fake reply');
      expect(fake.requests().map((r) => r.status)).toEqual([429, 429, 429, 200]);
      expect(waits).toEqual([50, 50, 50]);
      expect(fake.duplicateCompletedCalls()).toBe(0);
    } finally {
      await fake.close();
    }
  });
});
