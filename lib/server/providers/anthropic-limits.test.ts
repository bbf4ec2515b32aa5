import { describe, expect, it } from 'vitest';
import { ANTHROPIC_FALLBACK_MAX_TOKENS, anthropicMaxTokens, NON_STREAMING_MAX_TOKENS } from './anthropic-limits';

describe('the max_tokens sent to Claude when a call names none', () => {
  it("is the model's published output limit, capped where the SDK stops a non-streaming request", () => {
    // Models overview, "Max output": Claude 3 4,096; Claude 3.5 8,192; Claude 3.7 and 4+ 32,000–64,000
    expect(anthropicMaxTokens('claude-3-haiku-20240307')).toBe(4_096);
    expect(anthropicMaxTokens('claude-3-opus-20240229')).toBe(4_096);
    expect(anthropicMaxTokens('claude-3-5-haiku-latest')).toBe(8_192);
    expect(anthropicMaxTokens('claude-3-5-sonnet-20241022')).toBe(8_192);
    for (const model of ['claude-3-7-sonnet-20250219', 'claude-sonnet-4-20250514', 'claude-opus-4-1', 'claude-haiku-4-5', 'claude-sonnet-4-5-20250929', 'claude-opus-4-5']) {
      expect(anthropicMaxTokens(model), model).toBe(NON_STREAMING_MAX_TOKENS);
    }
    // the SDK's expected time, 60 min × max_tokens / 128,000, reaches its 10-minute bound one token above the cap
    const expectedMs = (maxTokens: number) => (60 * 60 * 1000 * maxTokens) / 128_000;
    expect(expectedMs(NON_STREAMING_MAX_TOKENS)).toBeLessThanOrEqual(10 * 60 * 1000);
    expect(expectedMs(NON_STREAMING_MAX_TOKENS + 1)).toBeGreaterThan(10 * 60 * 1000);
  });

  it('is 4,096, what every Claude model accepts, for an id the table does not know', () => {
    expect(anthropicMaxTokens('my-proxy-alias')).toBe(ANTHROPIC_FALLBACK_MAX_TOKENS);
    expect(ANTHROPIC_FALLBACK_MAX_TOKENS).toBe(4_096);
  });
});
