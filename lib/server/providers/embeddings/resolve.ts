/**
 * Embedding model ids to adapters, with the chat resolver's ProviderConfig (built from the
 * environment by compose/provider-config.ts, so ASSAY_LLM_BASE_URL points every OpenAI-compatible
 * provider, and Gemini, at the fake in tests): `openai:text-embedding-3-small`,
 * `together:BAAI/bge-base-en-v1.5`, `ollama:nomic-embed-text`, `google:gemini-embedding-001`, and
 * custom HTTP model objects with an embeddings mapping (custom-embeddings.ts).
 */
import { isProviderName, PROVIDER_NAMES, PROVIDERS } from '../catalog';
import { ModelResolutionError, type CustomModelRef, type ProviderConfig } from '../resolve';
import { createCustomEmbeddingClient } from './custom-embeddings';
import { GeminiEmbeddingClient } from './gemini-embeddings';
import { OpenAiEmbeddingClient } from './openai-embeddings';
import type { EmbeddingClient } from './types';

const PLACEHOLDER_KEY = 'assay-placeholder-key';

/** The Gemini API path the SDK appends to its base URL; an override ending in /v1 is the fake's OpenAI root. */
const withoutV1 = (url: string): string => url.replace(/\/v1\/?$/, '');

export function resolveEmbeddingClient(model: string | CustomModelRef, config: ProviderConfig = { keys: {} }): EmbeddingClient {
  if (typeof model !== 'string') {
    const ctx = config.custom ?? { allowedOrigins: [], env: {} };
    return createCustomEmbeddingClient(model.id, model.spec, { ...ctx, ...(config.defaultTimeoutMs === undefined ? {} : { defaultTimeoutMs: ctx.defaultTimeoutMs ?? config.defaultTimeoutMs }) });
  }
  const colon = model.indexOf(':');
  if (colon <= 0) {
    throw new ModelResolutionError(model, `Embedding model id "${model}" has no provider prefix: write it as provider:model, e.g. openai:text-embedding-3-small (providers: ${PROVIDER_NAMES.join(', ')}).`);
  }
  const provider = model.slice(0, colon);
  const native = model.slice(colon + 1);
  if (!isProviderName(provider)) {
    throw new ModelResolutionError(model, `Embedding model id "${model}": unknown provider "${provider}" (providers: ${PROVIDER_NAMES.join(', ')}); an HTTP endpoint is written as a model object with a url.`);
  }
  if (native.trim() === '') throw new ModelResolutionError(model, `Embedding model id "${model}" names no model after "${provider}:".`);
  const entry = PROVIDERS[provider];
  if (!entry.embeddings) throw new ModelResolutionError(model, `Embedding model id "${model}": ${provider} offers no embeddings API.`);
  const override = config.baseUrlOverride;
  const key = config.keys[provider] || (override || !entry.keyRequired ? PLACEHOLDER_KEY : undefined);
  if (!key) throw new ModelResolutionError(model, `${model} needs an API key for ${provider}: set ${entry.keyEnv} in the environment (see .env.example).`);
  const timeout = config.defaultTimeoutMs === undefined ? {} : { defaultTimeoutMs: config.defaultTimeoutMs };
  if (entry.api === 'google') {
    const baseURL = override ? withoutV1(override) : config.baseUrls?.google;
    return new GeminiEmbeddingClient({ model: native, apiKey: key, ...(baseURL ? { baseURL } : {}), ...timeout });
  }
  return new OpenAiEmbeddingClient({ provider, model: native, apiKey: key, baseURL: override ?? config.baseUrls?.[provider] ?? entry.baseUrl, ...timeout });
}
