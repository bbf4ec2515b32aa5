/**
 * The bodies the fake answers chat calls with, as the providers publish them, checked at run time
 * before each one is sent: a body that is not what the provider's SDK types describe is a bug in
 * the fake, and it answers 500 saying so, so no test passes against a shape no provider sends.
 *
 * Each schema is strict (an unknown field fails) and is tied to its SDK's type at compile time:
 * whatever it accepts must be assignable to that type (`Agrees` below), so the runtime check and
 * the SDK's published definition cannot drift apart silently.
 * - OpenAI: openai-node `ChatCompletion` (resources/chat/completions), generated from OpenAI's
 *   OpenAPI description; OpenRouter adds `usage.cost` (OpenRouter API reference, usage accounting).
 * - Anthropic: @anthropic-ai/sdk `Message` (resources/messages), which lists `container`,
 *   `diagnostics`, `stop_details` and a tool call's `caller` as always present.
 * - Gemini: the Gemini API reference (models.generateContent, "Response body":
 *   GenerateContentResponse, Candidate, LogprobsResult, UsageMetadata) and @google/genai's types.
 */
import type { Message } from '@anthropic-ai/sdk/resources/messages';
import { FinishReason, HarmCategory, HarmProbability, type GenerateContentResponse } from '@google/genai';
import type { ChatCompletion } from 'openai/resources/chat/completions';
import { z } from 'zod';

const int = z.number().int().min(0);

const OpenAiTopLogprob = z.strictObject({ token: z.string(), logprob: z.number(), bytes: z.array(z.number().int().min(0).max(255)).nullable() });
const OpenAiTokenLogprob = OpenAiTopLogprob.extend({ top_logprobs: z.array(OpenAiTopLogprob).max(20) });

export const ChatCompletionWire = z.strictObject({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: int,
  model: z.string(),
  system_fingerprint: z.string().optional(),
  service_tier: z.enum(['auto', 'default', 'flex', 'scale', 'priority']).nullable().optional(),
  choices: z
    .array(
      z.strictObject({
        index: int,
        message: z.strictObject({
          role: z.literal('assistant'),
          content: z.string().nullable(),
          refusal: z.string().nullable(),
          annotations: z.array(z.strictObject({ type: z.literal('url_citation'), url_citation: z.strictObject({ end_index: int, start_index: int, title: z.string(), url: z.string() }) })).optional(),
          tool_calls: z.array(z.strictObject({ id: z.string(), type: z.literal('function'), function: z.strictObject({ name: z.string(), arguments: z.string() }) })).optional(),
        }),
        logprobs: z.strictObject({ content: z.array(OpenAiTokenLogprob).nullable(), refusal: z.array(OpenAiTokenLogprob).nullable() }).nullable(),
        finish_reason: z.enum(['stop', 'length', 'tool_calls', 'content_filter', 'function_call']),
      }),
    )
    .min(1),
  usage: z
    .strictObject({
      prompt_tokens: int,
      completion_tokens: int,
      total_tokens: int,
      prompt_tokens_details: z.strictObject({ cached_tokens: int.optional(), audio_tokens: int.optional() }).optional(),
      completion_tokens_details: z
        .strictObject({ reasoning_tokens: int.optional(), audio_tokens: int.optional(), accepted_prediction_tokens: int.optional(), rejected_prediction_tokens: int.optional() })
        .optional(),
      cost: z.number().min(0).optional(),
    })
    .optional(),
});

