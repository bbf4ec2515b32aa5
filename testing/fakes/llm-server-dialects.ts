/**
 * The wire formats the fake speaks: OpenAI chat completions, Anthropic messages, and a small
 * home-made JSON API standing in for "your own assistant" (a custom HTTP mapping,
 * lib/server/providers/custom-http.ts). Each
 * dialect parses into the shared FakeRequest and renders the shared answer back. Parsing is
 * strict where the real APIs are (Anthropic's required max_tokens, no system turns in
 * messages, tool results naming their call) so adapter mistakes fail here, not in production.
 */
import type { FakeMessage, FakeRequest, JudgeAnswer } from './llm-server-rules';
import { GeminiBadRequest, parseGeminiRequest, renderGeminiAnswer, renderGeminiError, type GeminiErrorExtras } from './llm-server-gemini';
import { parseSoevRequest, renderSoevAnswer, SoevBadRequest } from './llm-server-soev';
import { checkAnthropicTools, checkOpenAiTools } from './llm-server-tools';
import { anthropicUsageBody, openAiUsageBody, type FakeUsage } from './llm-server-usage';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import type { ContentBlock, Message } from '@anthropic-ai/sdk/resources/messages';

export type Dialect = FakeRequest['dialect'];

export interface FakeAnswer {
  content: string;
  toolCalls: { id: string; name: string; arguments: unknown }[];
  /** Present when the client asked for log-probabilities (OpenAI only). */
  logprobTokens?: JudgeAnswer['tokens'];
  /**
   * `reasoningTokens`: of completionTokens, a reasoning model's hidden reasoning (llm-server-capabilities.ts);
   * the cache counts are of promptTokens (llm-server-usage.ts renders each dialect's fields).
   */
  usage: FakeUsage;
  costUsd?: number;
  /** What the reply says served it (`model`, `system_fingerprint`). */
  served: { model: string; fingerprint: string };
}

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export class BadRequest extends Error {}

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((p) => (isRecord(p) && (p.type === 'text' || p.type === undefined) && typeof p.text === 'string' ? p.text : ''))
      .join('');
  }
  return '';
}

