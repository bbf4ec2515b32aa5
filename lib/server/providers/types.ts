/**
 * The LLM client port, shaped by its consumer (the run pipeline and the judges): one chat
 * call in, one normalised reply out, and errors already classified so the caller's retry
 * policy never has to know which provider it spoke to (the port is defined by its consumer; each adapter classifies its own errors, once).
 */

import type { Served, ToolCall } from '@/lib/core';
import type { BatchApi } from './batch-types';

/** The one tool-call shape (lib/core/evidence/tool-call.ts): a provider returns what a run stores. */
export type { ToolCall };
/** What the provider says answered (lib/core/evidence/served.ts): stored on the reply, read by drift. */
export type { Served };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  /** On an assistant turn: the tool calls it made. */
  toolCalls?: ToolCall[];
  /** On a tool turn: which call this is the result of. */
  toolCallId?: string;
}

export interface ChatRequest {
  /** Provider-native model id (`gpt-4o-mini`, `openai/gpt-4o` on OpenRouter…). */
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  /**
   * Tools to send natively (only a blueprint in `toolUse.mode: native` sends any), as the
   * blueprint writes them: Weval's `{name, description, schema}` or OpenAI's function tool.
   * Each adapter translates them into its provider's shape with tool-calls.ts.
   */
  tools?: unknown[];
  /** Ask for the top-k log-probabilities of each output token (judges read label probabilities from them). */
  topLogprobs?: number;
  /**
   * Which repeat of the same request this is (0-based). Sent as the `x-assay-attempt` header so
   * that caches and the fake server tell independent samples apart from accidental duplicates.
   */
  attempt?: number;
  signal?: AbortSignal;
  /** Per-call deadline; the adapter's default applies when absent. */
  timeoutMs?: number;
}

export interface TopLogprob {
  token: string;
  logprob: number;
}

export interface TokenLogprob {
  token: string;
  logprob: number;
  top: TopLogprob[];
}

/**
 * Tokens a call was billed for. Totals first, then the classes the providers price apart, each a
 * part of its total (usage.ts reads each provider's fields into this shape, with their sources).
 */
export interface Usage {
  /** Every input token: fresh, read from the cache and written to it. */
  promptTokens: number;
  /** Every output token, reasoning and thinking included (what budgets count). */
  completionTokens: number;
  /** Of promptTokens: read from the provider's prompt cache (billed at its cached-input rate). */
  cachedInputTokens?: number;
  /** Of promptTokens: written to the prompt cache (Anthropic bills them above the input rate). */
  cacheWriteTokens?: number;
  /** Of completionTokens: hidden reasoning (OpenAI), thinking (Anthropic) or thoughts (Gemini), billed as output. */
  reasoningTokens?: number;
}

export interface ChatResponse {
  content: string;
  toolCalls: ToolCall[];
  /** The provider's own word (`stop`, `tool_calls`, `end_turn`, `tool_use`, `STOP`…), or null. */
  finishReason: string | null;
  /**
   * Set when the provider itself marked the reply as a refusal (OpenAI `message.refusal`,
   * `finish_reason: content_filter` with text, Anthropic `stop_reason: refusal`, a Gemini safety
   * finish with text): which signal it was. `content` then holds the refusal's text, so judges
   * read it. Absent on an ordinary reply (and on cache entries written before refusals were kept).
   */
  refusal?: string;
  usage: Usage | null;
  /** Reported by the provider (OpenRouter) or estimated from the price table; null when unknown. */
  costUsd: number | null;
  /** Per output token, when asked for and the provider offers them; otherwise null. */
  logprobs: TokenLogprob[] | null;
  latencyMs: number;
  /**
   * What the provider says it served: the response's `model`, `system_fingerprint` and an
   * allow-list of headers (built with `servedFrom`, which drops every other header).
   */
  served: Served;
  /**
   * The reply's JSON body as an HTTP system under test sent it (custom mappings only), kept
   * so the criteria can read what the text does not carry: a soev system's cited elements
   * (lib/core/criteria/citations/extract.ts, through the blueprint's `citations:` mapping). Absent for the LLM APIs.
   */
  structured?: unknown;
}

export interface LlmClient {
  /** Provider name as in model ids (`openai`, `anthropic`, `custom`…); also the rate-limit key. */
  readonly provider: string;
  /**
   * Resolves with the reply or rejects with a ProviderError; a call cancelled through
   * `req.signal` rejects with the signal's reason (an AbortError), which is not retried.
   */
  chat(req: ChatRequest): Promise<ChatResponse>;
  /** The provider's batch API (half price, answered within 24 h), when it has one and Assay speaks it. */
  readonly batch?: BatchApi | undefined;
}

/**
 * `transport`: a 200 that did not arrive whole (empty, truncated, an HTML page): retried.
 * `quota`: the account is out of credit or quota (OpenAI 429 `insufficient_quota`, HTTP 402 of
 * OpenRouter and Anthropic, Anthropic's spend limit): not retried, and the run stops calling that
 * provider (gateway.ts), since no call on the same key can succeed until someone pays.
 * `blocked`: the provider's safety system withheld the reply and sent no text (a Gemini `SAFETY`
 * finish or blocked prompt, an OpenAI `content_filter` with no content): the same request is
 * blocked again, so not retried.
 * `generation_failed`: the provider answered 200 but said generating this reply failed
 * (OpenRouter's `choice.error`); the call may already be billed, so not retried blindly.
 */
export type ProviderErrorKind = 'retryable' | 'rate_limited' | 'auth' | 'bad_request' | 'timeout' | 'malformed' | 'transport' | 'quota' | 'blocked' | 'generation_failed';

/** Kinds worth another attempt: the provider may answer next time. */
export const RETRYABLE_KINDS: ReadonlySet<ProviderErrorKind> = new Set(['retryable', 'rate_limited', 'timeout', 'transport']);

/**
 * Kinds whose replies a resumed run generates again (steps.ts): the retryable ones, an account
 * that was out of credit (it may have been paid since; within a run it is never retried), and a
 * generation that failed part-way (the provider may finish it next time). Not `blocked`,
 * `bad_request` or `auth`: the same request fails the same way.
 */
export const RESUMABLE_KINDS: ReadonlySet<ProviderErrorKind> = new Set([...RETRYABLE_KINDS, 'quota', 'generation_failed']);

/**
 * A failed provider call, classified by the adapter that made it. Messages never carry API
 * keys: adapters redact them before constructing one (see `redact` in classify.ts).
 */
export class ProviderError extends Error {
  override name = 'ProviderError';
  readonly kind: ProviderErrorKind;
  readonly provider: string;
  readonly status?: number;
  /** How long the provider asked us to wait before trying again. */
  readonly retryAfterMs?: number;

  constructor(init: { kind: ProviderErrorKind; provider: string; message: string; status?: number; retryAfterMs?: number }) {
    super(init.message);
    this.kind = init.kind;
    this.provider = init.provider;
    if (init.status !== undefined) this.status = init.status;
    if (init.retryAfterMs !== undefined) this.retryAfterMs = init.retryAfterMs;
  }

  get retryable(): boolean {
    return RETRYABLE_KINDS.has(this.kind);
  }
}

export function isProviderError(e: unknown): e is ProviderError {
  return e instanceof ProviderError;
}
