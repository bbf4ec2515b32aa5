/**
 * The LLM client port and its adapters: the only import path for the rest of the server
 * (the run pipeline, judges, the CLI). The contract suite (contract.ts) is for tests only.
 */
export {
  ProviderError,
  isProviderError,
  RETRYABLE_KINDS,
  RESUMABLE_KINDS,
  type ChatMessage,
  type ChatRequest,
  type ChatResponse,
  type LlmClient,
  type ProviderErrorKind,
  type TokenLogprob,
  type ToolCall,
  type TopLogprob,
  type Usage,
} from './types';
export { resolveModel, ModelResolutionError, type ProviderConfig, type CustomModelRef, type ResolvedModel } from './resolve';
export {
  PROVIDERS,
  PROVIDER_NAMES,
  HTTP_MODEL_PROVIDER,
  FALLBACK_CONCURRENCY,
  FALLBACK_TIMEOUT_MS,
  isProviderName,
  providerLimits,
  providerOfModel,
  speaksBatch,
  type ProviderApi,
  type ProviderEntry,
  type ProviderLimits,
  type ProviderName,
} from './catalog';
export { withRetry, backoffDelay, deadlineAfter, sleep, DEFAULT_RETRY, TIMEOUT_RETRIES, type RetryOptions } from './retry';
export { costUsd, costFromPrice, costIsKnown, priceFor, unpricedModelIds, APPROXIMATE_PRICES_PER_MTOK, type Price } from './cost';
export { CapabilityMemory, fitRequest, isUnsupportedParameter, knownLimits, KNOWN_FAMILIES, UnsupportedParameterError, type Adjustment, type Limits, type Refusal } from './capabilities';
export { parseRetryAfter, redact } from './classify';
export { isAbortError, DEFAULT_TIMEOUT_MS } from './deadline';
export { ATTEMPT_HEADER } from './attempt-header';
export { withTraceLines } from './tool-calls';
export { OpenAiCompatibleClient, type OpenAiCompatibleOptions } from './openai-compatible';
export { AnthropicClient, type AnthropicOptions } from './anthropic';
export { GoogleClient, type GoogleOptions } from './google';
export { createCustomHttpClient, CUSTOM_PROVIDER, type CustomHttpContext } from './custom-http';
export { parseCustomHttpSpec, CustomHttpSpecError, TEMPLATE_VARIABLES, type CustomHttpSpec } from './custom-http-spec';
export { PROVIDER_TIMEOUTS_MS, REASONING_TIMEOUT_MS, isReasoningFamily, modelTimeoutMs, providerTimeoutMs } from './timeouts';
export { PROVIDER_CONCURRENCY, providerConcurrency } from './concurrency';
export { BATCH_PROVIDERS, BATCH_PRICE_FACTOR, type BatchApi, type BatchLine, type BatchLineResult, type BatchState } from './batch-types';
