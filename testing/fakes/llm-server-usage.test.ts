/**
 * The fake's usage blocks are the providers' published shapes (each `satisfies` its SDK type), with
 * each provider's rule for which count contains which, and its ledger bills each class at its rate.
 */
import { describe, expect, it } from 'vitest';
import type { CompletionUsage } from 'openai/resources/completions';
import type { Usage as AnthropicUsage } from '@anthropic-ai/sdk/resources/messages/messages';
import type { GenerateContentResponseUsageMetadata } from '@google/genai';
import { startFakeLlm } from './llm-server';
import { anthropicUsageBody, billedUsd, FakeUsageSchema, geminiUsageMetadata, openAiUsageBody } from './llm-server-usage';

const usage = { promptTokens: 1_000, cachedInputTokens: 600, cacheWriteTokens: 100, completionTokens: 500, reasoningTokens: 300 };

describe('the fake’s usage blocks', () => {
  it('OpenAI: cached tokens inside prompt_tokens, reasoning tokens inside completion_tokens', () => {
    const body = openAiUsageBody(usage, 0.25) satisfies CompletionUsage & { cost?: number };
    expect(body).toMatchObject({ prompt_tokens: 1_000, completion_tokens: 500, total_tokens: 1_500, cost: 0.25 });
    expect(body.prompt_tokens_details?.cached_tokens).toBe(600);
    expect(body.completion_tokens_details?.reasoning_tokens).toBe(300);
  });

  it('Anthropic: cache reads and writes outside input_tokens (the three sum to the input), thinking inside output_tokens', () => {
    const body = anthropicUsageBody(usage) satisfies AnthropicUsage;
    expect(body).toMatchObject({ input_tokens: 300, cache_read_input_tokens: 600, cache_creation_input_tokens: 100, output_tokens: 500, output_tokens_details: { thinking_tokens: 300 } });
    expect(body.cache_creation).toEqual({ ephemeral_5m_input_tokens: 100, ephemeral_1h_input_tokens: 0 });
    expect(body.input_tokens + body.cache_read_input_tokens! + body.cache_creation_input_tokens!).toBe(usage.promptTokens);
  });

  it('Gemini: cached content inside promptTokenCount, thoughts outside candidatesTokenCount, the total their sum', () => {
    const meta = geminiUsageMetadata(usage) satisfies GenerateContentResponseUsageMetadata;
    expect(meta).toEqual({ promptTokenCount: 1_000, cachedContentTokenCount: 600, candidatesTokenCount: 200, thoughtsTokenCount: 300, totalTokenCount: 1_500 });
  });

  it('refuses parts larger than their totals', () => {
    expect(FakeUsageSchema.safeParse({ promptTokens: 10, cachedInputTokens: 11, completionTokens: 0 }).success).toBe(false);
    expect(FakeUsageSchema.safeParse({ promptTokens: 10, completionTokens: 5, reasoningTokens: 6 }).success).toBe(false);
  });

  it('bills fresh input, cache reads, cache writes and all output (reasoning included) each at its rate', async () => {
    // 300 × $1 + 600 × $0.10 + 100 × $1.25 + 500 × $2, per 1M.
    expect(billedUsd(usage, { input: 1, output: 2, cachedInput: 0.1, cacheWrite: 1.25 })).toBeCloseTo((300 + 60 + 125 + 1_000) / 1e6, 15);
    const fake = await startFakeLlm({ rules: [{ reply: 'ok', usage }] });
    try {
      const res = await fetch(`${fake.url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
        body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(((await res.json()) as { usage: unknown }).usage).toMatchObject({ input_tokens: 300, cache_read_input_tokens: 600, cache_creation_input_tokens: 100 });
      expect(fake.billing().liveUsd).toBeCloseTo((300 + 60 + 125 + 1_000) / 1e6, 15);
    } finally {
      await fake.close();
    }
  });
});
