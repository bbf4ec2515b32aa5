/**
 * The providers Assay knows by model-id prefix (`openai:gpt-4o-mini`, as Weval writes ids), one
 * record each: where it is, which key it needs, how hard to push it, how long to wait for it and
 * which of its optional APIs Assay speaks. The OpenAI-compatible ones differ only by base URL and
 * key variable, so adding one is a record here, not a module. The tables other modules export
 * (PROVIDER_CONCURRENCY, PROVIDER_TIMEOUTS_MS, BATCH_PROVIDERS) are read from these records.
 */
export type ProviderApi = 'openai' | 'anthropic' | 'google';

/** How hard to push a provider and how long to wait for it, with the reason for both numbers. */
export interface ProviderLimits {
  /**
   * How many calls a worker keeps in flight, unless the run says otherwise (`--concurrency N` /
   * `ASSAY_RUN_CONCURRENCY`, which set every provider's maximum). A maximum, not a fixed number:
   * the gateway halves a provider's limit on a 429 and grows it back by one per window of
   * successes (AIMD, runs/calls/adaptive-limit.ts), so a maximum above what an account allows costs a
   * few retried calls, not a failed run. docs/runs.md ("Concurrency") is the reader's copy.
   */
  concurrency: number;
  /**
   * How long one call may take before it is a `timeout` (retried once, not four times: retry.ts,
   * it may already be billed). A hung provider used to hold a concurrency slot for 120 s × 4
   * attempts, so each provider has its own bound, sized to its slowest normal answers. Reasoning
   * models get minutes instead, and `ASSAY_PROVIDER_TIMEOUTS` overrides it (timeouts.ts).
   */
  timeoutMs: number;
  /** Why these two numbers (Inspect's default is 10 calls per model API, its `max_connections`). */
  why: string;
}

export interface ProviderEntry extends ProviderLimits {
  api: ProviderApi;
  baseUrl: string;
  /** The environment variable that holds the key (named in every "missing key" error). */
  keyEnv: string;
  /** Local servers (vLLM, Ollama, LM Studio) accept any key or none. */
  keyRequired: boolean;
  /** The environment variable that moves a local server elsewhere. */
  baseUrlEnv?: string;
  /** Assay speaks its batch API: the adapter for its `api` has a batch port (openai-batch.ts, anthropic-batch.ts). */
  batch: boolean;
  /** It has an embeddings endpoint (embeddings/resolve.ts refuses an embedding model id for one without). */
  embeddings: boolean;
}

const LOCAL_SERVER_TIMEOUT = '120 s: a local server on a small machine';

