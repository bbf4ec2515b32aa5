/**
 * Cost per token class. Every expected figure below is worked out by hand from the rates the
 * providers publish (the pages named in cost.ts), not from the table, so a wrong table entry fails.
 */
import { describe, expect, it } from 'vitest';
import { costIsKnown, costUsd, priceFor } from './cost';

describe('priceFor', () => {
  it('matches dated, snapshot, -latest and vendor-prefixed ids', () => {
    expect(priceFor('gpt-4o-mini-2024-07-18')).toMatchObject({ input: 0.15, output: 0.6 });
    expect(priceFor('gpt-4o-2024-08-06')).toMatchObject({ input: 2.5, output: 10 });
    expect(priceFor('gpt-5-2025-08-07')).toMatchObject({ input: 1.25, cachedInput: 0.125, output: 10 });
    expect(priceFor('openai/gpt-4o-mini')).toMatchObject({ input: 0.15, output: 0.6 });
    expect(priceFor('claude-3-5-haiku-latest')).toMatchObject({ input: 0.8, output: 4 });
    expect(priceFor('claude-sonnet-4-5-20250929')).toMatchObject({ input: 3, cacheWrite: 3.75, cachedInput: 0.3, output: 15 });
    expect(priceFor('claude-opus-4-0')).toMatchObject({ input: 15, output: 75 });
    expect(priceFor('claude-opus-4-1-20250805')).toMatchObject({ input: 15, output: 75 });
    expect(priceFor('gemini-2.0-flash-001')).toMatchObject({ input: 0.1, output: 0.4 });
  });

  it('prices a family member with its own price, never its base’s, and an unknown variant as unknown', () => {
    expect(priceFor('gpt-5-mini')).toMatchObject({ input: 0.25, output: 2 });
    expect(priceFor('gemini-2.5-flash-lite')).toMatchObject({ input: 0.1, output: 0.4 });
    expect(priceFor('o3-mini')).toMatchObject({ input: 1.1, output: 4.4 });
    // o3-pro and gpt-5-pro cost many times their base: better unknown than priced as o3 / gpt-5.
    expect(priceFor('o3-pro')).toBeNull();
    expect(priceFor('gpt-5-pro')).toBeNull();
    expect(priceFor('llama-3.1-8b-instant')).toBeNull();
  });
});

describe('costUsd', () => {
  it('prefers a reported cost, estimates from the table, and is null when unknown', () => {
    const usage = { promptTokens: 2_000, completionTokens: 1_000 };
    expect(costUsd('gpt-4o-mini', usage, 0.5)).toBe(0.5);
    // 2,000 × $0.15/M + 1,000 × $0.60/M
    expect(costUsd('gpt-4o-mini', usage)).toBeCloseTo(0.0003 + 0.0006, 12);
    expect(costUsd('gpt-4o-mini', null)).toBeNull();
    expect(costUsd('my-local-model', usage)).toBeNull();
  });

  it('OpenAI: cached input at the cached rate, reasoning (inside completion tokens) at the output rate', () => {
    // gpt-5: 100,000 prompt tokens of which 80,000 cached; 20,000 completion tokens of which 15,000 reasoning.
    // 20,000 × $1.25/M = $0.025; 80,000 × $0.125/M = $0.01; 20,000 × $10/M = $0.20.
    expect(costUsd('gpt-5', { promptTokens: 100_000, cachedInputTokens: 80_000, completionTokens: 20_000, reasoningTokens: 15_000 })).toBeCloseTo(0.235, 10);
  });

  it('Anthropic: cache reads at the hit rate, 5-minute cache writes at 1.25× input', () => {
    // claude-sonnet-4-5: 50,000 input in all = 5,000 fresh + 40,000 read + 5,000 written; 2,000 output.
    // 5,000 × $3/M = $0.015; 40,000 × $0.30/M = $0.012; 5,000 × $3.75/M = $0.01875; 2,000 × $15/M = $0.03.
    expect(costUsd('claude-sonnet-4-5', { promptTokens: 50_000, cachedInputTokens: 40_000, cacheWriteTokens: 5_000, completionTokens: 2_000 })).toBeCloseTo(0.07575, 10);
  });

  it('Gemini 2.5 Pro: thoughts at the output rate, and the dearer tier for prompts over 200k tokens', () => {
    // 10,000 prompt; 1,000 answer + 9,000 thoughts = 10,000 output: 10,000 × $1.25/M + 10,000 × $10/M.
    expect(costUsd('gemini-2.5-pro', { promptTokens: 10_000, completionTokens: 10_000, reasoningTokens: 9_000 })).toBeCloseTo(0.0125 + 0.1, 10);
    // 300,000 prompt (over 200k): $2.50/M in, $15/M out: 300,000 × 2.5 + 10,000 × 15 = $0.75 + $0.15.
    expect(costUsd('gemini-2.5-pro', { promptTokens: 300_000, completionTokens: 10_000 })).toBeCloseTo(0.9, 10);
    // Exactly 200,000 is still the lower tier.
    expect(costUsd('gemini-2.5-pro', { promptTokens: 200_000, completionTokens: 0 })).toBeCloseTo(0.25, 10);
  });
});

describe('costIsKnown', () => {
  it('knows a table price from its own provider, and OpenRouter’s reported cost; nothing else', () => {
    expect(costIsKnown('openai', 'gpt-5-mini')).toBe(true);
    expect(costIsKnown('google', 'gemini-2.5-flash')).toBe(true);
    expect(costIsKnown('openrouter', 'meta-llama/llama-3.3-70b-instruct')).toBe(true);
    expect(costIsKnown('openai', 'gpt-5-pro')).toBe(false);
    expect(costIsKnown('vllm', 'gpt-4o')).toBe(false);
    expect(costIsKnown('groq', 'llama-3.1-8b-instant')).toBe(false);
  });
});
