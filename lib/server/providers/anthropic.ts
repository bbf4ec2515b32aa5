/**
 * Anthropic's Messages API over the official SDK. The differences from OpenAI that matter:
 * the system prompt is a separate field, tool calls and results are content blocks, turns of
 * one role must be merged, `max_tokens` is required, and there are no log-probabilities.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlockParam, Message, MessageCreateParamsNonStreaming, MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import { servedFrom } from '@/lib/core';
import { AnthropicBatchApi } from './anthropic-batch';
import { attemptHeaders } from './attempt-header';
import type { BatchApi } from './batch-types';
import { speaksBatch } from './catalog';
import { bodyFault, classifySdkError, malformedError } from './classify';
import { anthropicMaxTokens } from './anthropic-limits';
import { costUsd } from './cost';
import { anthropicOutcome } from './reply-outcome';
import { anthropicUsage } from './usage';
import { DEFAULT_TIMEOUT_MS, withDeadline } from './deadline';
import { lazy, stainlessErrorKinds } from './lazy-module';
import { anthropicTools, parseArguments } from './tool-calls';
import { type ChatRequest, type ChatResponse, type LlmClient, type ToolCall } from './types';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

export interface AnthropicOptions {
  apiKey: string;
  /** Without the `/v1` suffix: the SDK adds `/v1/messages` itself. */
  baseURL?: string;
  defaultTimeoutMs?: number;
  provider?: string;
}

/** `temperature` is not in this SDK's typed params but the API still takes it for the models that support it. */
export type AnthropicParams = MessageCreateParamsNonStreaming & { temperature?: number };

export function toAnthropicParams(req: ChatRequest): AnthropicParams {
  const system = req.messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content ?? '')
    .join('\n\n');
  const messages: MessageParam[] = [];
  for (const m of req.messages) {
    if (m.role === 'system') continue;
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const blocks: ContentBlockParam[] = [];
    if (m.role === 'tool') {
      blocks.push({ type: 'tool_result', tool_use_id: m.toolCallId ?? '', content: m.content ?? '' });
    } else {
      if (m.content) blocks.push({ type: 'text', text: m.content });
      for (const [i, c] of (m.toolCalls ?? []).entries()) {
        blocks.push({ type: 'tool_use', id: c.id ?? `toolu_${i}`, name: c.name, input: parseArguments(c.arguments) });
      }
    }
    // An assistant turn with nothing in it (a model that answered '' earlier in a multi-turn
    // cell) is left out: the Messages API answers 400 to empty content ("all messages must have
    // non-empty content except for the optional final assistant message"), and an empty text
    // block is refused too. Leaving it out sends what the model's context held (nothing from it);
    // a placeholder text would put words in its mouth. The user turns around it are then merged
    // into one message below, as the API requires alternating roles.
    if (role === 'assistant' && blocks.length === 0) continue;
    const last = messages.at(-1);
    if (last && last.role === role) {
      // Consecutive turns of one role (e.g. several tool results) must be one message.
      const prior: ContentBlockParam[] = typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : [...(last.content as ContentBlockParam[])];
      last.content = [...prior, ...blocks];
    } else {
      const onlyText = blocks.length === 1 && blocks[0]!.type === 'text';
      messages.push({ role, content: onlyText ? (blocks[0] as { text: string }).text : blocks.length ? blocks : '' });
    }
  }
  const tools: Tool[] = anthropicTools(req.tools);
  return {
    model: req.model,
    max_tokens: req.maxTokens ?? anthropicMaxTokens(req.model),
    messages,
    ...(system ? { system } : {}),
    ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
    ...(tools.length ? { tools } : {}),
  };
}