export const AnthropicMessageWire = z.strictObject({
  id: z.string(),
  type: z.literal('message'),
  role: z.literal('assistant'),
  model: z.string(),
  content: z.array(
    z.discriminatedUnion('type', [
      z.strictObject({ type: z.literal('text'), text: z.string(), citations: z.null() }),
      z.strictObject({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown(), caller: z.strictObject({ type: z.literal('direct') }) }),
    ]),
  ),
  container: z.null(),
  diagnostics: z.null(),
  stop_reason: z.enum(['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'pause_turn', 'refusal', 'model_context_window_exceeded']).nullable(),
  stop_sequence: z.string().nullable(),
  stop_details: z
    .strictObject({
      type: z.literal('refusal'),
      category: z.enum(['cyber', 'bio']).nullable(),
      explanation: z.string().nullable(),
    })
    .nullable(),
  usage: z.strictObject({
    input_tokens: int,
    output_tokens: int,
    cache_creation_input_tokens: int.nullable(),
    cache_read_input_tokens: int.nullable(),
    cache_creation: z.strictObject({ ephemeral_5m_input_tokens: int, ephemeral_1h_input_tokens: int }).nullable(),
    output_tokens_details: z.strictObject({ thinking_tokens: int }).nullable(),
    server_tool_use: z.null(),
    service_tier: z.enum(['standard', 'priority', 'batch']).nullable(),
    inference_geo: z.string().nullable(),
    speed: z.enum(['standard', 'fast']).nullable(),
  }),
});

const GeminiLogprobCandidate = z.strictObject({ token: z.string(), logProbability: z.number(), tokenId: z.number().int().optional() });
const GeminiPart = z.union([
  z.strictObject({ text: z.string(), thought: z.boolean().optional() }),
  z.strictObject({ functionCall: z.strictObject({ id: z.string().optional(), name: z.string().min(1), args: z.record(z.string(), z.unknown()) }) }),
]);

export const GeminiResponseWire = z.strictObject({
  candidates: z
    .array(
      z.strictObject({
        // A candidate stopped for safety carries no content, only the ratings that blocked it.
        content: z.strictObject({ role: z.literal('model'), parts: z.array(GeminiPart).min(1) }).optional(),
        finishReason: z.enum(FinishReason).exclude([FinishReason.FINISH_REASON_UNSPECIFIED]),
        index: z.number().int(),
        safetyRatings: z.array(z.strictObject({ category: z.enum(HarmCategory), probability: z.enum(HarmProbability), blocked: z.boolean().optional() })).optional(),
        avgLogprobs: z.number().optional(),
        logprobsResult: z
          .strictObject({
            chosenCandidates: z.array(GeminiLogprobCandidate),
            topCandidates: z.array(z.strictObject({ candidates: z.array(GeminiLogprobCandidate) })).optional(),
            logProbabilitySum: z.number().optional(),
          })
          .optional(),
      }),
    )
    .min(1),
  usageMetadata: z.strictObject({
    promptTokenCount: int,
    candidatesTokenCount: int,
    cachedContentTokenCount: int.optional(),
    thoughtsTokenCount: int.optional(),
    totalTokenCount: int,
  }),
  modelVersion: z.string(),
  responseId: z.string(),
});

/** True only when every body the schema accepts is assignable to the SDK's type. */
type Agrees<Schema extends z.ZodType, Sdk> = z.output<Schema> extends Sdk ? true : never;
const openAiAgrees: Agrees<typeof ChatCompletionWire, ChatCompletion> = true;
const anthropicAgrees: Agrees<typeof AnthropicMessageWire, Message> = true;
// The SDK's response is a class with getters (`text`, `functionCalls`): its data fields are the wire.
const geminiAgrees: Agrees<typeof GeminiResponseWire, Pick<GenerateContentResponse, 'candidates' | 'usageMetadata' | 'modelVersion' | 'responseId'>> = true;
void [openAiAgrees, anthropicAgrees, geminiAgrees];

const WIRE: Partial<Record<string, z.ZodType>> = { openai: ChatCompletionWire, anthropic: AnthropicMessageWire, gemini: GeminiResponseWire };

/** Why a chat answer of `dialect` is not what its provider sends, or null when it is (or the dialect is the fake's own). */
export function wireViolation(dialect: string, body: unknown): string | null {
  const schema = WIRE[dialect];
  if (!schema) return null;
  const parsed = schema.safeParse(body);
  return parsed.success ? null : z.prettifyError(parsed.error);
}