export const PROVIDERS = {
  openai: {
    api: 'openai', baseUrl: 'https://api.openai.com/v1', keyEnv: 'OPENAI_API_KEY', keyRequired: true,
    concurrency: 20, timeoutMs: 60_000, batch: true, embeddings: true,
    why: "20: high per-minute limits from tier 2 up (Inspect's default is 10 per model API); 60 s: chat completions without streaming",
  },
  openrouter: {
    api: 'openai', baseUrl: 'https://openrouter.ai/api/v1', keyEnv: 'OPENROUTER_API_KEY', keyRequired: true,
    concurrency: 20, timeoutMs: 90_000, batch: false, embeddings: true,
    why: '20: a proxy spreading load over upstreams; 90 s: a proxy in front of slow upstreams',
  },
  together: {
    api: 'openai', baseUrl: 'https://api.together.xyz/v1', keyEnv: 'TOGETHER_API_KEY', keyRequired: true,
    concurrency: 10, timeoutMs: 45_000, batch: false, embeddings: true,
    why: "10: Inspect's default; 45 s: fast hosted inference",
  },
  groq: {
    api: 'openai', baseUrl: 'https://api.groq.com/openai/v1', keyEnv: 'GROQ_API_KEY', keyRequired: true,
    concurrency: 10, timeoutMs: 45_000, batch: false, embeddings: false,
    why: "10: Inspect's default; 45 s: fast hosted inference",
  },
  vllm: {
    api: 'openai', baseUrl: 'http://127.0.0.1:8000/v1', keyEnv: 'VLLM_API_KEY', keyRequired: false, baseUrlEnv: 'VLLM_BASE_URL',
    concurrency: 8, timeoutMs: 120_000, batch: false, embeddings: true,
    why: `8: one local GPU server; ${LOCAL_SERVER_TIMEOUT}`,
  },
  ollama: {
    api: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', keyEnv: 'OLLAMA_API_KEY', keyRequired: false, baseUrlEnv: 'OLLAMA_BASE_URL',
    concurrency: 2, timeoutMs: 120_000, batch: false, embeddings: true,
    why: `2: a laptop model answers one or two at a time; ${LOCAL_SERVER_TIMEOUT}`,
  },
  lmstudio: {
    api: 'openai', baseUrl: 'http://127.0.0.1:1234/v1', keyEnv: 'LMSTUDIO_API_KEY', keyRequired: false, baseUrlEnv: 'LMSTUDIO_BASE_URL',
    concurrency: 2, timeoutMs: 120_000, batch: false, embeddings: true,
    why: `2: a laptop model answers one or two at a time; ${LOCAL_SERVER_TIMEOUT}`,
  },
  anthropic: {
    api: 'anthropic', baseUrl: 'https://api.anthropic.com', keyEnv: 'ANTHROPIC_API_KEY', keyRequired: true,
    concurrency: 10, timeoutMs: 90_000, batch: true, embeddings: false,
    why: '10: tier 1–2 accounts allow few concurrent requests (Inspect: 10); 90 s: long answers (extended thinking) are slower',
  },
  google: {
    api: 'google', baseUrl: 'https://generativelanguage.googleapis.com', keyEnv: 'GOOGLE_API_KEY', keyRequired: true,
    concurrency: 10, timeoutMs: 60_000, batch: false, embeddings: true,
    why: "10: Inspect's default; 60 s: the same bound as any other provider",
  },
} as const satisfies Record<string, ProviderEntry>;

/**
 * The HTTP-model pseudo-provider: a system under test reached by URL (custom-http.ts). It is not
 * a model-id prefix, so it is not in PROVIDERS, but its calls are limited like a provider's.
 */
export const HTTP_MODEL_PROVIDER = {
  name: 'custom',
  concurrency: 4,
  timeoutMs: 30_000,
  why: '4: a system under test is rarely sized for load; 30 s: it should answer promptly (an HTTP model\'s own `timeoutMs` overrides this)',
} as const satisfies ProviderLimits & { name: string };

/** For a provider with no record: Inspect's default `max_connections`. */
export const FALLBACK_CONCURRENCY = 10;
/** For a provider with no record. */
export const FALLBACK_TIMEOUT_MS = 60_000;

export type ProviderName = keyof typeof PROVIDERS;
export const PROVIDER_NAMES = Object.keys(PROVIDERS) as ProviderName[];

export function isProviderName(name: string): name is ProviderName {
  return Object.hasOwn(PROVIDERS, name);
}

/** A provider's limits: its record, the HTTP model's, or undefined for a name with none (the fallbacks apply). */
export function providerLimits(provider: string): ProviderLimits | undefined {
  if (isProviderName(provider)) return PROVIDERS[provider];
  return provider === HTTP_MODEL_PROVIDER.name ? HTTP_MODEL_PROVIDER : undefined;
}

/** The provider a model id names (`openai:gpt-4o` → `openai`); a model written without one is an HTTP model. */
export function providerOfModel(modelId: string): string {
  return modelId.includes(':') ? modelId.slice(0, modelId.indexOf(':')) : HTTP_MODEL_PROVIDER.name;
}

/** Every record that carries limits, by name: the providers', then the HTTP model's. */
export const PROVIDER_LIMITS: ReadonlyArray<readonly [string, ProviderLimits]> = [...Object.entries(PROVIDERS), [HTTP_MODEL_PROVIDER.name, HTTP_MODEL_PROVIDER]];

/** Assay speaks this provider's batch API (its adapter's `batch` is set). */
export function speaksBatch(provider: string): boolean {
  return isProviderName(provider) && PROVIDERS[provider].batch;
}