export function fromAnthropicMessage(message: Message, ctx: { provider: string; model: string; latencyMs: number; headers?: Headers | null }): ChatResponse {
  const fault = bodyFault(ctx.provider, message);
  if (fault) throw fault;
  if (!message || !Array.isArray(message.content)) {
    throw malformedError(ctx.provider, `no content blocks in the reply: ${JSON.stringify(message).slice(0, 200)}`);
  }
  let content = '';
  const toolCalls: ToolCall[] = [];
  for (const block of message.content) {
    if (block.type === 'text') content += block.text;
    else if (block.type === 'tool_use') toolCalls.push({ id: block.id, name: block.name, arguments: block.input });
  }
  // `stop_reason: refusal` keeps its text as a refusal, or with no text throws `blocked` (reply-outcome.ts).
  const outcome = anthropicOutcome(ctx.provider, message, content);
  const u = message.usage;
  const usage = anthropicUsage(u);
  return {
    content: outcome.content,
    toolCalls,
    finishReason: message.stop_reason ?? null,
    ...(outcome.refusal ? { refusal: outcome.refusal } : {}),
    usage,
    costUsd: costUsd(ctx.model, usage),
    logprobs: null,
    latencyMs: ctx.latencyMs,
    // Anthropic has no fingerprint; the dated model id in the reply is what answered.
    served: servedFrom({ model: message.model, fingerprint: null, responseId: message.id, headers: ctx.headers ?? null }),
  };
}

/**
 * The `@anthropic-ai/sdk` package, imported by the first call that needs it (lazy-module.ts). Its
 * error classes are read with `peek()` once a call failed: an error of the SDK only comes from a
 * call made through it.
 */
export const anthropicSdk = lazy(() => import('@anthropic-ai/sdk'));

/**
 * The Anthropic SDK's errors, for the shared SDK classifier. Its codes: `billing_error`, and a 429
 * whose `details.error_code` is the spend limit, are out of credit, not a rate limit (classify.ts).
 */
const ANTHROPIC_ERRORS = stainlessErrorKinds(anthropicSdk, (e) => [e.type, e.errorCode]);

/** The Anthropic SDK's errors, classified (the client's calls; the contract suite reads documented error bodies through it). */
export function classifyAnthropicError(e: unknown, provider: string, secrets: readonly string[] = []): unknown {
  return classifySdkError(e, ANTHROPIC_ERRORS, provider, secrets);
}

export class AnthropicClient implements LlmClient {
  readonly provider: string;
  /** Made by the first call (lazy-module.ts), then kept. */
  readonly #sdk: () => Promise<Anthropic>;
  readonly #secrets: string[];
  readonly #timeoutMs: number;
  /** Message Batches over the same SDK object. */
  readonly batch: BatchApi | undefined;

  constructor(opts: AnthropicOptions) {
    this.provider = opts.provider ?? 'anthropic';
    this.#secrets = [opts.apiKey];
    this.#timeoutMs = opts.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    // Everything explicit, so the SDK reads no environment variable or profile file of its own.
    this.#sdk = lazy(async () => {
      const { default: Anthropic } = await anthropicSdk();
      return new Anthropic({
        apiKey: opts.apiKey,
        baseURL: opts.baseURL ?? ANTHROPIC_DEFAULT_BASE_URL,
        maxRetries: 0,
        logLevel: 'off',
        openTelemetry: false,
      });
    });
    this.batch = speaksBatch(this.provider) ? new AnthropicBatchApi(this.provider, this.#sdk, ANTHROPIC_ERRORS, this.#secrets) : undefined;
  }

  async chat(req: ChatRequest): Promise<ChatResponse> {
    // Made before the clock starts: the first call's latency and deadline are its request's alone.
    const sdk = await this.#sdk();
    const timeoutMs = req.timeoutMs ?? this.#timeoutMs;
    const started = performance.now();
    return withDeadline({ provider: this.provider, timeoutMs, signal: req.signal }, async (signal) => {
      let message: Message;
      let headers: Headers;
      try {
        const { data, response } = await sdk.messages.create(toAnthropicParams(req), { signal, timeout: timeoutMs + 1_000, headers: attemptHeaders(req) }).withResponse();
        message = data;
        headers = response.headers;
      } catch (e) {
        throw classifyAnthropicError(e, this.provider, this.#secrets);
      }
      return fromAnthropicMessage(message, { provider: this.provider, model: req.model, latencyMs: performance.now() - started, headers });
    });
  }
}
