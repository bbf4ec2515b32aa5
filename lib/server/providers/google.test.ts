import { ApiError } from '@google/genai';
import { beforeAll, describe, expect, it } from 'vitest';
import { classifyGeminiError, fromGeminiResponse, geminiSdk, GoogleClient, toGeminiParams } from './google';

const ctx = { provider: 'google', model: 'gemini-2.0-flash', latencyMs: 3 };

describe('Gemini request mapping', () => {
  it('moves system prompts to systemInstruction, maps roles, tools, limits and logprobs', () => {
    const params = toGeminiParams({
      model: 'gemini-2.0-flash',
      temperature: 0,
      maxTokens: 50,
      topLogprobs: 5,
      attempt: 2,
      tools: [{ type: 'function', function: { name: 'lookup', description: 'Look up', parameters: { type: 'object' } } }],
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello.' },
        { role: 'user', content: 'Bye' },
      ],
    });
    expect(params).toEqual({
      model: 'gemini-2.0-flash',
      contents: [
        { role: 'user', parts: [{ text: 'Hi' }] },
        { role: 'model', parts: [{ text: 'Hello.' }] },
        { role: 'user', parts: [{ text: 'Bye' }] },
      ],
      config: {
        systemInstruction: 'Be brief.',
        temperature: 0,
        maxOutputTokens: 50,
        tools: [{ functionDeclarations: [{ name: 'lookup', description: 'Look up', parametersJsonSchema: { type: 'object' } }] }],
        responseLogprobs: true,
        logprobs: 5,
        httpOptions: { headers: { 'x-assay-attempt': '2' } },
      },
    });
  });

  it('sends tool calls as functionCall parts and results as functionResponse parts named after their call', () => {
    const params = toGeminiParams({
      model: 'm',
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'weather', arguments: '{"city":"Oslo"}' }] },
        { role: 'tool', toolCallId: 'c1', content: '{"temp":3}' },
        { role: 'tool', toolCallId: 'c9', content: 'plain text' },
      ],
    });
    expect(params.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather?' }] },
      { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'weather', args: { city: 'Oslo' } } }] },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'c1', name: 'weather', response: { temp: 3 } } },
          { functionResponse: { id: 'c9', name: 'tool', response: { output: 'plain text' } } },
        ],
      },
    ]);
  });

  it('passes the abort signal and timeout to the SDK', () => {
    const signal = new AbortController().signal;
    const params = toGeminiParams({ model: 'm', messages: [{ role: 'user', content: 'x' }] }, { signal, timeoutMs: 1000 });
    expect(params.config).toMatchObject({ abortSignal: signal, httpOptions: { timeout: 1000 } });
  });
});

describe('Gemini response mapping', () => {
  it('reads text (not thoughts), function calls, usage, cost and per-token logprobs', () => {
    const res = fromGeminiResponse(
      {
        candidates: [
          {
            content: { role: 'model', parts: [{ text: 'thinking…', thought: true }, { text: 'B' }, { functionCall: { id: 'f1', name: 'go', args: { x: 1 } } }] },
            finishReason: 'STOP' as never,
            logprobsResult: {
              chosenCandidates: [{ token: 'B', logProbability: Math.log(0.6) }],
              topCandidates: [{ candidates: [{ token: 'B', logProbability: Math.log(0.6) }, { token: 'A', logProbability: Math.log(0.4) }] }],
            },
          },
        ],
        usageMetadata: { promptTokenCount: 1_000_000, candidatesTokenCount: 1_000_000 },
      },
      ctx,
    );
    expect(res).toMatchObject({
      content: 'B',
      toolCalls: [{ id: 'f1', name: 'go', arguments: { x: 1 } }],
      finishReason: 'STOP',
      usage: { promptTokens: 1_000_000, completionTokens: 1_000_000 },
      latencyMs: 3,
    });
    expect(res.costUsd).toBeCloseTo(0.5);
    expect(res.logprobs).toEqual([
      {
        token: 'B',
        logprob: Math.log(0.6),
        top: [
          { token: 'B', logprob: Math.log(0.6) },
          { token: 'A', logprob: Math.log(0.4) },
        ],
      },
    ]);
  });

  it('gives null logprobs when the model returned none, and calls an empty or blocked reply malformed', () => {
    expect(fromGeminiResponse({ candidates: [{ content: { parts: [{ text: 'x' }] } }] }, ctx).logprobs).toBeNull();
    expect(() => fromGeminiResponse({ candidates: [] }, ctx)).toThrow(expect.objectContaining({ kind: 'malformed' }));
    expect(() => fromGeminiResponse({ promptFeedback: { blockReason: 'SAFETY' as never } }, ctx)).toThrow(/blocked \(SAFETY\)/);
  });

  it('records the served snapshot (modelVersion), the response id and only allow-listed headers', () => {
    const res = fromGeminiResponse(
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] } }],
        modelVersion: 'gemini-2.0-flash-001',
        responseId: 'resp-123',
        sdkHttpResponse: { headers: { 'x-request-id': 'r-9', 'set-cookie': 'NID=secret', 'x-goog-api-key': 'AIza-secret' } } as never,
      },
      ctx,
    );
    expect(res.served).toEqual({ model: 'gemini-2.0-flash-001', fingerprint: null, meta: { headers: { 'x-request-id': 'r-9' }, responseId: 'resp-123' } });
    expect(fromGeminiResponse({ candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] } }] }, ctx).served).toEqual({
      model: null,
      fingerprint: null,
      meta: { headers: {}, responseId: null },
    });
  });
});

describe('Gemini errors and client', () => {
  // The adapter imports the SDK on its first call; these errors are made here, without one.
  beforeAll(async () => {
    await geminiSdk();
  });
  it('classifies by status, redacting the key', () => {
    const key = 'AIzaSyTOTALLYSECRET123';
    expect(classifyGeminiError(new ApiError({ status: 429, message: 'quota' }), 'google', [key])).toMatchObject({ kind: 'rate_limited', status: 429 });
    expect(classifyGeminiError(new ApiError({ status: 503, message: 'busy' }), 'google', [key])).toMatchObject({ kind: 'retryable' });
    const auth = classifyGeminiError(new ApiError({ status: 400, message: `API key not valid: ${key}` }), 'google', [key]) as Error;
    expect(auth).toMatchObject({ kind: 'bad_request' });
    expect(auth.message).not.toContain(key);
    expect(classifyGeminiError(new TypeError('fetch failed'), 'google', [key])).toMatchObject({ kind: 'retryable' });
  });

  it('constructs without touching the network, and keeps the key out of its serialised form', () => {
    const client = new GoogleClient({ apiKey: 'AIzaSyTOTALLYSECRET123' });
    expect(client.provider).toBe('google');
    expect(JSON.stringify(client)).not.toContain('AIzaSy');
  });
});
