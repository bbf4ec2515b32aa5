import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { CapabilityMemory, fitRequest, knownLimits, refusalOf, UnsupportedParameterError } from './capabilities';
import { OpenAiCompatibleClient, toOpenAiParams } from './openai-compatible';
import { ApiError } from '@google/genai';
import { classifyGeminiError, geminiSdk } from './google';
import type { ProviderError } from './types';

describe('refusalOf: a refused parameter read from the error as the provider sends it', () => {
  it('reads OpenAI’s max_tokens, temperature and logprobs refusals by param and code', () => {
    expect(
      refusalOf(400, { param: 'max_tokens', code: 'unsupported_parameter', message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead." }),
    ).toEqual({ param: 'max_tokens' });
    expect(
      refusalOf(400, { param: 'temperature', code: 'unsupported_value', message: "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported." }),
    ).toEqual({ param: 'temperature', only: 1 });
    expect(refusalOf(400, { param: 'logprobs', code: 'unsupported_parameter', message: "Unsupported parameter: 'logprobs' is not supported with this model." })).toEqual({ param: 'logprobs' });
  });

  it('reads a temperature refused outright (o3-mini) as no temperature at all', () => {
    expect(refusalOf(400, { param: 'temperature', code: 'unsupported_parameter', message: "Unsupported parameter: 'temperature' is not supported with this model." })).toEqual({
      param: 'temperature',
      only: null,
    });
  });

  it('reads refusals that name no param: OpenAI’s 403 on o-series logprobs, Groq’s and Gemini’s wording', () => {
    expect(refusalOf(403, { param: null, code: null, message: 'You are not allowed to request logprobs from this model' })).toEqual({ param: 'logprobs' });
    expect(refusalOf(400, { message: '`logprobs` is not supported with this model' })).toEqual({ param: 'logprobs' });
    expect(refusalOf(400, { message: 'Logprobs is not supported for the current model.' })).toEqual({ param: 'logprobs' });
    expect(refusalOf(400, { message: 'Logprobs is not enabled for models/gemini-2.5-flash' })).toEqual({ param: 'logprobs' });
  });

  it('leaves every other error alone: a bad key, another parameter, a server error', () => {
    expect(refusalOf(401, { message: 'Incorrect API key provided' })).toBeNull();
    expect(refusalOf(403, { message: 'Project does not have access to model o4-mini' })).toBeNull();
    expect(refusalOf(400, { param: 'top_p', code: 'unsupported_parameter', message: "Unsupported parameter: 'top_p' is not supported with this model." })).toBeNull();
    expect(refusalOf(500, { param: 'logprobs', code: 'unsupported_parameter', message: 'not supported' })).toBeNull();
  });
});

describe('the published table and a run’s memory', () => {
  it('knows OpenAI’s reasoning families and Groq, and nothing else', () => {
    expect(knownLimits('openai', 'o4-mini')).toEqual({ logprobs: 'refused', temperature: { only: 1 }, maxTokens: 'max_completion_tokens' });
    expect(knownLimits('openai', 'gpt-5-mini-2025-08-07').logprobs).toBe('refused');
    expect(knownLimits('groq', 'llama-3.3-70b-versatile')).toEqual({ logprobs: 'refused' });
    expect(knownLimits('google', 'gemini-2.5-flash')).toEqual({ logprobs: 'refused' });
    expect(knownLimits('google', 'gemini-2.0-flash')).toEqual({});
    expect(knownLimits('openai', 'gpt-4o-mini')).toEqual({});
    // the same name on another host is not OpenAI's model: learned there, never assumed
    expect(knownLimits('vllm', 'o4-mini')).toEqual({});
  });

  it('fits a judge’s first request: no log-probabilities, the only temperature accepted, and says so', () => {
    const fitted = fitRequest({ temperature: 0, topLogprobs: 5 }, knownLimits('openai', 'o4-mini'));
    expect(fitted.req).toEqual({ temperature: 1, topLogprobs: null });
    expect(fitted.adjustment).toEqual({ logprobsRefused: true, temperature: 1 });
    // a request the model accepts as asked is left as it is
    expect(fitRequest({ temperature: 1, topLogprobs: null }, knownLimits('openai', 'o4-mini')).adjustment).toEqual({ logprobsRefused: false });
  });

  it('learns a refusal once per model; the same refusal again is not news', () => {
    const memory = new CapabilityMemory();
    expect(memory.limits('openai:gpt-5.2')).toEqual({});
    expect(memory.learn('openai:gpt-5.2', { param: 'logprobs' })).toBe(true);
    expect(memory.learn('openai:gpt-5.2', { param: 'logprobs' })).toBe(false);
    expect(memory.learn('openai:gpt-5.2', { param: 'temperature', only: 1 })).toBe(true);
    expect(memory.limits('openai:gpt-5.2')).toEqual({ logprobs: 'refused', temperature: { only: 1 } });
    expect(memory.limits('openai:gpt-4o-mini')).toEqual({});
    // what the table knows is not learned again
    expect(memory.learn('openai:o4-mini', { param: 'logprobs' })).toBe(false);
  });
});

describe('OpenAI adapter against the fake’s reasoning profiles', () => {
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await startFakeLlm();
  });
  afterAll(() => fake.close());

  const client = (provider = 'openai') => new OpenAiCompatibleClient({ provider, baseURL: fake.url, apiKey: 'k' });
  const ask = { messages: [{ role: 'user' as const, content: 'hello' }] };

  it('keeps max_tokens for every other server and sends max_completion_tokens where OpenAI requires it', () => {
    expect(toOpenAiParams({ model: 'm', maxTokens: 10, ...ask })).toMatchObject({ max_tokens: 10 });
    expect(toOpenAiParams({ model: 'm', maxTokens: 10, ...ask }, 'max_completion_tokens')).toMatchObject({ max_completion_tokens: 10 });
    expect(toOpenAiParams({ model: 'm', maxTokens: 10, ...ask }, 'max_completion_tokens')).not.toHaveProperty('max_tokens');
  });

  it('sends a known reasoning model its cap as max_completion_tokens at once, and reads its reasoning tokens', async () => {
    fake.reset();
    const r = await client().chat({ model: 'o4-mini', maxTokens: 500, temperature: 1, ...ask });
    expect(fake.requests().map((q) => q.status)).toEqual([200]);
    expect(r.usage?.completionTokens).toBeGreaterThan(64); // the visible answer and the reasoning the fake billed with it
  });

  it('re-sends a model the table does not know with max_completion_tokens after its refusal, and only once per client', async () => {
    fake.reset();
    const c = client();
    await c.chat({ model: 'gpt-5.2', maxTokens: 500, ...ask });
    await c.chat({ model: 'gpt-5.2', maxTokens: 500, ...ask });
    expect(fake.requests().map((q) => [q.status, q.refused ?? null])).toEqual([
      [400, 'max_tokens'],
      [200, null],
      [200, null],
    ]);
  });

  it('turns a refused parameter into an UnsupportedParameterError naming it (never retried as it is)', async () => {
    fake.reset();
    const refused = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e);
    const logprobs = await refused(client().chat({ model: 'gpt-5.2', topLogprobs: 5, ...ask }));
    expect(logprobs).toBeInstanceOf(UnsupportedParameterError);
    expect((logprobs as UnsupportedParameterError).refusal).toEqual({ param: 'logprobs' });
    expect((logprobs as UnsupportedParameterError).kind).toBe('bad_request');
    const temperature = await refused(client().chat({ model: 'gpt-5.2', temperature: 0, ...ask }));
    expect((temperature as UnsupportedParameterError).refusal).toEqual({ param: 'temperature', only: 1 });
    const oSeries = await refused(client().chat({ model: 'o4-mini', topLogprobs: 5, ...ask }));
    expect((oSeries as UnsupportedParameterError).refusal).toEqual({ param: 'logprobs' });
    expect((oSeries as UnsupportedParameterError).status).toBe(403);
    const groq = await refused(client('groq').chat({ model: 'llama-3.3-70b-versatile', topLogprobs: 5, ...ask }));
    expect((groq as UnsupportedParameterError).refusal).toEqual({ param: 'logprobs' });
  });
});

describe('Gemini adapter', () => {
  // The adapter imports the SDK on its first call; these errors are made here, without one.
  beforeAll(async () => {
    await geminiSdk();
  });
  it('reads Gemini’s refusal of log-probabilities (400 INVALID_ARGUMENT) as a refused parameter, and other 400s as they were', () => {
    // The body as the Gemini API sends it (GoogleCloudPlatform/generative-ai#1536, mscraftsman/generative-ai#135); @google/genai puts it in ApiError.message.
    const body = (message: string) => JSON.stringify({ error: { code: 400, message, status: 'INVALID_ARGUMENT' } });
    const refused = classifyGeminiError(new ApiError({ status: 400, message: body('Logprobs is not supported for the current model.') }), 'google', []);
    expect(refused).toBeInstanceOf(UnsupportedParameterError);
    expect((refused as UnsupportedParameterError).refusal).toEqual({ param: 'logprobs' });
    const other = classifyGeminiError(new ApiError({ status: 400, message: body('* GenerateContentRequest.contents: contents is not specified') }), 'google', []);
    expect(other).not.toBeInstanceOf(UnsupportedParameterError);
    expect((other as ProviderError).kind).toBe('bad_request');
  });
});
