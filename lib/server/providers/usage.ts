/**
 * Each provider's token counts read into one Usage. The providers split a call's tokens into
 * classes they bill at different rates, and they disagree on which counts contain which:
 *
 *   OpenAI (openai-node resources/completions.d.ts `CompletionUsage`):
 *     prompt_tokens      all input; `prompt_tokens_details.cached_tokens` ("cached tokens present
 *                        in the prompt") and `cache_write_tokens` are INSIDE it
 *     completion_tokens  all output; `completion_tokens_details.reasoning_tokens` is INSIDE it (the
 *                        same file: reasoning tokens "are still counted in the total completion
 *                        tokens for purposes of billing")
 *   Anthropic (@anthropic-ai/sdk resources/messages/messages.d.ts `Usage`, and `Message.usage`:
 *     "Total input tokens in a request is the summation of `input_tokens`,
 *     `cache_creation_input_tokens`, and `cache_read_input_tokens`"):
 *     input_tokens       only the input that was neither read from nor written to the cache
 *     cache_read_input_tokens, cache_creation_input_tokens   NOT inside input_tokens
 *     output_tokens      all output; `output_tokens_details.thinking_tokens` is INSIDE it ("Always ≤
 *                        `output_tokens`", "the inclusive, authoritative total used for billing")
 *   Gemini (@google/genai genai.d.ts `GenerateContentResponseUsageMetadata`: "totalTokenCount … is
 *     the sum of prompt_token_count, candidates_token_count, tool_use_prompt_token_count, and
 *     thoughts_token_count"):
 *     promptTokenCount   all prompt input; `cachedContentTokenCount` is INSIDE it ("When
 *                        cached_content is set, this also includes the number of tokens in the
 *                        cached content")
 *     toolUsePromptTokenCount   NOT inside promptTokenCount (a separate term of the total)
 *     candidatesTokenCount      the visible answer only; `thoughtsTokenCount` is NOT inside it, and
 *                        Google bills thoughts as output ("Output price (including thinking
 *                        tokens)", ai.google.dev/gemini-api/docs/pricing)
 *
 * Usage always holds totals (every input token in promptTokens, every output token — reasoning and
 * thoughts included — in completionTokens), with the separately billed classes as parts of them,
 * so a budget counting completion tokens counts what was paid for. A part is present only when the
 * provider reported it above zero.
 */
import type { Usage } from './types';

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);

function withParts(promptTokens: number, completionTokens: number, parts: { cached: number; cacheWrite: number; reasoning: number }): Usage {
  return {
    promptTokens,
    completionTokens,
    ...(parts.cached > 0 ? { cachedInputTokens: parts.cached } : {}),
    ...(parts.cacheWrite > 0 ? { cacheWriteTokens: parts.cacheWrite } : {}),
    ...(parts.reasoning > 0 ? { reasoningTokens: parts.reasoning } : {}),
  };
}

/** Chat Completions `usage` (OpenAI and every OpenAI-compatible server), or null when absent. */
export function openAiUsage(raw: unknown): Usage | null {
  if (!raw || typeof raw !== 'object') return null;
  const u = raw as {
    prompt_tokens?: unknown;
    completion_tokens?: unknown;
    prompt_tokens_details?: { cached_tokens?: unknown; cache_write_tokens?: unknown } | null;
    completion_tokens_details?: { reasoning_tokens?: unknown } | null;
  };
  if (typeof u.prompt_tokens !== 'number') return null;
  return withParts(count(u.prompt_tokens), count(u.completion_tokens), {
    cached: count(u.prompt_tokens_details?.cached_tokens),
    cacheWrite: count(u.prompt_tokens_details?.cache_write_tokens),
    reasoning: count(u.completion_tokens_details?.reasoning_tokens),
  });
}

/** Messages API `usage`: cache reads and writes are added to the input, since Anthropic counts them apart. */
export function anthropicUsage(raw: unknown): Usage | null {
  if (!raw || typeof raw !== 'object') return null;
  const u = raw as {
    input_tokens?: unknown;
    output_tokens?: unknown;
    cache_read_input_tokens?: unknown;
    cache_creation_input_tokens?: unknown;
    output_tokens_details?: { thinking_tokens?: unknown } | null;
  };
  if (typeof u.input_tokens !== 'number') return null;
  const cached = count(u.cache_read_input_tokens);
  const cacheWrite = count(u.cache_creation_input_tokens);
  return withParts(count(u.input_tokens) + cached + cacheWrite, count(u.output_tokens), {
    cached,
    cacheWrite,
    reasoning: count(u.output_tokens_details?.thinking_tokens),
  });
}

/** generateContent `usageMetadata`: thoughts are added to the output and tool-use prompts to the input, since Gemini counts them apart. */
export function geminiUsage(raw: unknown): Usage | null {
  if (!raw || typeof raw !== 'object') return null;
  const m = raw as {
    promptTokenCount?: unknown;
    candidatesTokenCount?: unknown;
    cachedContentTokenCount?: unknown;
    thoughtsTokenCount?: unknown;
    toolUsePromptTokenCount?: unknown;
  };
  if (typeof m.promptTokenCount !== 'number') return null;
  const thoughts = count(m.thoughtsTokenCount);
  return withParts(count(m.promptTokenCount) + count(m.toolUsePromptTokenCount), count(m.candidatesTokenCount) + thoughts, {
    cached: count(m.cachedContentTokenCount),
    cacheWrite: 0,
    reasoning: thoughts,
  });
}
