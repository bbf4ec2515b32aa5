/**
 * The embedding client port, shaped by its consumer (embedTexts, the retrieval run): a batch of
 * texts in, one vector per text out, in order, with errors already classified as the chat port
 * classifies them (ProviderError: retryable / rate_limited / auth …), so one retry policy serves both.
 */
import type { Served } from '@/lib/core';

export type { Served };

/** Documents and queries are embedded differently by some providers (Gemini's task types). */
export type EmbeddingKind = 'document' | 'query';

export interface EmbeddingRequest {
  /** Provider-native model id (`text-embedding-3-small`, `gemini-embedding-001`…). */
  model: string;
  /** At most the client's `maxBatch` texts, non-empty. */
  inputs: string[];
  kind?: EmbeddingKind;
  signal?: AbortSignal;
  /** Per-call deadline; the adapter's default applies when absent. */
  timeoutMs?: number;
}

export interface EmbeddingResponse {
  /** One vector per input, in the order of `inputs`, all of one dimension. */
  vectors: number[][];
  usage: { promptTokens: number } | null;
  /** Estimated from the price table (cost.ts) when the provider reports tokens; null when unknown. */
  costUsd: number | null;
  latencyMs: number;
  served: Served;
}

export interface EmbeddingClient {
  /** Provider name as in model ids (`openai`, `google`, `custom`…). */
  readonly provider: string;
  /** The provider-native model this client was resolved for (what `resolveEmbeddingClient` strips the prefix from). */
  readonly model: string;
  /** Most inputs one request may carry (OpenAI 2048, Gemini 100, custom: its spec). */
  readonly maxBatch: number;
  /**
   * Calls sharing this key share one concurrency limit (the provider's account rate limit):
   * the provider name, or for a custom endpoint its origin.
   */
  readonly concurrencyKey: string;
  /**
   * Resolves with one vector per input or rejects with a ProviderError; a call cancelled through
   * `req.signal` rejects with the signal's reason (an AbortError), which is not retried.
   */
  embed(req: EmbeddingRequest): Promise<EmbeddingResponse>;
}
