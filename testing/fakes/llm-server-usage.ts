/**
 * Token usage as the fake reports and bills it. A rule (or the fake's own count) gives the totals
 * and the separately billed classes as parts of them (as Assay's Usage does); each dialect then
 * reports them in its provider's documented fields, with the provider's own rule for which count
 * contains which:
 *  - OpenAI (openai-node resources/completions.d.ts `CompletionUsage`): `prompt_tokens` includes
 *    `prompt_tokens_details.cached_tokens`; `completion_tokens` includes
 *    `completion_tokens_details.reasoning_tokens` ("still counted in the total completion tokens
 *    for purposes of billing").
 *  - Anthropic (@anthropic-ai/sdk resources/messages/messages.d.ts `Usage`, `Message.usage`: "Total
 *    input tokens in a request is the summation of `input_tokens`, `cache_creation_input_tokens`,
 *    and `cache_read_input_tokens`"): cache reads and writes are outside `input_tokens`;
 *    `output_tokens` includes `output_tokens_details.thinking_tokens`.
 *  - Gemini (@google/genai `GenerateContentResponseUsageMetadata`: `totalTokenCount` is "the sum of
 *    prompt_token_count, candidates_token_count, tool_use_prompt_token_count, and
 *    thoughts_token_count"): `promptTokenCount` includes `cachedContentTokenCount`;
 *    `thoughtsTokenCount` is outside `candidatesTokenCount`.
 * Billing follows the providers' price pages: fresh input, cache reads and cache writes each at
 * their rate, visible and hidden output alike at the output rate.
 */
import type { Usage as AnthropicUsage } from '@anthropic-ai/sdk/resources/messages';
import type { CompletionUsage } from 'openai/resources/completions';
import { z } from 'zod';

export const FakeUsageSchema = z
  .object({
    /** Every input token, cached and cache-written ones included. */
    promptTokens: z.number().int().min(0),
    /** Every output token, hidden reasoning included. */
    completionTokens: z.number().int().min(0),
    /** Of promptTokens: read from the prompt cache. */
    cachedInputTokens: z.number().int().min(0).optional(),
    /** Of promptTokens: written to the prompt cache (Anthropic reports them; OpenAI and Gemini have no such count here). */
    cacheWriteTokens: z.number().int().min(0).optional(),
    /** Of completionTokens: hidden reasoning / thinking / thoughts (billed as output). */
    reasoningTokens: z.number().int().min(0).optional(),
  })
  .refine((u) => (u.cachedInputTokens ?? 0) + (u.cacheWriteTokens ?? 0) <= u.promptTokens, {
    message: 'cachedInputTokens + cacheWriteTokens are part of promptTokens, so cannot exceed it',
  })
  .refine((u) => (u.reasoningTokens ?? 0) <= u.completionTokens, { message: 'reasoningTokens are part of completionTokens, so cannot exceed it' });
export type FakeUsage = z.infer<typeof FakeUsageSchema>;

const parts = (u: FakeUsage) => ({ cached: u.cachedInputTokens ?? 0, written: u.cacheWriteTokens ?? 0, reasoning: u.reasoningTokens ?? 0 });

/** Chat Completions `usage` (optionally with OpenRouter's `cost`). */
export function openAiUsageBody(u: FakeUsage, costUsd?: number): CompletionUsage & { cost?: number } {
  const { cached, reasoning } = parts(u);
  return {
    prompt_tokens: u.promptTokens,
    completion_tokens: u.completionTokens,
    total_tokens: u.promptTokens + u.completionTokens,
    prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: reasoning, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    ...(costUsd !== undefined ? { cost: costUsd } : {}),
  };
}

/**
 * Messages API `usage`, every field the SDK's `Usage` marks as always present (null where the
 * request used no such feature); cache writes are the 5-minute kind, the only one Assay could cause.
 */
export function anthropicUsageBody(u: FakeUsage): AnthropicUsage {
  const { cached, written, reasoning } = parts(u);
  return {
    input_tokens: u.promptTokens - cached - written,
    cache_creation_input_tokens: written,
    cache_read_input_tokens: cached,
    cache_creation: { ephemeral_5m_input_tokens: written, ephemeral_1h_input_tokens: 0 },
    output_tokens: u.completionTokens,
    output_tokens_details: reasoning > 0 ? { thinking_tokens: reasoning } : null,
    server_tool_use: null,
    service_tier: 'standard',
    inference_geo: null,
    speed: null,
  };
}

/** generateContent `usageMetadata`. */
export function geminiUsageMetadata(u: FakeUsage) {
  const { cached, reasoning } = parts(u);
  return {
    promptTokenCount: u.promptTokens,
    candidatesTokenCount: u.completionTokens - reasoning,
    ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
    ...(reasoning > 0 ? { thoughtsTokenCount: reasoning } : {}),
    totalTokenCount: u.promptTokens + u.completionTokens,
  };
}

/** The fake's price list, USD per 1M tokens (every model alike). Unset cache rates charge the input rate. */
export interface FakePrice {
  input: number;
  output: number;
  cachedInput?: number;
  cacheWrite?: number;
}

/** What one call costs at `price`: each token class at its rate. */
export function billedUsd(u: FakeUsage, price: FakePrice): number {
  const { cached, written } = parts(u);
  const fresh = u.promptTokens - cached - written;
  return (fresh * price.input + cached * (price.cachedInput ?? price.input) + written * (price.cacheWrite ?? price.input) + u.completionTokens * price.output) / 1_000_000;
}
