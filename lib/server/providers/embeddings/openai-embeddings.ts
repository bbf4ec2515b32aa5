/**
 * OpenAI-compatible `POST /v1/embeddings` over the official SDK (OpenAI, Together, vLLM, Ollama,
 * LM Studio, OpenRouter…: the same catalog entries as chat). We ask for `base64` explicitly (what
 * the SDK asks for by default: a quarter of the bytes of decimal floats) and decode it ourselves,
 * because several compatible servers ignore `encoding_format` and answer float arrays, which the
 * SDK's own implicit decoding would turn into garbage.
 */
import type OpenAI from 'openai';
import type { CreateEmbeddingResponse } from 'openai/resources/embeddings';
import { servedFrom } from '@/lib/core';
import { bodyFault, malformedError } from '../classify';
import { lazy } from '../lazy-module';
import { classifyOpenAiError, openAiSdk } from '../openai-compatible';
import { ProviderError } from '../types';
import { boundedEmbed } from './bounded-embed';
import { openAiEmbeddingLimits, planRequests, type EmbeddingInputLimits } from './openai-limits';
import { embeddingCostUsd } from './prices';
import { DEFAULT_TIMEOUT_MS } from '../deadline';
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
    // a copy: a Buffer's bytes may sit at an offset no Float32Array can start from
    const floats = new Float32Array(new Uint8Array(buf).buffer);
    if (!floats.every(Number.isFinite)) throw malformedError(provider, 'a base64 embedding holds NaN or infinity');
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

/** The responses of consecutive requests as one: vectors in order, tokens and cost summed (unknown if any is). */
function joinResponses(provider: string, parts: readonly EmbeddingResponse[], latencyMs: number): EmbeddingResponse {
  if (parts.length === 1) return parts[0]!;
  const dims = parts[0]!.vectors[0]!.length;
  if (parts.some((p) => p.vectors[0]!.length !== dims)) throw malformedError(provider, 'the requests of one batch returned different dimensions');
  const usage = parts.every((p) => p.usage) ? { promptTokens: parts.reduce((s, p) => s + p.usage!.promptTokens, 0) } : null;
  const costUsd = parts.every((p) => p.costUsd !== null) ? parts.reduce((s, p) => s + p.costUsd!, 0) : null;
  return { vectors: parts.flatMap((p) => p.vectors), usage, costUsd, latencyMs, served: parts.at(-1)!.served };
}

export class OpenAiEmbeddingClient implements EmbeddingClient {
  readonly provider: string;
  readonly model: string;
  readonly maxBatch: number;
  readonly concurrencyKey: string;
  /** Made by the first call (lazy-module.ts), then kept. */
  readonly #sdk: () => Promise<OpenAI>;
  readonly #secrets: string[];
  readonly #timeoutMs: number;

  constructor(opts: OpenAiEmbeddingOptions) {
    this.provider = opts.provider;
    this.model = opts.model;
    this.maxBatch = opts.maxBatch ?? OPENAI_MAX_BATCH;
    this.concurrencyKey = opts.concurrencyKey ?? opts.provider;
    this.#secrets = [opts.apiKey, ...(opts.secrets ?? [])];
    this.#timeoutMs = opts.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#sdk = lazy(async () => {
      const { default: OpenAI } = await openAiSdk();
      return new OpenAI({
        apiKey: opts.apiKey,
        baseURL: opts.baseURL,
        maxRetries: 0, // retries are ours (embed-texts.ts, retry.ts)
        organization: null,
        project: null,
        logLevel: 'off',
        ...(opts.defaultHeaders ? { defaultHeaders: opts.defaultHeaders } : {}),
        ...(opts.noRedirects ? { fetchOptions: { redirect: 'manual' as const } } : {}),
      });
    });
  }

  /**
   * One vector per input. For OpenAI's own models the inputs go in as many requests as their
   * documented token limits need (openai-limits.ts: 300,000 tokens summed per request), one after
   * the other; an empty input or one over the per-input limit is refused before any request, since
   * OpenAI would refuse the whole request for it (the retrieval loader refuses both at their line first).
   */
  async embed(req: EmbeddingRequest): Promise<EmbeddingResponse> {
    const limits = openAiEmbeddingLimits(this.provider, req.model);
    const plan = limits ? await planRequests(limits, req.inputs) : { ok: true as const, groups: [req.inputs.map((_, i) => i)] };
    if (!plan.ok) throw this.#refused(req, limits!, plan.problem);
    // Made before the clock starts: the first call's latency and deadline are its request's alone.
    const sdk = await this.#sdk();
    return boundedEmbed(this, req, this.#timeoutMs, async ({ signal, timeoutMs, latencyMs }) => {
      const parts: EmbeddingResponse[] = [];
      for (const group of plan.groups) {
        let body: CreateEmbeddingResponse;
        let headers: Headers;
        try {
          const { data, response } = await sdk.embeddings
            .create({ model: req.model, input: group.map((i) => req.inputs[i]!), encoding_format: 'base64' }, { signal, timeout: timeoutMs + 1_000 })
            .withResponse();
          body = data;
          headers = response.headers;
        } catch (e) {
          throw classifyOpenAiError(e, this.provider, sdk.baseURL, this.#secrets);
        }
        parts.push(fromOpenAiEmbeddings(body, { provider: this.provider, model: req.model, inputs: group.length, latencyMs: latencyMs(), headers }));
      }
      return joinResponses(this.provider, parts, latencyMs());
    });
  }

  #refused(req: EmbeddingRequest, limits: EmbeddingInputLimits, problem: { kind: 'empty'; index: number } | { kind: 'too_long'; index: number; tokens: number }): ProviderError {
    const which = `input ${problem.index + 1} of ${req.inputs.length}`;
    const message =
      problem.kind === 'empty'
        ? `${this.provider}: ${which} is an empty string, which ${req.model} refuses: leave it out or give it text`
        : `${this.provider}: ${which} has ${problem.tokens.toLocaleString('en-US')} tokens, over ${req.model}'s limit of ${limits.maxInputTokens.toLocaleString('en-US')} per input: shorten or split it`;
    return new ProviderError({ kind: 'bad_request', provider: this.provider, message });
  }
}
