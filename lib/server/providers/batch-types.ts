/**
 * The batch port: a provider's asynchronous batch API (OpenAI Batch, Anthropic Message
 * Batches), half the price of live calls, answered within 24 h. One batch is a list of chat
 * requests named by custom ids; it is submitted once, polled, and its results read once it
 * ended. Results come back as the same ChatResponse a live call gives (the adapters reuse the
 * live adapters' request and reply mappings), or as a classified ProviderError per line.
 */
import { PROVIDER_NAMES, PROVIDERS } from './catalog';
import type { ChatRequest, ChatResponse, ProviderError } from './types';

/** Providers whose batch API Assay speaks (their adapters expose `batch`): the records with `batch` set. */
export const BATCH_PROVIDERS: ReadonlySet<string> = new Set(PROVIDER_NAMES.filter((name) => PROVIDERS[name].batch));

/** What a batch line costs relative to the same live call (both providers: 50%). */
export const BATCH_PRICE_FACTOR = 0.5;

export interface BatchLine {
  /** Unique in the batch; `^[a-zA-Z0-9_-]{1,64}$` (Anthropic's rule, the stricter one). */
  customId: string;
  request: Omit<ChatRequest, 'signal' | 'timeoutMs' | 'attempt'>;
}

export interface BatchState {
  /** The provider's batch id. */
  id: string;
  /** The provider's own word (`validating`, `in_progress`, `ended`…). */
  status: string;
  /** Nothing more will change: results (possibly partial) can be read. */
  ended: boolean;
  /**
   * The batch's own failure, when it ended without running (some of) its lines (OpenAI `failed`,
   * `expired`): what every line missing from its results failed with.
   */
  error?: ProviderError;
}

export type BatchLineResult = { customId: string; response: ChatResponse; error?: undefined } | { customId: string; error: ProviderError; response?: undefined };

export interface BatchApi {
  readonly provider: string;
  submit(lines: readonly BatchLine[], opts?: { signal?: AbortSignal }): Promise<BatchState>;
  retrieve(id: string, opts?: { signal?: AbortSignal }): Promise<BatchState>;
  /** Every line's result, once the batch ended (succeeded lines and failed ones alike). */
  results(id: string, opts?: { signal?: AbortSignal }): Promise<BatchLineResult[]>;
  cancel(id: string): Promise<BatchState>;
}