function parseJsonArgs(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function attemptOf(body: Json, headers: Record<string, string | string[] | undefined>): string | undefined {
  const fromHeader = header(headers, 'x-assay-attempt');
  if (fromHeader !== undefined) return fromHeader;
  const meta = body.metadata;
  return isRecord(meta) && meta.attempt !== undefined ? String(meta.attempt) : undefined;
}

function openAiMessages(raw: unknown[]): { system: string; messages: FakeMessage[] } {
  const system: string[] = [];
  const messages: FakeMessage[] = [];
  for (const m of raw) {
    if (!isRecord(m) || typeof m.role !== 'string') throw new BadRequest('each message needs a role');
    if (m.role === 'system' || m.role === 'developer') system.push(text(m.content));
    else if (m.role === 'user') messages.push({ role: 'user', content: text(m.content) });
    else if (m.role === 'tool') {
      if (typeof m.tool_call_id !== 'string') throw new BadRequest("a 'tool' message needs tool_call_id");
      messages.push({ role: 'tool', content: text(m.content), toolCallId: m.tool_call_id });
    } else if (m.role === 'assistant') {
      const calls = Array.isArray(m.tool_calls) ? m.tool_calls : [];
      messages.push({
        role: 'assistant',
        content: text(m.content),
        ...(calls.length
          ? {
              toolCalls: calls.map((c) => {
                const fn = isRecord(c) && isRecord(c.function) ? c.function : {};
                return { ...(isRecord(c) && typeof c.id === 'string' ? { id: c.id } : {}), name: String(fn.name), arguments: parseJsonArgs(fn.arguments) };
              }),
            }
          : {}),
      });
    } else throw new BadRequest(`unknown role '${m.role}'`);
  }
  return { system: system.join('\n\n'), messages };
}

/** `path` is needed by Gemini only, whose model is in the path. */
export function parseRequest(dialect: Dialect, body: unknown, headers: Record<string, string | string[] | undefined>, path = ''): FakeRequest {
  if (!isRecord(body)) throw new BadRequest('the body must be a JSON object');
  const attempt = attemptOf(body, headers);
  if (dialect === 'gemini') {
    try {
      return parseGeminiRequest(path, body, attempt);
    } catch (e) {
      throw e instanceof GeminiBadRequest ? new BadRequest(e.message) : e;
    }
  }
  if (dialect === 'soev') {
    try {
      return parseSoevRequest(body, headers, attempt);
    } catch (e) {
      throw e instanceof SoevBadRequest ? new BadRequest(e.message) : e;
    }
  }
  if (dialect === 'openai') {
    if (typeof body.model !== 'string') throw new BadRequest("'model' is required");
    if (!Array.isArray(body.messages) || body.messages.length === 0) throw new BadRequest("'messages' must be a non-empty array");
    // Tools in any shape but the documented ones are refused as OpenAI refuses them (llm-server-tools.ts).
    checkOpenAiTools(body.tools);
    const { system, messages } = openAiMessages(body.messages);
    const maxTokens = body.max_tokens ?? body.max_completion_tokens;
    return {
      dialect,
      model: body.model,
      system,
      messages,
      ...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
      ...(typeof maxTokens === 'number' ? { maxTokens } : {}),
      tools: Array.isArray(body.tools) ? body.tools : [],
      ...(body.logprobs === true ? { topLogprobs: typeof body.top_logprobs === 'number' ? body.top_logprobs : 0 } : {}),
      ...(attempt !== undefined ? { attempt } : {}),
    };
  }
  if (dialect === 'anthropic') {
    if (typeof body.model !== 'string') throw new BadRequest('model: Field required');
    if (typeof body.max_tokens !== 'number') throw new BadRequest('max_tokens: Field required');
    if (!Array.isArray(body.messages) || body.messages.length === 0) throw new BadRequest('messages: at least one message is required');
    checkAnthropicTools(body.tools);
    const messages: FakeMessage[] = [];
    for (const [i, m] of body.messages.entries()) {
      if (!isRecord(m) || (m.role !== 'user' && m.role !== 'assistant')) {
        throw new BadRequest("messages: roles must be 'user' or 'assistant' (the system prompt is the top-level 'system' field)");
      }
      // The Messages API answers 400 invalid_request_error to an empty turn ('' or no blocks) anywhere
      // but a final assistant turn (a prefill), and to an empty text block.
      const final = i === body.messages.length - 1 && m.role === 'assistant';
      if (!final && (m.content === '' || (Array.isArray(m.content) && m.content.length === 0))) {
        throw new BadRequest(`messages.${i}: all messages must have non-empty content except for the optional final assistant message`);
      }
      if (Array.isArray(m.content) && m.content.some((b) => isRecord(b) && b.type === 'text' && b.text === '')) {
        throw new BadRequest(`messages.${i}: text content blocks must be non-empty`);
      }
      const blocks: unknown[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : [];
      let content = '';
      const toolCalls: NonNullable<FakeMessage['toolCalls']> = [];
      for (const b of blocks) {
        if (!isRecord(b)) continue;
        if (b.type === 'text') content += String(b.text ?? '');
        else if (b.type === 'tool_use') toolCalls.push({ id: String(b.id), name: String(b.name), arguments: b.input });
        else if (b.type === 'tool_result') {
          if (typeof b.tool_use_id !== 'string') throw new BadRequest('tool_result.tool_use_id: Field required');
          messages.push({ role: 'tool', content: text(b.content), toolCallId: b.tool_use_id });
        }
      }
      if (content !== '' || toolCalls.length) messages.push({ role: m.role, content, ...(toolCalls.length ? { toolCalls } : {}) });
    }
    return {
      dialect,
      model: body.model,
      system: text(body.system),
      messages,
      ...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
      maxTokens: body.max_tokens,
      tools: Array.isArray(body.tools) ? body.tools : [],
      ...(attempt !== undefined ? { attempt } : {}),
    };
  }
  // custom: `{ model?, system?, messages? (OpenAI shape) | input? }`
  let parsed: { system: string; messages: FakeMessage[] };
  if (Array.isArray(body.messages)) parsed = openAiMessages(body.messages);
  else if (typeof body.input === 'string') parsed = { system: '', messages: [{ role: 'user', content: body.input }] };
  else throw new BadRequest("send 'messages' (a list) or 'input' (a string)");
  const system = [typeof body.system === 'string' ? body.system : '', parsed.system].filter(Boolean).join('\n\n');
  return {
    dialect,
    model: typeof body.model === 'string' ? body.model : 'custom-assistant',
    system,
    messages: parsed.messages,
    ...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
    tools: [],
    ...(attempt !== undefined ? { attempt } : {}),
  };
}

export function renderAnswer(dialect: Dialect, req: FakeRequest, answer: FakeAnswer, seq: number): Json {
  if (dialect === 'soev') return renderSoevAnswer(req, answer, seq);
  if (dialect === 'gemini') return renderGeminiAnswer(req, answer, seq);
  const { promptTokens, completionTokens } = answer.usage;
  if (dialect === 'openai') return { ...openAiCompletion(answer, seq) };
  if (dialect === 'anthropic') return { ...anthropicMessage(answer, seq) };
  return {
    id: `custom-fake-${seq}`,
    model: answer.served.model,
    system_fingerprint: answer.served.fingerprint,
    output: { text: answer.content, tool_calls: answer.toolCalls.map((c) => ({ tool: c.name, args: c.arguments ?? {} })) },
    usage: { input: promptTokens, output: completionTokens },
  };
}

/**
 * A chat completion as openai-node types it (`ChatCompletion`, the SDK generated from OpenAI's
 * OpenAPI description): the compiler holds the fake to the published shape, not to what the
 * adapter happens to read.
 */
export function openAiCompletion(answer: FakeAnswer, seq: number): ChatCompletion {
  return {
    id: `chatcmpl-fake-${seq}`,
    object: 'chat.completion',
    created: 1_700_000_000 + seq,
    model: answer.served.model,
    system_fingerprint: answer.served.fingerprint,
    service_tier: 'default',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: answer.toolCalls.length && answer.content === '' ? null : answer.content,
          refusal: null,
          annotations: [],
          ...(answer.toolCalls.length
            ? { tool_calls: answer.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.arguments ?? {}) } })) }
            : {}),
        },
        logprobs: answer.logprobTokens
          ? { content: answer.logprobTokens.map((t) => ({ token: t.token, logprob: t.logprob, bytes: utf8(t.token), top_logprobs: t.top.map((x) => ({ ...x, bytes: utf8(x.token) })) })), refusal: null }
          : null,
        finish_reason: answer.toolCalls.length ? 'tool_calls' : 'stop',
      },
    ],
    // openai-node CompletionUsage: cached tokens are part of prompt_tokens, reasoning tokens of completion_tokens.
    usage: openAiUsageBody(answer.usage, answer.costUsd),
  };
}

