import { describe, expect, it } from 'vitest';
import { isReasoningFamily, modelTimeoutMs, PROVIDER_TIMEOUTS_MS, REASONING_TIMEOUT_MS } from './timeouts';

describe('modelTimeoutMs', () => {
  it('gives reasoning families ten minutes (the SDKs’ own default), directly or through OpenRouter', () => {
    expect(REASONING_TIMEOUT_MS).toBe(10 * 60_000);
    for (const m of ['o1', 'o3-mini', 'o4-mini-2025-04-16', 'gpt-5', 'gpt-5-nano', 'gpt-5.1', 'claude-sonnet-4-5-20250929', 'claude-opus-4-1', 'claude-3-7-sonnet-latest', 'gemini-2.5-pro', 'gemini-2.5-flash']) {
      expect(isReasoningFamily(m), m).toBe(true);
    }
    expect(modelTimeoutMs('openai', 'o3')).toBe(600_000);
    expect(modelTimeoutMs('openrouter', 'openai/gpt-5-mini')).toBe(600_000);
    expect(modelTimeoutMs('google', 'gemini-2.5-pro')).toBe(600_000);
  });

  it('keeps the provider’s bound for the others, and an operator’s override over both', () => {
    for (const m of ['gpt-4o-mini', 'gpt-4.1', 'claude-3-5-haiku-latest', 'gemini-2.0-flash', 'omni-moderation-latest', 'llama-3.1-8b-instant']) expect(isReasoningFamily(m), m).toBe(false);
    expect(modelTimeoutMs('openai', 'gpt-4o-mini')).toBe(PROVIDER_TIMEOUTS_MS.openai);
    expect(modelTimeoutMs('anthropic', 'claude-3-5-haiku-latest')).toBe(PROVIDER_TIMEOUTS_MS.anthropic);
    expect(modelTimeoutMs('openai', 'o3', { openai: 250 })).toBe(250);
    // A system under test's own name is not a provider family.
    expect(modelTimeoutMs('custom', 'o3-style-bot')).toBe(PROVIDER_TIMEOUTS_MS.custom);
  });
});
