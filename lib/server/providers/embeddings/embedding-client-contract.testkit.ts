/**
 * The one contract every EmbeddingClient adapter must honour, run against each of them through
 * the real fake server (as llm-client-contract.testkit.ts does for chat): vectors in input order
 * and equal to the fake's, errors classified alike (429 with retry-after, 5xx, 401 with the key
 * redacted, a short or cut-off reply, a hang), batches bounded by maxBatch, cancellation.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { DEFAULT_EMBEDDING_MODELS, embeddingModelFor, fakeEmbedding } from '@/testing/fakes/llm-server-embeddings';
import { isAbortError } from '../deadline';
import { rejection } from '../llm-client-contract.testkit';
import { ProviderError } from '../types';
import type { EmbeddingClient } from './types';

export const CONTRACT_KEY = 'sk-contract-0123456789abcdef';
export const WRONG_KEY = 'sk-wrong-9876543210fedcba';

export interface EmbeddingContractContext {
  fake: FakeLlm;
  apiKey: string;
  /** The model the adapter must be bound to. */
  model: string;
}

export interface EmbeddingContractOptions {
  provider: string;
  maxBatch: number;
  /** Token usage (and so a cost from the price table) is reported. */
  usage: boolean;
  /** A 429's retry-after reaches the error (Gemini's SDK drops response headers on errors). */
  retryAfter: boolean;
}

const TEXTS = ['Photosynthesis turns light into chemical energy.', 'The Treaty of Westphalia ended the Thirty Years War.', 'Mitochondria make ATP.'];

export function runEmbeddingClientContract(name: string, makeClient: (ctx: EmbeddingContractContext) => EmbeddingClient, options: EmbeddingContractOptions): void {
  const model = 'fake-embed-large';

  describe(`EmbeddingClient contract: ${name}`, () => {
    let fake: FakeLlm;
    let client: EmbeddingClient;
    const embed = (inputs: string[], extra: { signal?: AbortSignal; timeoutMs?: number; kind?: 'document' | 'query' } = {}) => client.embed({ model: client.model, inputs, ...extra });

    beforeAll(async () => {
      fake = await startFakeLlm({ apiKeys: [CONTRACT_KEY] });
      client = makeClient({ fake, apiKey: CONTRACT_KEY, model });
    });
    afterAll(() => fake.close());
    beforeEach(() => fake.reset());

    it('says who it is and how much one request may carry', () => {
      expect(client.provider).toBe(options.provider);
      expect(client.model).toBe(model);
      expect(client.maxBatch).toBe(options.maxBatch);
      expect(client.concurrencyKey).toMatch(new RegExp(`^${options.provider}`));
    });

    it('returns one vector per input, in input order, exactly the fake’s float32 values', async () => {
      const res = await embed(TEXTS, { kind: 'document' });
      const spec = embeddingModelFor(model, DEFAULT_EMBEDDING_MODELS);
      expect(res.vectors).toHaveLength(3);
      res.vectors.forEach((v, i) => expect(v).toEqual(Array.from(fakeEmbedding(TEXTS[i]!, model, spec))));
      expect(res.vectors[0]).toHaveLength(256);
      expect(res.latencyMs).toBeGreaterThanOrEqual(0);
      const stats = fake.stats().embeddings;
      expect(stats).toEqual({ calls: 1, inputs: 3, byModel: { [model]: { calls: 1, inputs: 3 } }, peakInFlight: 1 });
    });

    it(options.usage ? 'reports usage and the cost from the price table' : 'reports no usage and so no cost (unknown, not free)', async () => {
      const res = await embed(TEXTS);
      if (options.usage) {
        const words = TEXTS.join(' ').split(/\s+/).length;
        expect(res.usage).toEqual({ promptTokens: words });
        expect(res.costUsd).toBeCloseTo((words * 0.1) / 1e6, 12); // fake-embed-large: $0.10 per 1M tokens
      } else {
        expect(res.usage).toBeNull();
        expect(res.costUsd).toBeNull();
      }
    });

    it('refuses an empty batch or one over maxBatch without calling the provider', async () => {
      const none = await rejection(embed([]));
      const over = await rejection(embed(Array.from({ length: options.maxBatch + 1 }, (_, i) => `text ${i}`)));
      for (const e of [none, over]) expect(e).toMatchObject({ kind: 'bad_request', provider: options.provider });
      expect(fake.stats().embeddings.calls).toBe(0);
    });

    it('classifies a 429 as rate_limited (retryable) with the provider’s retry-after', async () => {
      fake.setFaults({ rateLimited: 1, retryAfter: '2' });
      const e = await rejection(embed(TEXTS));
      expect(e).toBeInstanceOf(ProviderError);
      expect(e).toMatchObject({ kind: 'rate_limited', status: 429, retryable: true });
      if (options.retryAfter) expect((e as ProviderError).retryAfterMs).toBe(2000);
    });

    it('classifies a 500 as retryable', async () => {
      fake.setFaults({ serverError: 1 });
      expect(await rejection(embed(TEXTS))).toMatchObject({ kind: 'retryable', status: 500, retryable: true });
    });

    it('classifies a wrong key as auth, and never shows the key', async () => {
      const bad = makeClient({ fake, apiKey: WRONG_KEY, model });
      const e = (await rejection(bad.embed({ model, inputs: TEXTS }))) as ProviderError;
      expect(e).toMatchObject({ kind: 'auth', status: 401, retryable: false });
      expect(e.message).not.toContain(WRONG_KEY);
    });

    it('refuses a reply with fewer vectors than inputs (malformed, not retried)', async () => {
      fake.setFaults({ malformed: 1 });
      expect(await rejection(embed(TEXTS))).toMatchObject({ kind: 'malformed', retryable: false });
    });

    it('classifies a cut-off, empty or HTML 200 as a transport fault (retried)', async () => {
      for (const fault of [{ truncated: 1 }, { empty: 1 }, { html: 1 }]) {
        fake.setFaults(fault);
        expect(await rejection(embed(TEXTS)), JSON.stringify(fault)).toMatchObject({ kind: 'transport', retryable: true });
      }
    });

    it('times out a hung provider with a timeout error', async () => {
      fake.setFaults({ hang: 1 });
      expect(await rejection(embed(TEXTS, { timeoutMs: 200 }))).toMatchObject({ kind: 'timeout', retryable: true });
    });

    it('rejects with the caller’s abort, not a provider error', async () => {
      fake.setFaults({ hang: 1 });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const e = await rejection(embed(TEXTS, { signal: controller.signal, timeoutMs: 5_000 }));
      expect(isAbortError(e)).toBe(true);
    });
  });
}
