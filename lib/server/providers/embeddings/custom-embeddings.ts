/**
 * Embedding models over HTTP, under the same rules as HTTP chat models (custom-http.ts): the
 * maintainer's origin allow-list and header variables. `format: openai` is the OpenAI adapter at
 * another URL; a custom mapping renders a body template and reads the vectors by JSONPath.
 */
import { selectJsonPath, servedFrom } from '@/lib/core';
import { malformedError } from '../classify';
import { CUSTOM_PROVIDER, customEndpoint, postJson, sdkHeaders, type CustomHttpContext } from '../custom-http';
import { parseEmbeddingEndpointSpec, renderTemplate, type EmbeddingEndpointSpec } from '../custom-http-spec';
import { boundedEmbed } from './bounded-embed';
import { decodeEmbedding, OpenAiEmbeddingClient } from './openai-embeddings';
import { embeddingCostUsd } from './prices';
import type { EmbeddingClient, EmbeddingRequest, EmbeddingResponse } from './types';

export const CUSTOM_DEFAULT_MAX_BATCH = 64;
const DEFAULT_BODY = { input: '{{inputs}}', model: '{{model}}' };

/** The vectors (and tokens) of a custom reply, through the spec's JSONPaths. */
export function mapEmbeddingResponse(
  json: unknown,
  mapping: NonNullable<EmbeddingEndpointSpec['response']>,
  ctx: { provider: string; model: string; inputs: number; latencyMs: number; headers?: Headers | null },
): EmbeddingResponse {
  // RFC 9535 JSONPath through the one evaluator of untrusted paths (lib/core/untrusted: no scripts); the spec schema refuses bad paths.
  const query = (path: string): unknown[] => {
    const selected = selectJsonPath(path, json);
    if (!selected.ok) throw malformedError(ctx.provider, selected.message);
    return selected.values;
  };
  let found = query(mapping.vectors);
  // `$.embeddings` matches once, holding every vector; `$.data[*].embedding` matches once per vector.
  if (found.length === 1 && Array.isArray(found[0]) && (found[0] as unknown[]).every((v) => Array.isArray(v) || typeof v === 'string')) found = found[0] as unknown[];
  if (found.length !== ctx.inputs) {
    throw malformedError(ctx.provider, `response.vectors ${mapping.vectors} matched ${found.length} vectors for ${ctx.inputs} inputs in ${JSON.stringify(json).slice(0, 200)}`);
  }
  const vectors = found.map((v) => decodeEmbedding(v, ctx.provider));
  if (vectors.some((v) => v.length === 0 || v.length !== vectors[0]!.length)) throw malformedError(ctx.provider, 'the vectors of one reply are empty or differ in dimension');
  const tokens = mapping.prompt_tokens ? query(mapping.prompt_tokens)[0] : undefined;
  const usage = typeof tokens === 'number' && Number.isFinite(tokens) ? { promptTokens: tokens } : null;
  const served = servedFrom({ model: query(mapping.model ?? '$.model')[0], fingerprint: null, responseId: null, headers: ctx.headers ?? null });
  return { vectors, usage, costUsd: embeddingCostUsd(ctx.model, usage), latencyMs: ctx.latencyMs, served };
}

type MappedSpec = EmbeddingEndpointSpec & { response: NonNullable<EmbeddingEndpointSpec['response']> };

class CustomEmbeddingClient implements EmbeddingClient {
  readonly provider = CUSTOM_PROVIDER;
  readonly model: string;
  readonly maxBatch: number;
  readonly concurrencyKey: string;
  readonly #spec: MappedSpec;
  readonly #headers: Record<string, string>;
  readonly #secrets: string[];
  readonly #timeoutMs: number;

  constructor(init: { spec: MappedSpec; model: string; headers: Record<string, string>; secrets: string[]; timeoutMs: number }) {
    this.#spec = init.spec;
    this.model = init.model;
    this.maxBatch = init.spec.max_batch ?? CUSTOM_DEFAULT_MAX_BATCH;
    this.concurrencyKey = `custom:${new URL(init.spec.url).origin}`;
    this.#headers = init.headers;
    this.#secrets = init.secrets;
    this.#timeoutMs = init.timeoutMs;
  }

  embed(req: EmbeddingRequest): Promise<EmbeddingResponse> {
    const spec = this.#spec;
    return boundedEmbed(this, req, this.#timeoutMs, async ({ signal, latencyMs }) => {
      const body = renderTemplate(spec.body ?? DEFAULT_BODY, { inputs: req.inputs, model: req.model, input_type: req.kind ?? 'document' });
      const { json, headers } = await postJson({ provider: this.provider, url: spec.url, method: spec.method, headers: this.#headers, body, signal, secrets: this.#secrets });
      return mapEmbeddingResponse(json, spec.response, { provider: this.provider, model: req.model, inputs: req.inputs.length, latencyMs: latencyMs(), headers });
    });
  }
}

/** Validates an embedding model object and builds its client; CustomHttpSpecError (with the fix) otherwise. */
export function createCustomEmbeddingClient(id: string, rawSpec: unknown, ctx: CustomHttpContext): EmbeddingClient {
  const spec = parseEmbeddingEndpointSpec(rawSpec, id);
  const { headers, secrets, timeoutMs, model } = customEndpoint(id, spec, ctx);
  if (spec.format === 'openai') {
    return new OpenAiEmbeddingClient({
      provider: CUSTOM_PROVIDER,
      model,
      baseURL: spec.url.replace(/\/embeddings\/?$/, ''), // the SDK appends /embeddings itself
      apiKey: 'assay-no-key', // never sent: Authorization is removed unless the spec sets it
      defaultHeaders: sdkHeaders(headers),
      defaultTimeoutMs: timeoutMs,
      secrets,
      noRedirects: true,
      concurrencyKey: `custom:${new URL(spec.url).origin}`,
      ...(spec.max_batch ? { maxBatch: spec.max_batch } : {}),
    });
  }
  if (!spec.response) throw new Error('unreachable: parseEmbeddingEndpointSpec requires a response mapping for custom');
  return new CustomEmbeddingClient({ spec: { ...spec, response: spec.response }, model, headers, secrets, timeoutMs });
}
