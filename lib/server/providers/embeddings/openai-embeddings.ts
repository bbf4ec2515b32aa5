/**
 * OpenAI-compatible `POST /v1/embeddings` over the official SDK (OpenAI, Together, vLLM, Ollama,
 * LM Studio, OpenRouter…: the same catalog entries as chat). We ask for `base64` explicitly (what
 * the SDK asks for by default: a quarter of the bytes of decimal floats) and decode it ourselves,
 * because several compatible servers ignore `encoding_format` and answer float arrays, which the
 * SDK's own implicit decoding would turn into garbage.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { CreateEmbeddingResponse } from 'openai/resources/embeddings';
import { servedFrom } from '@/lib/core';
import { bodyFault, errorText, httpError, malformedError, networkError, unreadableReply } from '../classify';
import { embeddingCostUsd } from './prices';
import { DEFAULT_TIMEOUT_MS, withDeadline } from '../deadline';
import { ProviderError } from '../types';
import type { EmbeddingClient, EmbeddingRequest, EmbeddingResponse } from './types';

/** OpenAI's documented limit of inputs per request (https://platform.openai.com/docs/api-reference/embeddings/create). */
export const OPENAI_MAX_BATCH = 2048;

export interface OpenAiEmbeddingOptions {
  provider: string;
  model: string;
  baseURL: string;
  apiKey: string;
  maxBatch?: number;
  defaultTimeoutMs?: number;
  /** Extra headers on every request; `null` removes one the SDK would send (Authorization of an HTTP model). */
  defaultHeaders?: Record<string, string | null>;
  /** Further values to redact from errors (header secrets of HTTP models). */
  secrets?: string[];
  /** Do not follow redirects: an allow-listed URL must not lead to another host. */
  noRedirects?: boolean;
  /** Shared-limit key; default the provider name. */
  concurrencyKey?: string;
}

/** A vector as the wire carries it: base64 of little-endian float32s, or a plain array. */
export function decodeEmbedding(value: unknown, provider: string): number[] {
  if (typeof value === 'string') {
    const buf = Buffer.from(value, 'base64');
    if (buf.length % 4 !== 0) throw malformedError(provider, `a base64 embedding of ${buf.length} bytes is not a whole number of float32s`);
    const floats = new Float32Array(buf.buffer, buf.byteOffset, buf.length / 4);
    return Array.from(floats);
  }
  if (Array.isArray(value) && value.every((x) => typeof x === 'number' && Number.isFinite(x))) return value as number[];
  throw malformedError(provider, `an embedding is neither base64 nor an array of numbers: ${JSON.stringify(value)?.slice(0, 80)}`);
}

/** One vector per input, in input order (the wire carries `index`; servers may reorder). */
export function fromOpenAiEmbeddings(body: CreateEmbeddingResponse, ctx: { provider: string; model: string; inputs: number; latencyMs: number; headers?: Headers | null }): EmbeddingResponse {
  const fault = bodyFault(ctx.provider, body);
  if (fault) throw fault;
  const data = (body as { data?: unknown }).data;
  if (!Array.isArray(data)) throw malformedError(ctx.provider, `no data array in the reply: ${JSON.stringify(body).slice(0, 200)}`);
  if (data.length !== ctx.inputs) throw malformedError(ctx.provider, `${data.length} embeddings for ${ctx.inputs} inputs`);
  const vectors: number[][] = new Array<number[]>(ctx.inputs);
  data.forEach((item: { index?: unknown; embedding?: unknown }, position) => {
    const index = typeof item?.index === 'number' ? item.index : position;
    if (!Number.isInteger(index) || index < 0 || index >= ctx.inputs || vectors[index]) throw malformedError(ctx.provider, `embedding index ${String(item?.index)} is out of place`);
    vectors[index] = decodeEmbedding(item.embedding, ctx.provider);
  });
  const dims = vectors[0]!.length;
  if (dims === 0 || vectors.some((v) => v.length !== dims)) throw malformedError(ctx.provider, 'the embeddings of one reply differ in dimension (or are empty)');
  const tokens = body.usage?.prompt_tokens;
  const usage = typeof tokens === 'number' ? { promptTokens: tokens } : null;
  return {
    vectors,
    usage,
    costUsd: embeddingCostUsd(ctx.model, usage),
    latencyMs: ctx.latencyMs,
    served: servedFrom({ model: body.model, fingerprint: null, responseId: null, headers: ctx.headers ?? null }),
  };
}

export class OpenAiEmbeddingClient implements EmbeddingClient {
  readonly provider: string;
  readonly model: string;
  readonly maxBatch: number;
  readonly concurrencyKey: string;
  readonly #sdk: OpenAI;
  readonly #secrets: string[];
  readonly #timeoutMs: number;

  constructor(opts: OpenAiEmbeddingOptions) {
    this.provider = opts.provider;
    this.model = opts.model;
    this.maxBatch = opts.maxBatch ?? OPENAI_MAX_BATCH;
    this.concurrencyKey = opts.concurrencyKey ?? opts.provider;
    this.#secrets = [opts.apiKey, ...(opts.secrets ?? [])];
    this.#timeoutMs = opts.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#sdk = new OpenAI({
      apiKey: opts.apiKey,
      baseURL: opts.baseURL,
      maxRetries: 0, // retries are ours (embed-texts.ts, retry.ts)
      organization: null,
      project: null,
      logLevel: 'off',
      ...(opts.defaultHeaders ? { defaultHeaders: opts.defaultHeaders } : {}),
      ...(opts.noRedirects ? { fetchOptions: { redirect: 'manual' as const } } : {}),
    });
  }

  embed(req: EmbeddingRequest): Promise<EmbeddingResponse> {
    if (req.inputs.length === 0 || req.inputs.length > this.maxBatch) {
      return Promise.reject(new ProviderError({ kind: 'bad_request', provider: this.provider, message: `${this.provider}: ${req.inputs.length} inputs in one request (1…${this.maxBatch})` }));
    }
    const timeoutMs = req.timeoutMs ?? this.#timeoutMs;
    const started = performance.now();
    return withDeadline({ provider: this.provider, timeoutMs, signal: req.signal }, async (signal) => {
      let body: CreateEmbeddingResponse;
      let headers: Headers;
      try {
        const { data, response } = await this.#sdk.embeddings
          .create({ model: req.model, input: req.inputs, encoding_format: 'base64' }, { signal, timeout: timeoutMs + 1_000 })
          .withResponse();
        body = data;
        headers = response.headers;
      } catch (e) {
        throw this.#classify(e);
      }
      return fromOpenAiEmbeddings(body, { provider: this.provider, model: req.model, inputs: req.inputs.length, latencyMs: performance.now() - started, headers });
    });
  }

  #classify(e: unknown): unknown {
    if (e instanceof APIUserAbortError) return e;
    if (e instanceof APIConnectionTimeoutError) return new ProviderError({ kind: 'timeout', provider: this.provider, message: `${this.provider}: request timed out` });
    if (e instanceof APIConnectionError) return networkError(this.provider, `${errorText(e)} (${this.#sdk.baseURL})`, this.#secrets);
    if (e instanceof APIError && typeof e.status === 'number') {
      return httpError({ provider: this.provider, status: e.status, headers: e.headers, detail: e.message, secrets: this.#secrets });
    }
    if (e instanceof ProviderError) return e;
    return unreadableReply(this.provider, e, this.#secrets);
  }
}
