/**
 * Per model family, what the provider documents its chat API accepts, and the error it sends
 * for what it refuses: the fake answers a parameter a real model refuses as that provider does
 * (status and body), so a client that sends it fails here as it would in production. Each
 * profile names its source. A model no profile matches accepts everything, as before.
 *
 * Gemini's chat dialect has its own profiles, beside the dialect (llm-server-gemini.ts,
 * GEMINI_CAPABILITY_PROFILES: `responseLogprobs` refused by the 2.5 family and later with 400
 * INVALID_ARGUMENT), spread into CAPABILITY_PROFILES below.
 */
import type { Dialect } from './llm-server-dialects';
import { GEMINI_CAPABILITY_PROFILES } from './llm-server-gemini';
import type { FakeRequest } from './llm-server-rules';

type Json = Record<string, unknown>;

/** An HTTP error as the provider sends it for one refused parameter. */
export interface CapabilityRefusal {
  status: number;
  /** The refused parameter, for the request log (`RecordedRequest.refused`). */
  param: string;
  body: Json;
}

export interface CapabilityProfile {
  /** Shown in test names and logs. */
  family: string;
  dialect: Dialect;
  /** The model id as the request names it (dated snapshots included). */
  model: RegExp;
  /** Where the provider says so (its docs, or its exact error bodies as users reported them). */
  source: string;
  /** The first parameter of this request the model refuses, as the provider answers it; null: accepted. `model`: as requested (Gemini's is in the path, not the body). */
  refuse(body: Json, model?: string): CapabilityRefusal | null;
  /** The temperature the model samples at when none is sent (its default, the only one it accepts). */
  defaultTemperature?: number;
  /** Hidden reasoning tokens a reply spends, counted in `completion_tokens` as OpenAI bills them. */
  reasoningTokens?: (completionTokens: number) => number;
}

/** OpenAI's error envelope (openai-node src/core/error.ts APIError reads `error.{message,type,param,code}`). */
const openAiError = (status: number, message: string, param: string | null, code: string | null, refused: string): CapabilityRefusal => ({
  status,
  param: refused,
  body: { error: { message, type: 'invalid_request_error', param, code } },
});

/** "Unsupported parameter" as OpenAI words it (max_tokens: langfuse/langfuse#5349, memochou1993/gpt-ai-assistant#361 on o3/o3-mini). */
const unsupportedParameter = (param: string, hint = ''): CapabilityRefusal =>
  openAiError(400, `Unsupported parameter: '${param}' is not supported with this model.${hint}`, param, 'unsupported_parameter', param);

/** A temperature other than the default (QwenLM/qwen-code#921 on gpt-5-mini, OpenHands/OpenHands#4131 on o1-mini, johny-b/llmcomp#69 on gpt-5.4). */
const temperatureOnlyDefault = (value: number): CapabilityRefusal =>
  openAiError(400, `Unsupported value: 'temperature' does not support ${value} with this model. Only the default (1) value is supported.`, 'temperature', 'unsupported_value', 'temperature');

const MAX_TOKENS_HINT = " Use 'max_completion_tokens' instead.";

/** The checks every OpenAI reasoning family shares; `logprobs` is refused differently per family. */
function reasoningRefusal(body: Json, logprobs: () => CapabilityRefusal): CapabilityRefusal | null {
  if (body.logprobs === true || body.top_logprobs !== undefined) return logprobs();
  if (typeof body.temperature === 'number' && body.temperature !== 1) return temperatureOnlyDefault(body.temperature);
  if (body.max_tokens !== undefined) return unsupportedParameter('max_tokens', MAX_TOKENS_HINT);
  return null;
}

/** Reasoning models bill hidden reasoning as output: a fixed share on top of the visible answer keeps tests exact. */
const reasoningTokens = (completionTokens: number): number => 64 + 2 * completionTokens;

