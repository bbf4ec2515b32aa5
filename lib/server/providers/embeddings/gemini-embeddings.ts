/**
 * Gemini embeddings over `@google/genai`: `models.embedContent` with many contents, which the
 * SDK sends to `{model}:batchEmbedContents` on the Gemini API (one request, one vector per text).
 * Documents and queries get Gemini's retrieval task types. The API reports no token count for
 * embeddings, so usage and cost are null (unknown, not free).
 */
import type { EmbedContentParameters, EmbedContentResponse, GoogleGenAI } from '@google/genai';
import { servedFrom } from '@/lib/core';
import { bodyFault, malformedError } from '../classify';
import { DEFAULT_TIMEOUT_MS } from '../deadline';
import { boundedEmbed } from './bounded-embed';
import { classifyGeminiError, geminiSdk } from '../google';
import { lazy } from '../lazy-module';
import type { EmbeddingClient, EmbeddingRequest, EmbeddingResponse } from './types';

/** batchEmbedContents accepts at most 100 requests (https://ai.google.dev/api/embeddings#method:-models.batchembedcontents). */
export const GEMINI_MAX_BATCH = 100;

export interface GeminiEmbeddingOptions {
  model: string;
  apiKey: string;
  baseURL?: string;
  defaultTimeoutMs?: number;
}

export function toGeminiEmbedParams(req: EmbeddingRequest, extra: { signal?: AbortSignal; timeoutMs?: number } = {}): EmbedContentParameters {
  return {
    model: req.model,
    contents: req.inputs.map((text) => ({ role: 'user', parts: [{ text }] })),
    config: {
      ...(req.kind ? { taskType: req.kind === 'query' ? 'RETRIEVAL_QUERY' : 'RETRIEVAL_DOCUMENT' } : {}),
      ...(extra.signal ? { abortSignal: extra.signal } : {}),
      ...(extra.timeoutMs !== undefined ? { httpOptions: { timeout: extra.timeoutMs } } : {}),
    },
  };
}

export function fromGeminiEmbeddings(res: EmbedContentResponse, ctx: { provider: string; inputs: number; latencyMs: number }): EmbeddingResponse {
  const fault = bodyFault(ctx.provider, res);
  if (fault) throw fault;
  const embeddings = res.embeddings;
  if (!Array.isArray(embeddings) || embeddings.length !== ctx.inputs) {
    throw malformedError(ctx.provider, `${Array.isArray(embeddings) ? embeddings.length : 'no'} embeddings for ${ctx.inputs} inputs`);
  }
  const vectors = embeddings.map((e) => {
    const values = e?.values;
    if (!Array.isArray(values) || values.length === 0 || !values.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      throw malformedError(ctx.provider, 'an embedding has no numeric values');
    }
    return values;
  });
  if (vectors.some((v) => v.length !== vectors[0]!.length)) throw malformedError(ctx.provider, 'the embeddings of one reply differ in dimension');
  return { vectors, usage: null, costUsd: null, latencyMs: ctx.latencyMs, served: servedFrom({ model: null, fingerprint: null, responseId: null, headers: res.sdkHttpResponse?.headers ?? null }) };
}

export class GeminiEmbeddingClient implements EmbeddingClient {
  readonly provider = 'google';
  readonly concurrencyKey = 'google';
  readonly maxBatch = GEMINI_MAX_BATCH;
  readonly model: string;
  /** Made by the first call (lazy-module.ts), then kept. */
  readonly #sdk: () => Promise<GoogleGenAI>;
  readonly #secrets: string[];
  readonly #timeoutMs: number;

  constructor(opts: GeminiEmbeddingOptions) {
    this.model = opts.model;
    this.#secrets = [opts.apiKey];
    this.#timeoutMs = opts.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#sdk = lazy(async () => {
      const { GoogleGenAI } = await geminiSdk();
      return new GoogleGenAI({ apiKey: opts.apiKey, vertexai: false, ...(opts.baseURL ? { httpOptions: { baseUrl: opts.baseURL } } : {}) });
    });
  }

  async embed(req: EmbeddingRequest): Promise<EmbeddingResponse> {
    // Made before the clock starts: the first call's latency and deadline are its request's alone.
    const sdk = await this.#sdk();
    return boundedEmbed(this, req, this.#timeoutMs, async ({ signal, timeoutMs, latencyMs }) => {
      let res: EmbedContentResponse;
      try {
        res = await sdk.models.embedContent(toGeminiEmbedParams(req, { signal, timeoutMs: timeoutMs + 1_000 }));
      } catch (e) {
        throw classifyGeminiError(e, this.provider, this.#secrets);
      }
      return fromGeminiEmbeddings(res, { provider: this.provider, inputs: req.inputs.length, latencyMs: latencyMs() });
    });
  }
}
