/**
 * OpenAI chat completions over the official SDK. OpenAI, OpenRouter, Together, Groq, vLLM,
 * Ollama, LM Studio and OpenAI-format systems under test differ only in base URL and key,
 * so they are all this one adapter (see catalog.ts).
 */
import type OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { servedFrom } from '@/lib/core';
import { attemptHeaders } from './attempt-header';
import type { BatchApi } from './batch-types';
import { speaksBatch } from './catalog';
import { bodyFault, errorText, httpError, malformedError, networkError, unreadableReply } from './classify';
import { isUnsupportedParameter, knownLimits, refusalOf, UnsupportedParameterError } from './capabilities';
import { costUsd } from './cost';
import { bodyError, choiceError, moderationBlock, openAiOutcome } from './reply-outcome';
import { openAiUsage } from './usage';
import { DEFAULT_TIMEOUT_MS, withDeadline } from './deadline';
import { isInstance, lazy, stainlessErrorKinds } from './lazy-module';
import { nodeHttpFetch } from './node-http-fetch';
import { OpenAiBatchApi } from './openai-batch';
import { normaliseToolCalls, openAiTools, stringifyArguments } from './tool-calls';
import { ProviderError, type ChatRequest, type ChatResponse, type LlmClient, type TokenLogprob, type Usage } from './types';

export interface OpenAiCompatibleOptions {
  provider: string;
  baseURL: string;
  apiKey: string;
  /** Extra headers on every request; `null` removes one the SDK would send (e.g. Authorization). */
  defaultHeaders?: Record<string, string | null>;
  defaultTimeoutMs?: number;
  /** Further values to redact from errors (header secrets of HTTP models). */
  secrets?: string[];
  /** Do not follow redirects: an allow-listed URL must not lead to another host. */
  noRedirects?: boolean;
}

export function toOpenAiMessages(messages: ChatRequest['messages']): ChatCompletionMessageParam[] {
  return messages.map((m): ChatCompletionMessageParam => {
    switch (m.role) {
      case 'system':
        return { role: 'system', content: m.content ?? '' };
      case 'user':
        return { role: 'user', content: m.content ?? '' };
      case 'tool':
        return { role: 'tool', content: m.content ?? '', tool_call_id: m.toolCallId ?? '' };
      case 'assistant':
        return {
          role: 'assistant',
          content: m.content,
          ...(m.toolCalls?.length
            ? {
                tool_calls: m.toolCalls.map((c, i) => ({
                  id: c.id ?? `call_${i}`,
                  type: 'function' as const,
                  function: { name: c.name, arguments: stringifyArguments(c.arguments) },
                })),
              }
            : {}),
        };
    }
  });
}

/**
 * `maxTokensField`: `max_tokens` by default, since every compatible server (vLLM, Ollama…) knows
 * it; `max_completion_tokens` where OpenAI refuses the older name (its reasoning models:
 * capabilities.ts).
 */
export function toOpenAiParams(req: ChatRequest, maxTokensField: 'max_tokens' | 'max_completion_tokens' = 'max_tokens'): ChatCompletionCreateParamsNonStreaming {
  return {
    model: req.model,
    messages: toOpenAiMessages(req.messages),
    ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
    ...(req.maxTokens !== undefined ? { [maxTokensField]: req.maxTokens } : {}),
    ...(req.tools?.length ? { tools: openAiTools(req.tools) } : {}),
    ...(req.topLogprobs !== undefined ? { logprobs: true, top_logprobs: req.topLogprobs } : {}),
  };
}

export function fromOpenAiCompletion(completion: ChatCompletion, ctx: { provider: string; model: string; latencyMs: number; headers?: Headers | null }): ChatResponse {
  const fault = bodyFault(ctx.provider, completion) ?? bodyError(ctx.provider, completion);
  if (fault) throw fault;
  const choice = completion?.choices?.[0];
  if (!choice || typeof choice !== 'object' || !choice.message) {
    throw malformedError(ctx.provider, `no choices in the reply: ${JSON.stringify(completion).slice(0, 200)}`);
  }
  const failed = choiceError(ctx.provider, choice);
  if (failed) throw failed;
  // A refusal keeps its text as the content; a filter finish with no text throws `blocked` (reply-outcome.ts).
  const outcome = openAiOutcome(ctx.provider, choice);
  const raw = completion.usage;
  const usage: Usage | null = openAiUsage(raw);
  // OpenRouter adds its charge to `usage.cost`; it is the real figure when present.
  const reported = (raw as { cost?: unknown } | undefined)?.cost;
  const logprobs: TokenLogprob[] | null =
    choice.logprobs?.content?.map((t) => ({
      token: t.token,
      logprob: t.logprob,
      top: (t.top_logprobs ?? []).map((x) => ({ token: x.token, logprob: x.logprob })),
    })) ?? null;
  return {
    content: outcome.content,
    toolCalls: normaliseToolCalls(choice.message.tool_calls),
    finishReason: choice.finish_reason ?? null,
    ...(outcome.refusal ? { refusal: outcome.refusal } : {}),
    usage,
    costUsd: costUsd(ctx.model, usage, typeof reported === 'number' ? reported : null),
    logprobs,
    latencyMs: ctx.latencyMs,
    served: servedFrom({ model: completion.model, fingerprint: completion.system_fingerprint, responseId: completion.id, headers: ctx.headers ?? null }),
  };
}

/**
 * The `openai` package, imported by the first call that needs it (lazy-module.ts); the OpenAI
 * embeddings and Batch adapters use it through this one too. Its error classes are read with
 * `peek()` once a call failed: an error of the SDK only comes from a call made through it.
 */
export const openAiSdk = lazy(() => import('openai'));