export const CAPABILITY_PROFILES: readonly CapabilityProfile[] = [
  {
    family: 'OpenAI o-series (o1, o3, o3-mini, o4-mini)',
    dialect: 'openai',
    model: /^(o1|o1-mini|o1-pro|o3|o3-mini|o3-pro|o4-mini)(-\d{4}-\d{2}-\d{2})?$/,
    source:
      'OpenAI API reference, Chat Completions > Create (`max_tokens` "not compatible with o-series models"; `max_completion_tokens` includes reasoning tokens); ' +
      'OpenAI reasoning guide (no sampling parameters); logprobs refused with HTTP 403 "You are not allowed to request logprobs from this model" (confident-ai/deepeval#2184, o4-mini)',
    refuse: (body) => reasoningRefusal(body, () => openAiError(403, 'You are not allowed to request logprobs from this model', null, null, 'logprobs')),
    defaultTemperature: 1,
    reasoningTokens,
  },
  {
    family: 'OpenAI GPT-5 (gpt-5, gpt-5-mini, gpt-5-nano, gpt-5.x)',
    dialect: 'openai',
    model: /^gpt-5(\.\d+)?(-mini|-nano)?(-\d{4}-\d{2}-\d{2})?$/,
    source:
      'OpenAI GPT-5 model pages (reasoning models; usage.completion_tokens_details.reasoning_tokens); the exact errors as OpenAI sends them: ' +
      'sashabaranov/go-openai#1061 ("Unsupported parameter: \'logprobs\' is not supported with this model."), confident-ai/deepeval#2805 (gpt-5.1, gpt-5.2 expose no log-probabilities)',
    refuse: (body) => reasoningRefusal(body, () => unsupportedParameter('logprobs')),
    defaultTemperature: 1,
    reasoningTokens,
  },
  {
    family: 'Groq (every model on its OpenAI-compatible API)',
    dialect: 'openai',
    // Groq's model ids as its docs list them (llama-3.3-70b-versatile, openai/gpt-oss-20b, qwen/qwen3-32b…); the fake tells Groq apart by the model only.
    model: /^(llama-3\.[13]-\d+b-(versatile|instant)|openai\/gpt-oss-\d+b|qwen\/qwen3-32b|meta-llama\/llama-4-[a-z0-9-]+)$/,
    source:
      'Groq docs, OpenAI Compatibility > Currently Unsupported OpenAI Features: "`logprobs`, `logit_bias`, `top_logprobs`… will result in a 400 error"; ' +
      'the message as Groq words it: groq/groq-python#25 ("`logprobs` is not supported with this model"); its error body has `message` and `type` only, ' +
      "no `param` (Groq's 400s quoted in fanenr/chatbot#21, gptme/gptme#375)",
    refuse: (body) =>
      body.logprobs === true || body.top_logprobs !== undefined
        ? { status: 400, param: 'logprobs', body: { error: { message: '`logprobs` is not supported with this model', type: 'invalid_request_error' } } }
        : null,
  },
  ...GEMINI_CAPABILITY_PROFILES,
];

export function capabilityProfile(dialect: Dialect, model: string): CapabilityProfile | undefined {
  return CAPABILITY_PROFILES.find((p) => p.dialect === dialect && p.model.test(model));
}

/** The refusal the provider would send for this request, or null when its model accepts it. */
export function capabilityRefusal(dialect: Dialect, model: string, body: unknown): CapabilityRefusal | null {
  const profile = capabilityProfile(dialect, model);
  if (!profile || typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  return profile.refuse(body as Json, model);
}

/** The request as the model samples it: a model with a fixed temperature samples at it when none is sent. */
export function asSampled(dialect: Dialect, req: FakeRequest): FakeRequest {
  const t = capabilityProfile(dialect, req.model)?.defaultTemperature;
  return t === undefined || req.temperature !== undefined ? req : { ...req, temperature: t };
}

/** The reply's usage with the reasoning the model spent (part of the completion tokens, as OpenAI counts them). */
export function withReasoning<U extends { completionTokens: number }>(dialect: Dialect, model: string, usage: U): U & { reasoningTokens?: number } {
  const spend = capabilityProfile(dialect, model)?.reasoningTokens;
  if (!spend) return usage;
  const reasoning = spend(usage.completionTokens);
  return { ...usage, completionTokens: usage.completionTokens + reasoning, reasoningTokens: reasoning };
}
