/**
 * The fake's Gemini dialect: `POST /v1beta/models/{model}:generateContent` as Google publishes it.
 * Sources, by what they define:
 * - the request and response bodies: Gemini API reference, "Generating content" > models.generateContent
 *   (GenerateContentRequest, GenerateContentResponse, Candidate, LogprobsResult, UsageMetadata), and the
 *   SDK's types in @google/genai (js-genai src/types.ts: GenerateContentResponse, Candidate, FinishReason,
 *   LogprobsResult, GenerateContentResponseUsageMetadata), which the render below is checked against;
 * - authentication: the `x-goog-api-key` header (the reference's curl examples) or the `?key=` query parameter;
 * - errors: Gemini API "Troubleshooting" page (400 INVALID_ARGUMENT, 403 PERMISSION_DENIED, 404 NOT_FOUND,
 *   429 RESOURCE_EXHAUSTED, 500 INTERNAL, 503 UNAVAILABLE, 504 DEADLINE_EXCEEDED) in Google's JSON error
 *   shape `{error: {code, message, status, details}}` (google.rpc.Status); a 429 carries its wait only in
 *   the body, as `google.rpc.RetryInfo.retryDelay` (a protobuf Duration such as "30s" or "1.5s") beside a
 *   `google.rpc.QuotaFailure`, and no `retry-after` header; a bad key is a 400 with ErrorInfo reason
 *   API_KEY_INVALID (the troubleshooting page's example body);
 * - what a model refuses: `responseLogprobs` answers 400 "Logprobs is not enabled for models/…" on the
 *   2.5 family and later (reported against Google's own SDK,
 *   https://github.com/googleapis/python-genai/issues/1921, and
 *   https://github.com/mscraftsman/generative-ai/issues/135, while gemini-2.0-flash answers with them); a thinking budget of 0
 *   on 2.5 Pro, which "cannot turn off thinking" (Gemini API "Thinking" guide: 2.5 Pro 128–32768,
 *   2.5 Flash 0–24576, 2.5 Flash-Lite 0 or 512–24576, -1 dynamic).
 */
import { FinishReason, type Candidate, type GenerateContentResponse, type Part } from '@google/genai';
import type { CapabilityProfile } from './llm-server-capabilities';
import type { FakeMessage, FakeRequest } from './llm-server-rules';
import { geminiUsageMetadata, type FakeUsage } from './llm-server-usage';
import { checkGeminiTools } from './llm-server-tools';

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The one path of the dialect; the model is in the path (`models/gemini-2.5-flash`), never in the body. */
const GENERATE_PATH = /\/models\/([^/:]+):generateContent$/;

export function isGeminiChatPath(path: string): boolean {
  return GENERATE_PATH.test(path);
}

/** A 400 the way Gemini words it: `* GenerateContentRequest.<field>: <reason>`. */
export class GeminiBadRequest extends Error {}

const bad = (field: string, reason: string): GeminiBadRequest => new GeminiBadRequest(`* GenerateContentRequest.${field}: ${reason}\n`);

/** Families whose thinking cannot be turned off, and those that refuse log-probabilities (see the header). */
const THINKING_ALWAYS_ON = /^gemini-(2\.5-pro|3)/;
const THINKING = /^gemini-(2\.5|3)/;
const NO_LOGPROBS = /^gemini-(2\.5|3)|preview|exp/;

export interface GeminiProfile {
  /** Answers `responseLogprobs: true` (else 400 INVALID_ARGUMENT). */
  logprobs: boolean;
  /** Spends thinking tokens (reported as usageMetadata.thoughtsTokenCount) unless the budget is 0. */
  thinks: boolean;
  /** A thinking budget of 0 is refused. */
  thinkingRequired: boolean;
}

/**
 * The fake's capability profile for Gemini (llm-server-capabilities.ts): the families that refuse
 * `responseLogprobs`, answered with Google's 400 and recorded as a refused parameter.
 */
