import { beforeAll, describe, expect, it } from 'vitest';
import { durationMs, readGeminiErrorBody } from './gemini-error-body';
import { ApiError } from '@google/genai';
import { classifyGeminiError, geminiSdk } from './google';
import type { ProviderError } from './types';

// A 429 as Google sends it (shape of the Gemini API "Troubleshooting" page; details as quoted in
// googleapis/python-genai issue 2044 and browserbase/mcp-server-browserbase issue 129).
const LIMITED = JSON.stringify({
  error: {
    code: 429,
    message: 'You exceeded your current quota, please check your plan and billing details.\nPlease retry in 47.434392449s.',
    status: 'RESOURCE_EXHAUSTED',
    details: [
      { '@type': 'type.googleapis.com/google.rpc.Help', links: [{ description: 'Learn more about Gemini API quotas', url: 'https://ai.google.dev/gemini-api/docs/rate-limits' }] },
      {
        '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
        violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_paid_tier_input_token_count', quotaId: 'GenerateContentPaidTierInputTokensPerModelPerMinute', quotaDimensions: { location: 'global', model: 'gemini-2.0-flash' }, quotaValue: '4000000' }],
      },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '47s' },
    ],
  },
});

describe('reading a Gemini error body', () => {
  it("takes Google's message, status, quota ids and the RetryInfo delay", () => {
    expect(readGeminiErrorBody(LIMITED)).toEqual({
      message: 'You exceeded your current quota, please check your plan and billing details.\nPlease retry in 47.434392449s.',
      codes: ['RESOURCE_EXHAUSTED', 'GenerateContentPaidTierInputTokensPerModelPerMinute'],
      retryAfterMs: 47_000,
    });
  });

  it('reads protobuf durations with fractions, and nothing else', () => {
    expect(durationMs('30s')).toBe(30_000);
    expect(durationMs('1.5s')).toBe(1_500);
    expect(durationMs('45.837906927s')).toBe(45_838);
    for (const bad of ['30', '1m', '', null, 30]) expect(durationMs(bad)).toBeUndefined();
  });

  it('keeps a body that is not JSON (a proxy page) as its text, with no codes', () => {
    expect(readGeminiErrorBody('<html>502</html>')).toEqual({ message: '<html>502</html>', codes: [] });
    expect(readGeminiErrorBody('{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID"}]}}')).toEqual({
      message: 'API key not valid. Please pass a valid API key.',
      codes: ['INVALID_ARGUMENT', 'API_KEY_INVALID'],
    });
  });
});

describe('a Gemini 429 classified by the adapter', () => {
  // The adapter imports the SDK on its first call; these errors are made here, without one.
  beforeAll(async () => {
    await geminiSdk();
  });
  const apiError = (body: string) => new ApiError({ status: 429, message: body });
  it('a per-minute quota is a rate limit, waited out for its RetryInfo delay', () => {
    const e = classifyGeminiError(apiError(LIMITED), 'google', []) as ProviderError;
    expect(e.kind).toBe('rate_limited');
    expect(e.retryAfterMs).toBe(47_000);
  });

  it('a per-day quota is an exhausted quota: not retried within the run (it resets at midnight Pacific time)', () => {
    const daily = LIMITED.replace('GenerateContentPaidTierInputTokensPerModelPerMinute', 'GenerateRequestsPerDayPerProjectPerModel-FreeTier');
    const e = classifyGeminiError(apiError(daily), 'google', []) as ProviderError;
    expect(e.kind).toBe('quota');
    expect(e.retryable).toBe(false);
    expect(e.message).toMatch(/no credit or quota left/);
  });
});
