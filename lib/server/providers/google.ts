/**
 * Gemini over `@google/genai`. No offline fake speaks its protocol, so the request and
 * response mappings are pure functions tested on their own; the client around them is thin.
 * Gemini offers log-probabilities (`responseLogprobs` + `logprobs: k`) on the models that
 * support them; a reply without them maps to null.
 */
import type { Content, GenerateContentParameters, GenerateContentResponse, GoogleGenAI, Part } from '@google/genai';
import { servedFrom } from '@/lib/core';
import { attemptHeaders } from './attempt-header';
import { refusalOf, UnsupportedParameterError } from './capabilities';
import { bodyFault, classifySdkError, malformedError, type SdkErrorKinds } from './classify';
import { costUsd } from './cost';
import { geminiOutcome, geminiPromptBlock } from './reply-outcome';
import { geminiUsage } from './usage';
import { DEFAULT_TIMEOUT_MS, isAbortError, withDeadline } from './deadline';
import { readGeminiErrorBody } from './gemini-error-body';
import { lazy } from './lazy-module';
import { geminiFunctionDeclarations, parseArguments } from './tool-calls';
import { isProviderError, type ChatRequest, type ChatResponse, type LlmClient, type TokenLogprob, type ToolCall } from './types';

export interface GoogleOptions {
  apiKey: string;
  baseURL?: string;
  defaultTimeoutMs?: number;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function toGeminiParams(req: ChatRequest, extra: { signal?: AbortSignal; timeoutMs?: number } = {}): GenerateContentParameters {
  const system = req.messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content ?? '')
    .join('\n\n');
  // A tool result must name its function; OpenAI-style turns only carry the call id.
  const toolNames = new Map<string, string>();
  for (const m of req.messages) for (const c of m.toolCalls ?? []) if (c.id) toolNames.set(c.id, c.name);

  const contents: Content[] = [];
  for (const m of req.messages) {
    if (m.role === 'system') continue;
    const role = m.role === 'assistant' ? 'model' : 'user';
    const parts: Part[] = [];
    if (m.role === 'tool') {
      const output = parseArguments(m.content ?? '');
      parts.push({
        functionResponse: {
          ...(m.toolCallId ? { id: m.toolCallId } : {}),
          name: (m.toolCallId && toolNames.get(m.toolCallId)) || 'tool',
          response: isRecord(output) ? output : { output },
        },
      });
    } else {
      if (m.content) parts.push({ text: m.content });
      for (const c of m.toolCalls ?? []) {
        const args = parseArguments(c.arguments);
        parts.push({ functionCall: { ...(c.id ? { id: c.id } : {}), name: c.name, args: isRecord(args) ? args : { value: args } } });
      }
    }
    // Gemini refuses a turn without parts (400 "contents.parts must not be empty"), and an empty
    // text is no part (a protobuf oneof left unset): an empty reply is left out, the turns around it joined.
    if (parts.length === 0) continue;
    const last = contents.at(-1);
    if (last && last.role === role) last.parts = [...(last.parts ?? []), ...parts];
    else contents.push({ role, parts });
  }

  const declarations = geminiFunctionDeclarations(req.tools);
  const headers = attemptHeaders(req);
  return {
    model: req.model,
    contents,
    config: {
      ...(system ? { systemInstruction: system } : {}),
      ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      ...(req.maxTokens !== undefined ? { maxOutputTokens: req.maxTokens } : {}),
      ...(declarations.length ? { tools: [{ functionDeclarations: declarations }] } : {}),
      ...(req.topLogprobs !== undefined ? { responseLogprobs: true, logprobs: req.topLogprobs } : {}),
      ...(extra.signal ? { abortSignal: extra.signal } : {}),
      ...(Object.keys(headers).length || extra.timeoutMs !== undefined
        ? { httpOptions: { ...(Object.keys(headers).length ? { headers } : {}), ...(extra.timeoutMs !== undefined ? { timeout: extra.timeoutMs } : {}) } }
        : {}),
    },
  };
}

type GeminiReply = Pick<GenerateContentResponse, 'candidates' | 'usageMetadata' | 'promptFeedback'> &
  Partial<Pick<GenerateContentResponse, 'modelVersion' | 'responseId' | 'sdkHttpResponse'>>;

