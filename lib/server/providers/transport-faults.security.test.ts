/**
 * Issue 11 (Low), the provider half: a 200 with a truncated, empty or HTML body was a
 * `malformed` reply (never retried). Every adapter now classes it `transport` through the one
 * classifier (classify.ts), so the retry policy retries it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { AnthropicClient } from './anthropic';
import { bodyFault } from './classify';
import { OpenAiCompatibleClient } from './openai-compatible';
import { withRetry } from './retry';
import { isProviderError, type LlmClient } from './types';

let fake: FakeLlm;
beforeAll(async () => void (fake = await startFakeLlm()));
afterAll(async () => fake?.close());

const clients = (): LlmClient[] => [
  new OpenAiCompatibleClient({ provider: 'openai', baseURL: fake.url, apiKey: 'k' }),
  new AnthropicClient({ apiKey: 'k', baseURL: fake.origin }),
];
const ask = (c: LlmClient) => c.chat({ model: 'm', messages: [{ role: 'user', content: 'hi' }], timeoutMs: 5_000 });

describe('transport faults', () => {
  for (const kind of ['truncated', 'empty', 'html'] as const) {
    it(`a ${kind} 200 body is a retryable transport error from every adapter`, async () => {
      fake.setFaults({ [kind]: 1 });
      for (const c of clients()) {
        const e = await ask(c).then(() => null, (x: unknown) => x);
        expect(isProviderError(e) && e.kind, c.provider).toBe('transport');
        expect(isProviderError(e) && e.retryable).toBe(true);
      }
    });
  }

  it('is retried until the body arrives whole', async () => {
    fake.setFaults({ truncated: 0.3, empty: 0.2, html: 0.2 });
    for (const c of clients()) {
      for (let i = 0; i < 10; i++) {
        const r = await withRetry(() => c.chat({ model: 'm', messages: [{ role: 'user', content: `q${i}` }] }), { maxAttempts: 12, baseDelayMs: 1, maxDelayMs: 5 });
        expect(r.content).toMatch(/Fake reply/);
      }
    }
    expect(fake.requests().some((r) => r.fault)).toBe(true);
  });

  it('keeps a well-formed JSON reply that lacks an answer a malformed one (not retried)', () => {
    expect(bodyFault('openai', { choices: [] })).toBeNull();
    expect(bodyFault('openai', '')?.kind).toBe('transport');
    expect(bodyFault('openai', '<!doctype html><p>502')?.message).toMatch(/an HTML page/);
  });
});
