/**
 * Each provider's usage block, typed by its SDK (so the field names and nesting are the published
 * ones), read into totals with the separately billed classes as parts of them.
 */
import { describe, expect, it } from 'vitest';
import type { CompletionUsage } from 'openai/resources/completions';
import type { Usage as AnthropicUsage } from '@anthropic-ai/sdk/resources/messages/messages';
import type { GenerateContentResponseUsageMetadata } from '@google/genai';
import { anthropicUsage, geminiUsage, openAiUsage } from './usage';

describe('openAiUsage', () => {
  it('keeps prompt_tokens and completion_tokens as totals: cached and reasoning tokens are already inside them', () => {
    const usage = {
      prompt_tokens: 12_000,
      completion_tokens: 3_000,
      total_tokens: 15_000,
      prompt_tokens_details: { cached_tokens: 10_000, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 2_500, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    } satisfies CompletionUsage;
    expect(openAiUsage(usage)).toEqual({ promptTokens: 12_000, completionTokens: 3_000, cachedInputTokens: 10_000, reasoningTokens: 2_500 });
  });

  it('reads a bare usage (compatible servers send no details) and nothing when there is none', () => {
    expect(openAiUsage({ prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 } satisfies CompletionUsage)).toEqual({ promptTokens: 7, completionTokens: 2 });
    expect(openAiUsage(undefined)).toBeNull();
    expect(openAiUsage({ completion_tokens: 2 })).toBeNull();
  });
});

describe('anthropicUsage', () => {
  it('adds cache reads and writes to input_tokens, which counts neither; thinking stays inside output_tokens', () => {
    const usage = {
      input_tokens: 1_000,
      cache_read_input_tokens: 20_000,
      cache_creation_input_tokens: 4_000,
      cache_creation: { ephemeral_5m_input_tokens: 4_000, ephemeral_1h_input_tokens: 0 },
      output_tokens: 900,
      output_tokens_details: { thinking_tokens: 600 },
      inference_geo: null,
      server_tool_use: null,
      service_tier: 'standard',
      speed: null,
    } satisfies AnthropicUsage;
    expect(anthropicUsage(usage)).toEqual({ promptTokens: 25_000, completionTokens: 900, cachedInputTokens: 20_000, cacheWriteTokens: 4_000, reasoningTokens: 600 });
  });

  it('reads null cache counts (no caching) as none', () => {
    expect(anthropicUsage({ input_tokens: 10, output_tokens: 5, cache_read_input_tokens: null, cache_creation_input_tokens: null })).toEqual({ promptTokens: 10, completionTokens: 5 });
  });
});

describe('geminiUsage', () => {
  it('adds thoughts to the candidates (billed as output, counted apart) and tool-use prompts to the prompt; cached content is inside promptTokenCount', () => {
    const meta = {
      promptTokenCount: 11_500,
      cachedContentTokenCount: 10_000,
      toolUsePromptTokenCount: 500,
      candidatesTokenCount: 1_000,
      thoughtsTokenCount: 10_000,
      totalTokenCount: 23_000,
    } satisfies GenerateContentResponseUsageMetadata;
    expect(geminiUsage(meta)).toEqual({ promptTokens: 12_000, completionTokens: 11_000, cachedInputTokens: 10_000, reasoningTokens: 10_000 });
    // The SDK's own definition: the total is the sum of the four counts, so thoughts are not inside the candidates.
    expect(meta.promptTokenCount + meta.candidatesTokenCount + meta.toolUsePromptTokenCount + meta.thoughtsTokenCount).toBe(meta.totalTokenCount);
  });

  it('is null without a prompt count', () => {
    expect(geminiUsage({ candidatesTokenCount: 3 })).toBeNull();
    expect(geminiUsage(null)).toBeNull();
  });
});