export function fromGeminiResponse(res: GeminiReply, ctx: { provider: string; model: string; latencyMs: number }): ChatResponse {
  const fault = bodyFault(ctx.provider, res);
  if (fault) throw fault;
  const candidate = res?.candidates?.[0];
  if (!candidate) {
    // A blocked prompt is the provider's answer, with its reason (reply-outcome.ts), not a malformed reply.
    throw geminiPromptBlock(ctx.provider, res?.promptFeedback) ?? malformedError(ctx.provider, 'no candidates in the reply');
  }
  let content = '';
  const toolCalls: ToolCall[] = [];
  for (const part of candidate.content?.parts ?? []) {
    if (typeof part.text === 'string' && !part.thought) content += part.text;
    if (part.functionCall?.name) {
      toolCalls.push({ ...(part.functionCall.id ? { id: part.functionCall.id } : {}), name: part.functionCall.name, arguments: part.functionCall.args ?? {} });
    }
  }
  // A safety finish keeps its text as a refusal, or with no text throws `blocked` (reply-outcome.ts).
  const outcome = geminiOutcome(ctx.provider, candidate, content);
  const meta = res.usageMetadata;
  const usage = geminiUsage(meta);
  const chosen = candidate.logprobsResult?.chosenCandidates;
  const tops = candidate.logprobsResult?.topCandidates ?? [];
  const logprobs: TokenLogprob[] | null = chosen?.length
    ? chosen.map((c, i) => ({
        token: c.token ?? '',
        logprob: c.logProbability ?? Number.NEGATIVE_INFINITY,
        top: (tops[i]?.candidates ?? []).map((t) => ({ token: t.token ?? '', logprob: t.logProbability ?? Number.NEGATIVE_INFINITY })),
      }))
    : null;
  return {
    content: outcome.content,
    ...(outcome.refusal ? { refusal: outcome.refusal } : {}),
    toolCalls,
    finishReason: candidate.finishReason ?? null,
    usage,
    costUsd: costUsd(ctx.model, usage),
    logprobs,
    latencyMs: ctx.latencyMs,
    // Gemini names the served snapshot `modelVersion`; it has no fingerprint.
    served: servedFrom({ model: res.modelVersion, fingerprint: null, responseId: res.responseId, headers: res.sdkHttpResponse?.headers ?? null }),
  };
}

/**
 * The `@google/genai` package, imported by the first call that needs it (lazy-module.ts); the
 * Gemini embeddings adapter uses it through this one too. Its `ApiError` is read with `peek()`
 * once a call failed: an error of the SDK only comes from a call made through it.
 */
export const geminiSdk = lazy(() => import('@google/genai'));

/**
 * The Gemini SDK's errors, for the shared SDK classifier. They carry a status and the body but no
 * headers: a 429's wait is the body's RetryInfo (gemini-error-body.ts), handed on as the
 * `retry-after-ms` it stands for so the limiter waits it out.
 */
const GEMINI_ERRORS: SdkErrorKinds = {
  isAbort: isAbortError,
  isConnection: (e) => e instanceof TypeError, // undici's "fetch failed"
  http: (e) => {
    const ApiError = geminiSdk.peek()?.ApiError;
    if (!ApiError || !(e instanceof ApiError) || typeof e.status !== 'number') return null;
    const body = readGeminiErrorBody(e.message);
    return {
      status: e.status,
      message: body.message,
      codes: body.codes,
      ...(body.retryAfterMs !== undefined ? { headers: { 'retry-after-ms': String(body.retryAfterMs) } } : {}),
    };
  },
};

export function classifyGeminiError(e: unknown, provider: string, secrets: readonly string[]): unknown {
  const classified = classifySdkError(e, GEMINI_ERRORS, provider, secrets);
  // "Logprobs is not supported for the current model." (400 INVALID_ARGUMENT): the gateway sends the call again without them (capabilities.ts).
  const http = GEMINI_ERRORS.http(e);
  const refusal = http ? refusalOf(http.status, { message: http.message }) : null;
  return refusal && http && isProviderError(classified) ? new UnsupportedParameterError(refusal, { provider, status: http.status, message: classified.message }) : classified;
}

export class GoogleClient implements LlmClient {
  readonly provider = 'google';
  /** Made by the first call (lazy-module.ts), then kept. */
  readonly #sdk: () => Promise<GoogleGenAI>;
  readonly #secrets: string[];
  readonly #timeoutMs: number;

  constructor(opts: GoogleOptions) {
    this.#secrets = [opts.apiKey];
    this.#timeoutMs = opts.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS;
    // No retryOptions: the SDK then makes exactly one request (retries are ours). `vertexai: false`
    // explicitly, or GOOGLE_GENAI_USE_VERTEXAI in the environment would switch backends behind our back.
    this.#sdk = lazy(async () => {
      const { GoogleGenAI } = await geminiSdk();
      return new GoogleGenAI({ apiKey: opts.apiKey, vertexai: false, ...(opts.baseURL ? { httpOptions: { baseUrl: opts.baseURL } } : {}) });
    });
  }

  async chat(req: ChatRequest): Promise<ChatResponse> {
    // Made before the clock starts: the first call's latency and deadline are its request's alone.
    const sdk = await this.#sdk();
    const timeoutMs = req.timeoutMs ?? this.#timeoutMs;
    const started = performance.now();
    return withDeadline({ provider: this.provider, timeoutMs, signal: req.signal }, async (signal) => {
      let res: GenerateContentResponse;
      try {
        res = await sdk.models.generateContent(toGeminiParams(req, { signal, timeoutMs: timeoutMs + 1_000 }));
      } catch (e) {
        throw classifyGeminiError(e, this.provider, this.#secrets);
      }
      return fromGeminiResponse(res, { provider: this.provider, model: req.model, latencyMs: performance.now() - started });
    });
  }
}
