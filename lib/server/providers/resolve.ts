/**
 * Model ids to real adapters: `openai:gpt-4o-mini`, `openrouter:openai/gpt-4o`, `anthropic:…`,
 * `google:…`, the other OpenAI-compatible prefixes, and custom HTTP model objects, from a
 * ProviderConfig the composition root builds from the environment
 * (lib/server/compose/provider-config.ts). Errors say which variable to set; keys never appear in them.
 */
import { AppError } from '../http/errors';
import { AnthropicClient } from './anthropic';
import { isProviderName, PROVIDER_NAMES, PROVIDERS, type ProviderName } from './catalog';
import { createCustomHttpClient, type CustomHttpContext } from './custom-http';
import { GoogleClient } from './google';
import { redactingClient } from './redacting-client';
import { OpenAiCompatibleClient } from './openai-compatible';
import type { LlmClient } from './types';

export interface ProviderConfig {
  /** API key per provider (from OPENAI_API_KEY, ANTHROPIC_API_KEY, …). */
  keys: Partial<Record<ProviderName, string>>;
  /**
   * ASSAY_LLM_BASE_URL: every OpenAI-compatible, the Anthropic and the Google provider go to this
   * base URL instead (the fake LLM server in tests and demos); keys then become optional.
   */
  baseUrlOverride?: string;
  /** Where a local server (vLLM, Ollama, LM Studio) runs, when not at its usual port. */
  baseUrls?: Partial<Record<ProviderName, string>>;
  /** The maintainer's allow-lists for HTTP models. Without it, no custom model resolves. */
  custom?: CustomHttpContext;
  defaultTimeoutMs?: number;
  /** Known secret values (lib/server/secret-redactor.ts): redacted from every reply and error before anyone stores it. */
  secrets?: readonly string[];
}

/** A custom model object as the blueprint loader yields it (`ModelRef` of kind `custom`). */
export interface CustomModelRef {
  id: string;
  spec: unknown;
}

export interface ResolvedModel {
  client: LlmClient;
  /** The provider-native id to put in ChatRequest.model. */
  model: string;
}

/** 422: a model id (or its configuration) does not resolve to a client; `model` names it, the message says what to set. */
export class ModelResolutionError extends AppError {
  override name = 'ModelResolutionError';
  constructor(
    readonly model: string,
    message: string,
  ) {
    super('model_unresolved', 422, message, { model });
  }
}

/** Sent when the override is on and no key is configured: the fake accepts anything. */
const PLACEHOLDER_KEY = 'assay-placeholder-key';

// Clients hold connection pools: one per provider per configuration object.
const clientCache = new WeakMap<ProviderConfig, Map<string, LlmClient>>();

function cached(config: ProviderConfig, key: string, make: () => LlmClient): LlmClient {
  let byKey = clientCache.get(config);
  if (!byKey) clientCache.set(config, (byKey = new Map()));
  let client = byKey.get(key);
  if (!client) byKey.set(key, (client = make()));
  return client;
}

function clientFor(provider: ProviderName, config: ProviderConfig, modelId: string): LlmClient {
  const entry = PROVIDERS[provider];
  const override = config.baseUrlOverride;
  const key = config.keys[provider] || (override || !entry.keyRequired ? PLACEHOLDER_KEY : undefined);
  if (!key) {
    throw new ModelResolutionError(modelId, `${modelId} needs an API key for ${provider}: set ${entry.keyEnv} in the environment (see .env.example).`);
  }
  const timeout = config.defaultTimeoutMs === undefined ? {} : { defaultTimeoutMs: config.defaultTimeoutMs };
  return cached(config, provider, () => {
    if (entry.api === 'anthropic') {
      // The Anthropic SDK adds /v1/messages itself, so an OpenAI-style `…/v1` override loses its suffix.
      const baseURL = override ? override.replace(/\/v1\/?$/, '') : (config.baseUrls?.[provider] ?? entry.baseUrl);
      return new AnthropicClient({ apiKey: key, baseURL, provider, ...timeout });
    }
    if (entry.api === 'google') {
      // The Gemini SDK adds /v1beta/models/… itself, so an OpenAI-style `…/v1` override loses its suffix.
      const baseURL = override ? override.replace(/\/v1\/?$/, '') : config.baseUrls?.google;
      return new GoogleClient({ apiKey: key, ...(baseURL ? { baseURL } : {}), ...timeout });
    }
    return new OpenAiCompatibleClient({ provider, apiKey: key, baseURL: override ?? config.baseUrls?.[provider] ?? entry.baseUrl, ...timeout });
  });
}

/** The client for a model, its replies and errors redacted of every known secret (ProviderConfig.secrets). */
export function resolveModel(model: string | CustomModelRef, config: ProviderConfig): ResolvedModel {
  const resolved = resolveUnredacted(model, config);
  return config.secrets?.length ? { ...resolved, client: redactingClient(resolved.client, config.secrets) } : resolved;
}

function resolveUnredacted(model: string | CustomModelRef, config: ProviderConfig): ResolvedModel {
  if (typeof model !== 'string') {
    const ctx: CustomHttpContext = config.custom ?? { allowedOrigins: [], env: {} };
    const timeout = ctx.defaultTimeoutMs ?? config.defaultTimeoutMs;
    // Built fresh: custom clients are cheap (plain fetch) and their spec is per blueprint.
    return createCustomHttpClient(model.id, model.spec, { ...ctx, ...(timeout === undefined ? {} : { defaultTimeoutMs: timeout }) });
  }
  const colon = model.indexOf(':');
  const known = PROVIDER_NAMES.join(', ');
  if (colon <= 0) {
    throw new ModelResolutionError(model, `Model id "${model}" has no provider prefix: write it as provider:model, e.g. openai:gpt-4o-mini (providers: ${known}).`);
  }
  const provider = model.slice(0, colon);
  const native = model.slice(colon + 1);
  if (!isProviderName(provider)) {
    throw new ModelResolutionError(model, `Model id "${model}": unknown provider "${provider}" (providers: ${known}); an HTTP endpoint is written as a model object with a url.`);
  }
  if (native.trim() === '') throw new ModelResolutionError(model, `Model id "${model}" names no model after "${provider}:".`);
  return { client: clientFor(provider, config, model), model: native };
}