/** The UTF-8 bytes of a token, as OpenAI's logprobs carry them (`bytes`: "a list of integers representing the UTF-8 bytes"). */
function utf8(token: string): number[] {
  return [...Buffer.from(token, 'utf8')];
}

/**
 * A Messages API reply as @anthropic-ai/sdk types it (`Message`): every field the SDK marks as
 * always present is sent (`container`, `diagnostics`, `stop_details` as null when unused, a tool
 * call's `caller`), as the API reference lists them.
 */
export function anthropicMessage(answer: FakeAnswer, seq: number): Message {
  const content: ContentBlock[] = [
    ...(answer.content !== '' || !answer.toolCalls.length ? [{ type: 'text' as const, text: answer.content, citations: null }] : []),
    ...answer.toolCalls.map((c) => ({ type: 'tool_use' as const, id: c.id, name: c.name, input: c.arguments ?? {}, caller: { type: 'direct' as const } })),
  ];
  return {
    id: `msg_fake_${seq}`,
    type: 'message',
    role: 'assistant',
    model: answer.served.model,
    content,
    container: null,
    diagnostics: null,
    stop_reason: answer.toolCalls.length ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    stop_details: null,
    usage: anthropicUsageBody(answer.usage),
  };
}

const OPENAI_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_api_key',
  403: 'permission_denied',
  404: 'not_found_error',
  429: 'rate_limit_exceeded',
};
const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

/**
 * Response headers as the real APIs send them: a request id, the served model where OpenAI
 * names it, and headers Assay must never store (a cookie, an organisation id), so a test can
 * prove the adapters keep only their allow-list.
 */
export function answerHeaders(dialect: Dialect, answer: Pick<FakeAnswer, 'served'>, seq: number): Record<string, string> {
  const never = { 'set-cookie': `__fake_session=secret-${seq}; Path=/; HttpOnly` };
  if (dialect === 'openai') return { 'x-request-id': `req_fake_${seq}`, 'openai-model': answer.served.model, 'openai-organization': 'org-fake-private', ...never };
  if (dialect === 'anthropic') return { 'request-id': `req_fake_${seq}`, 'anthropic-organization-id': 'org-fake-private', ...never };
  return { 'x-request-id': `req_fake_${seq}`, ...never };
}

/**
 * A 429 for a rate limit: the wait in a `retry-after` header (OpenAI, Anthropic), or for Gemini only in
 * the body's RetryInfo (Google sends no such header; see llm-server-gemini.ts).
 */
export function rateLimitReply(dialect: Dialect, message: string, retryAfterSeconds: string): { body: Json; headers: Record<string, string> } {
  if (dialect === 'gemini') return { body: renderGeminiError(429, message, { retryDelaySeconds: retryAfterSeconds }), headers: {} };
  return { body: renderError(dialect, 429, message), headers: { 'retry-after': retryAfterSeconds } };
}

/** `gemini` extras: the 429's RetryInfo delay and an ErrorInfo reason (llm-server-gemini.ts). */
export function renderError(dialect: Dialect, status: number, message: string, gemini?: GeminiErrorExtras): Json {
  if (dialect === 'gemini') return renderGeminiError(status, message, gemini);
  if (dialect === 'openai') {
    // The shape is OpenAI's OpenAPI document's `ErrorResponse` (`error`: `code`, `message`,
    // `param`, `type`; `code` and `param` may be null). Its 429 for a rate limit names the limit in
    // `type` ("requests" or "tokens") and the error in `code`, as OpenAI sends it (bodies recorded
    // in public clients' tests and OpenAI's help article "Error Code 429 - Rate limit reached for requests"):
    // {"message": "Rate limit reached for gpt-4o-mini in organization org-… on requests per min (RPM): …", "type": "requests", "param": null, "code": "rate_limit_exceeded"}
    const type = status === 429 ? 'requests' : (OPENAI_ERROR_TYPES[status] ?? 'server_error');
    return { error: { message, type, param: null, code: OPENAI_ERROR_TYPES[status] ?? null } };
  }
  if (dialect === 'anthropic') return { type: 'error', error: { type: ANTHROPIC_ERROR_TYPES[status] ?? 'api_error', message } };
  return { error: message };
}