/** The OpenAI SDK's errors, for the shared SDK classifier (the batch adapter's calls). */
const OPENAI_ERRORS = stainlessErrorKinds(openAiSdk, (e) => [e.code, e.type]);

export class OpenAiCompatibleClient implements LlmClient {
  readonly provider: string;
  // Private: the SDK object holds the key, and must not show up in logs or serialised state.
  // Made by the first call (lazy-module.ts), then kept.
  readonly #sdk: () => Promise<OpenAI>;
  readonly #secrets: string[];
  readonly #timeoutMs: number;
  /** OpenAI's Batch API over the same SDK object (only for providers whose record has `batch`: catalog.ts). */
  readonly batch: BatchApi | undefined;
  /** Models that refused `max_tokens` (OpenAI: "Use 'max_completion_tokens' instead"). */
  readonly #completionTokensModels = new Set<string>();

  constructor(opts: OpenAiCompatibleOptions) {
    this.provider = opts.provider;
    this.#secrets = [opts.apiKey, ...(opts.secrets ?? [])];
    this.#timeoutMs = opts.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#sdk = lazy(async () => {
      const { default: OpenAI } = await openAiSdk();
      return new OpenAI({
        apiKey: opts.apiKey,
        baseURL: opts.baseURL,
        maxRetries: 0, // retries are ours (retry.ts), so that one policy sees every failure
        organization: null,
        project: null,
        logLevel: 'off',
        // node:http instead of the global fetch for the JSON calls: a third less CPU per call (node-http-fetch.ts)
        fetch: nodeHttpFetch,
        ...(opts.defaultHeaders ? { defaultHeaders: opts.defaultHeaders } : {}),
        ...(opts.noRedirects ? { fetchOptions: { redirect: 'manual' as const } } : {}),
      });
    });
    this.batch = speaksBatch(this.provider) ? new OpenAiBatchApi(this.provider, this.#sdk, OPENAI_ERRORS, this.#secrets) : undefined;
  }

  async chat(req: ChatRequest): Promise<ChatResponse> {
    // Made before the clock starts: the first call's latency and deadline are its request's alone.
    const sdk = await this.#sdk();
    const timeoutMs = req.timeoutMs ?? this.#timeoutMs;
    const started = performance.now();
    return withDeadline({ provider: this.provider, timeoutMs, signal: req.signal }, async (signal) => {
      let completion: ChatCompletion;
      let headers: Headers;
      const send = (field: 'max_tokens' | 'max_completion_tokens') =>
        // withResponse: the headers say what was served (openai-model, x-request-id).
        sdk.chat.completions
          .create(toOpenAiParams(req, field), {
            signal,
            // Our deadline fires first; the SDK's is only a backstop.
            timeout: timeoutMs + 1_000,
            headers: attemptHeaders(req),
          })
          .withResponse();
      try {
        const field = knownLimits(this.provider, req.model).maxTokens ?? (this.#completionTokensModels.has(req.model) ? 'max_completion_tokens' : 'max_tokens');
        let sent;
        try {
          sent = await send(field);
        } catch (e) {
          // The same cap under the name this model accepts: a spelling, not a capability, so it is
          // remembered by the client for every run, and the refused request was not billed.
          const refused = this.#classify(e, sdk);
          if (!(isUnsupportedParameter(refused) && refused.refusal.param === 'max_tokens' && field === 'max_tokens' && req.maxTokens !== undefined)) throw e;
          this.#completionTokensModels.add(req.model);
          sent = await send('max_completion_tokens');
        }
        completion = sent.data;
        headers = sent.response.headers;
      } catch (e) {
        throw this.#classify(e, sdk);
      }
      return fromOpenAiCompletion(completion, { provider: this.provider, model: req.model, latencyMs: performance.now() - started, headers });
    });
  }

  #classify(e: unknown, sdk: OpenAI): unknown {
    return classifyOpenAiError(e, this.provider, sdk.baseURL, this.#secrets);
  }
}

/** The OpenAI SDK's errors, classified (chat and embeddings alike); `baseURL` says where a connection failed. */
export function classifyOpenAiError(e: unknown, provider: string, baseURL: string, secrets: readonly string[]): unknown {
  // Not loaded: no call was made through the SDK, so `e` is none of its errors (see openAiSdk).
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = openAiSdk.peek() ?? {};
  if (isInstance(e, APIUserAbortError)) return e; // withDeadline says whether it was our timer or the caller
  if (isInstance(e, APIConnectionTimeoutError)) {
    return new ProviderError({ kind: 'timeout', provider, message: `${provider}: request timed out` });
  }
  // Say where: "fetch failed" alone does not tell a user which base URL could not be reached.
  if (isInstance(e, APIConnectionError)) return networkError(provider, `${errorText(e)} (${baseURL})`, secrets);
  if (APIError && e instanceof APIError && typeof e.status === 'number') {
    // OpenRouter's moderation refusal (a 403 with the flagged reasons) is a block, not a key problem.
    const flagged = moderationBlock(provider, e.status, e.error);
    if (flagged) return flagged;
    // codes: `insufficient_quota` comes as a 429 and must not be retried as a rate limit (classify.ts).
    const error = httpError({ provider, status: e.status, headers: e.headers, detail: e.message, codes: [e.code, e.type], secrets });
    // A refused parameter (logprobs, a temperature, max_tokens): the gateway sends the call again without it.
    const body = (e.error ?? {}) as { message?: unknown };
    const refusal = refusalOf(e.status, { param: e.param ?? null, code: e.code ?? null, message: typeof body.message === 'string' ? body.message : e.message });
    return refusal ? new UnsupportedParameterError(refusal, { provider, status: e.status, message: error.message }) : error;
  }
  if (e instanceof ProviderError) return e;
  return unreadableReply(provider, e, secrets);
}