export const GEMINI_CAPABILITY_PROFILES: readonly CapabilityProfile[] = [
  {
    family: 'Gemini 2.5 and later, previews and experiments (no log-probabilities)',
    dialect: 'gemini',
    model: NO_LOGPROBS,
    source:
      'the Gemini API\'s 400 INVALID_ARGUMENT "Logprobs is not enabled for models/gemini-2.5-pro" (googleapis/python-genai#1921 on gemini-2.5-flash/-pro; ' +
      'mscraftsman/generative-ai#135), while gemini-2.0-flash answers responseLogprobs; Gemini API reference, GenerationConfig.responseLogprobs and logprobs',
    refuse: (body, model) => {
      const config = body.generationConfig;
      if (!isRecord(config) || config.responseLogprobs !== true) return null;
      return { status: 400, param: 'responseLogprobs', body: renderGeminiError(400, `Logprobs is not enabled for models/${model ?? 'unknown'}`) };
    },
  },
];

export function geminiProfile(model: string): GeminiProfile {
  const name = model.replace(/^models\//, '');
  return { logprobs: !NO_LOGPROBS.test(name), thinks: THINKING.test(name), thinkingRequired: THINKING_ALWAYS_ON.test(name) };
}

/** What the fake needs from a request beyond FakeRequest: the thinking budget, to report thinking tokens. */
export interface GeminiExtras {
  thinkingBudget?: number;
}
const extras = new WeakMap<FakeRequest, GeminiExtras>();
export const geminiExtras = (req: FakeRequest): GeminiExtras => extras.get(req) ?? {};

function partsOf(content: unknown, field: string): { text: string; calls: NonNullable<FakeMessage['toolCalls']>; results: { id?: string; name: string; response: unknown }[] } {
  if (!isRecord(content)) throw bad(field, 'must be a Content object');
  const parts = content.parts;
  if (!Array.isArray(parts) || parts.length === 0) throw bad(`${field}.parts`, 'contents.parts must not be empty.');
  let text = '';
  const calls: NonNullable<FakeMessage['toolCalls']> = [];
  const results: { id?: string; name: string; response: unknown }[] = [];
  parts.forEach((p: unknown, i) => {
    const where = `${field}.parts[${i}]`;
    if (!isRecord(p)) throw bad(where, 'must be a Part object');
    // A Part is a protobuf oneof: an empty string is the unset default, so `{text: ''}` sets nothing.
    if (typeof p.text === 'string' && p.text !== '') {
      if (p.thought !== true) text += p.text;
    } else if (isRecord(p.functionCall)) {
      if (typeof p.functionCall.name !== 'string' || p.functionCall.name === '') throw bad(`${where}.function_call.name`, 'Name cannot be empty.');
      calls.push({ ...(typeof p.functionCall.id === 'string' ? { id: p.functionCall.id } : {}), name: p.functionCall.name, arguments: p.functionCall.args ?? {} });
    } else if (isRecord(p.functionResponse)) {
      const r = p.functionResponse;
      if (typeof r.name !== 'string' || r.name === '') throw bad(`${where}.function_response.name`, 'Name cannot be empty.');
      if (!isRecord(r.response)) throw bad(`${where}.function_response.response`, 'must be a JSON object (google.protobuf.Struct).');
      results.push({ ...(typeof r.id === 'string' ? { id: r.id } : {}), name: r.name, response: r.response });
    } else if (!('thoughtSignature' in p)) {
      throw bad(`${where}.data`, "required oneof field 'data' must have one initialized field");
    }
  });
  return { text, calls, results };
}

function systemText(raw: unknown): string {
  if (raw === undefined) return '';
  if (!isRecord(raw)) throw bad('system_instruction', 'must be a Content object');
  const parts = Array.isArray(raw.parts) ? raw.parts : [];
  return parts.map((p: unknown) => (isRecord(p) && typeof p.text === 'string' ? p.text : '')).join('');
}

function numberIn(config: Json, name: string, min: number, max: number, integer: boolean): number | undefined {
  const v = config[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || (integer && !Number.isInteger(v)) || v < min || v > max) {
    throw bad(`generation_config.${name}`, `must be ${integer ? 'an integer' : 'a number'} in [${min}, ${max}], got ${JSON.stringify(v)}.`);
  }
  return v;
}

/** The request as the shared FakeRequest; throws GeminiBadRequest with Gemini's wording where the API answers 400. */
export function parseGeminiRequest(path: string, body: Json, attempt: string | undefined): FakeRequest {
  const m = GENERATE_PATH.exec(path);
  if (!m) throw new GeminiBadRequest(`not a generateContent path: ${path}`);
  const model = decodeURIComponent(m[1]!);
  if (!Array.isArray(body.contents) || body.contents.length === 0) throw bad('contents', 'contents is not specified');
  const messages: FakeMessage[] = [];
  body.contents.forEach((c: unknown, i) => {
    const role = isRecord(c) ? (c.role ?? 'user') : undefined;
    if (role !== 'user' && role !== 'model') throw bad(`contents[${i}].role`, `Please use a valid role: user, model (got ${JSON.stringify(role)}).`);
    const { text, calls, results } = partsOf(c, `contents[${i}]`);
    for (const r of results) {
      messages.push({ role: 'tool', content: JSON.stringify(r.response), ...(r.id ? { toolCallId: r.id } : { toolCallId: r.name }) });
    }
    if (text !== '' || calls.length) messages.push({ role: role === 'model' ? 'assistant' : 'user', content: text, ...(calls.length ? { toolCalls: calls } : {}) });
  });

  const config = body.generationConfig === undefined ? {} : body.generationConfig;
  if (!isRecord(config)) throw bad('generation_config', 'must be a GenerationConfig object');
  const temperature = numberIn(config, 'temperature', 0, 2, false);
  const maxTokens = numberIn(config, 'maxOutputTokens', 1, Number.MAX_SAFE_INTEGER, true);
  const k = numberIn(config, 'logprobs', 0, 20, true);
  // A model that refuses responseLogprobs answers through GEMINI_CAPABILITY_PROFILES, after parsing, as every dialect's refusals do.
  const profile = geminiProfile(model);

  const thinking = config.thinkingConfig;
  let thinkingBudget: number | undefined;
  if (thinking !== undefined) {
    if (!isRecord(thinking)) throw bad('generation_config.thinking_config', 'must be a ThinkingConfig object');
    if (thinking.thinkingBudget !== undefined) {
      thinkingBudget = numberIn(thinking, 'thinkingBudget', -1, 32_768, true);
      if (thinkingBudget === 0 && profile.thinkingRequired) throw new GeminiBadRequest('Budget 0 is invalid. This model only works in thinking mode.');
    }
  }

  // The documented Tool / FunctionDeclaration shapes, checked in one place for the fake (llm-server-tools.ts).
  checkGeminiTools(body.tools);
  const tools = Array.isArray(body.tools) ? body.tools : [];

  const req: FakeRequest = {
    dialect: 'gemini',
    model,
    system: systemText(body.systemInstruction),
    messages,
    ...(temperature !== undefined ? { temperature } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    tools,
    ...(config.responseLogprobs === true ? { topLogprobs: k ?? 0 } : {}),
    ...(attempt !== undefined ? { attempt } : {}),
  };
  extras.set(req, thinkingBudget === undefined ? {} : { thinkingBudget });
  return req;
}

/** What renderGeminiAnswer needs of the shared answer (llm-server-dialects.ts FakeAnswer). */
export interface GeminiAnswerInput {
  content: string;
  toolCalls: { id: string; name: string; arguments: unknown }[];
  logprobTokens?: { token: string; logprob: number; top: { token: string; logprob: number }[] }[];
  usage: FakeUsage;
  served: { model: string; fingerprint: string };
}

/** The response fields Gemini's REST API sends (the SDK class adds only getters and `sdkHttpResponse`). */
export type GeminiWireResponse = Required<Pick<GenerateContentResponse, 'candidates' | 'usageMetadata' | 'modelVersion' | 'responseId'>>;

/**
 * Thinking tokens a thinking model reports: real ones vary per prompt, the fake's are deterministic
 * (twice the answer, plus 16) and within the requested budget; none with a budget of 0.
 */
export function thoughtsFor(req: FakeRequest, completionTokens: number): number {
  if (!geminiProfile(req.model).thinks) return 0;
  const budget = geminiExtras(req).thinkingBudget ?? -1;
  if (budget === 0) return 0;
  const wanted = 2 * completionTokens + 16;
  return budget > 0 ? Math.min(budget, wanted) : wanted;
}

export function renderGeminiAnswer(req: FakeRequest, answer: GeminiAnswerInput, seq: number): GeminiWireResponse {
  const parts: Part[] = [
    ...(answer.content !== '' || !answer.toolCalls.length ? [{ text: answer.content }] : []),
    // Gemini 2.x sends no call id (FunctionCall.id is "populated" only by some models): results go back by name.
    ...answer.toolCalls.map((c) => ({ functionCall: { name: c.name, args: isRecord(c.arguments) ? c.arguments : {} } })),
  ];
  const candidate: Candidate = { content: { role: 'model', parts }, finishReason: FinishReason.STOP, index: 0 };
  if (answer.logprobTokens && req.topLogprobs !== undefined) {
    const k = req.topLogprobs;
    candidate.logprobsResult = {
      chosenCandidates: answer.logprobTokens.map((t) => ({ token: t.token, logProbability: t.logprob })),
      // Only with `logprobs: k` set (k > 0) do the alternatives come back.
      ...(k > 0 ? { topCandidates: answer.logprobTokens.map((t) => ({ candidates: t.top.slice(0, k).map((x) => ({ token: x.token, logProbability: x.logprob })) })) } : {}),
      logProbabilitySum: answer.logprobTokens.reduce((s, t) => s + t.logprob, 0),
    };
    candidate.avgLogprobs = answer.logprobTokens.length ? candidate.logprobsResult.logProbabilitySum! / answer.logprobTokens.length : 0;
  }
  const { promptTokens, completionTokens } = answer.usage;
  // Classes a rule gave (thoughts, cached content) are reported as given (llm-server-usage.ts); else the model's own thinking.
  const given = answer.usage.reasoningTokens !== undefined || answer.usage.cachedInputTokens !== undefined;
  const thoughts = given ? 0 : thoughtsFor(req, completionTokens);
  return {
    candidates: [candidate],
    usageMetadata: given
      ? geminiUsageMetadata(answer.usage)
      : {
          promptTokenCount: promptTokens,
          candidatesTokenCount: completionTokens,
          ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
          totalTokenCount: promptTokens + completionTokens + thoughts,
        },
    modelVersion: answer.served.model,
    responseId: `fake-gemini-${seq}`,
  };
}

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** A delay in seconds ("0.05", "30") as a protobuf Duration string ("0.05s", "30s"). */
export const durationOf = (seconds: string | number): string => `${Number(seconds)}s`;

export interface GeminiErrorExtras {
  /** Seconds to wait, sent as RetryInfo.retryDelay on a 429. */
  retryDelaySeconds?: string | number;
  /** An ErrorInfo reason, e.g. API_KEY_INVALID. */
  reason?: string;
}

export function renderGeminiError(status: number, message: string, extra: GeminiErrorExtras = {}): Json {
  const details: Json[] = [];
  if (extra.reason) {
    details.push({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: extra.reason, domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } });
  }
  if (status === 429) {
    details.push({
      '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
      violations: [
        {
          quotaMetric: 'generativelanguage.googleapis.com/generate_content_paid_tier_input_token_count',
          quotaId: 'GenerateContentPaidTierInputTokensPerModelPerMinute',
          quotaDimensions: { location: 'global', model: 'fake' },
          quotaValue: '4000000',
        },
      ],
    });
    if (extra.retryDelaySeconds !== undefined) details.push({ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: durationOf(extra.retryDelaySeconds) });
  }
  return { error: { code: status, message, status: STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION'), ...(details.length ? { details } : {}) } };
}
