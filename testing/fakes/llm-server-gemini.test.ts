import type { GenerateContentResponse } from '@google/genai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GoogleClient } from '@/lib/server/providers/google';
import { resolveModel } from '@/lib/server/providers/resolve';
import { withRetry } from '@/lib/server/providers/retry';
import { isProviderError, type ProviderError } from '@/lib/server/providers/types';
import { startFakeLlm, type FakeLlm } from './llm-server';
import { renderGeminiAnswer, type GeminiWireResponse } from './llm-server-gemini';
import { GeminiResponseWire } from './llm-server-wire';

/** The runtime check of the response body the fake itself applies (llm-server-wire.ts). */
const ResponseSchema = GeminiResponseWire;

/** Google's error body (google.rpc.Status; Gemini API "Troubleshooting" page). */
const ErrorSchema = z.strictObject({
  error: z.strictObject({
    code: z.number().int(),
    message: z.string(),
    status: z.enum(['INVALID_ARGUMENT', 'FAILED_PRECONDITION', 'PERMISSION_DENIED', 'NOT_FOUND', 'RESOURCE_EXHAUSTED', 'INTERNAL', 'UNAVAILABLE', 'DEADLINE_EXCEEDED']),
    details: z.array(z.looseObject({ '@type': z.string().startsWith('type.googleapis.com/google.rpc.') })).optional(),
  }),
});

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm({ apiKeys: ['goog-key'] });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const post = (model: string, body: unknown, auth: { header?: string; query?: string } = { header: 'goog-key' }) =>
  fetch(`${fake.origin}/v1beta/models/${model}:generateContent${auth.query ? `?key=${auth.query}` : ''}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(auth.header ? { 'x-goog-api-key': auth.header } : {}) },
    body: JSON.stringify(body),
  });

const ask = (text: string, extra: Record<string, unknown> = {}) => ({ contents: [{ role: 'user', parts: [{ text }] }], ...extra });

describe('the fake speaks Gemini generateContent', () => {
  it('answers with a GenerateContentResponse the SDK types and the reference accept, key by header or ?key=', async () => {
    fake.setRules([{ lastUser: 'capital', reply: 'Paris.' }]);
    for (const auth of [{ header: 'goog-key' }, { query: 'goog-key' }]) {
      const res = await post('gemini-2.0-flash', ask('The capital of France?', { systemInstruction: { parts: [{ text: 'Be brief.' }] } }), auth);
      expect(res.status).toBe(200);
      const body = ResponseSchema.parse(await res.json());
      expect(body.candidates[0]!.content!.parts).toEqual([{ text: 'Paris.' }]);
      expect(body.candidates[0]!.finishReason).toBe('STOP');
      expect(body.modelVersion).toBe('gemini-2.0-flash');
      expect(body.usageMetadata.totalTokenCount).toBe(body.usageMetadata.promptTokenCount + body.usageMetadata.candidatesTokenCount);
    }
    expect(fake.requests().map((r) => [r.dialect, r.request.system])).toEqual([
      ['gemini', 'Be brief.'],
      ['gemini', 'Be brief.'],
    ]);
  });

  it('renders what the SDK types allow (compile-time) and the runtime check accepts', () => {
    const req = { dialect: 'gemini' as const, model: 'gemini-2.0-flash', system: '', messages: [{ role: 'user' as const, content: 'hi' }], tools: [], topLogprobs: 2 };
    const rendered = renderGeminiAnswer(req, {
      content: 'B',
      toolCalls: [{ id: 'c1', name: 'lookup', arguments: { q: 'x' } }],
      logprobTokens: [{ token: 'B', logprob: -0.1, top: [{ token: 'B', logprob: -0.1 }, { token: 'A', logprob: -2.4 }, { token: 'C', logprob: -5 }] }],
      usage: { promptTokens: 3, completionTokens: 1 },
      served: { model: 'gemini-2.0-flash-001', fingerprint: 'fp' },
    }, 7) satisfies GeminiWireResponse satisfies Partial<GenerateContentResponse>;
    const body = ResponseSchema.parse(JSON.parse(JSON.stringify(rendered)));
    expect(body.candidates[0]!.logprobsResult!.topCandidates![0]!.candidates.map((c) => c.token)).toEqual(['B', 'A']);
    expect(body.candidates[0]!.content!.parts[1]).toEqual({ functionCall: { name: 'lookup', args: { q: 'x' } } });
  });

  it('sends log-probabilities as chosenCandidates/topCandidates where the model accepts responseLogprobs', async () => {
    fake.setRules([{ lastUser: 'grade', judge: { labels: { A: 0.2, B: 0.8 } } }]);
    const res = await post('gemini-2.0-flash', ask('grade it', { generationConfig: { temperature: 0, responseLogprobs: true, logprobs: 2 } }));
    const body = ResponseSchema.parse(await res.json());
    const lp = body.candidates[0]!.logprobsResult!;
    expect(lp.topCandidates).toHaveLength(lp.chosenCandidates.length);
    // The label's position is the one with alternatives; its token may carry neighbours (`>B`), as a tokenizer glues them.
    // Every position carries the `logprobs` asked for; the unscripted ones lie below e^-20.
    const scripted = <C extends { logProbability: number }>(t: { candidates: C[] }) => t.candidates.filter((c) => c.logProbability > -20);
    expect(lp.topCandidates!.every((t) => t.candidates.length === 2)).toBe(true);
    const at = lp.topCandidates!.findIndex((t) => scripted(t).length > 1);
    expect(lp.chosenCandidates[at]!.token).toContain('B');
    expect(Math.exp(lp.chosenCandidates[at]!.logProbability)).toBeCloseTo(0.8, 6);
    expect(scripted(lp.topCandidates![at]!).map((c) => [c.token.replace(/[^AB]/g, ''), Math.round(Math.exp(c.logProbability) * 10) / 10])).toEqual([
      ['B', 0.8],
      ['A', 0.2],
    ]);
  });

  it('refuses responseLogprobs on the 2.5 family with 400 INVALID_ARGUMENT, and reports thinking tokens there', async () => {
    const refused = await post('gemini-2.5-flash', ask('x', { generationConfig: { responseLogprobs: true, logprobs: 5 } }));
    expect(refused.status).toBe(400);
    expect(ErrorSchema.parse(await refused.json()).error).toEqual({ code: 400, message: 'Logprobs is not enabled for models/gemini-2.5-flash', status: 'INVALID_ARGUMENT' });
    // answered as a capability refusal (llm-server-capabilities.ts), so the request log names what was refused
    expect(fake.requests().at(-1)).toMatchObject({ dialect: 'gemini', status: 400, refused: 'responseLogprobs' });

    const thinking = ResponseSchema.parse(await (await post('gemini-2.5-flash', ask('hello there'))).json());
    const u = thinking.usageMetadata;
    expect(u.thoughtsTokenCount).toBeGreaterThan(0);
    expect(u.totalTokenCount).toBe(u.promptTokenCount + u.candidatesTokenCount + u.thoughtsTokenCount!);
    const off = ResponseSchema.parse(await (await post('gemini-2.5-flash', ask('hello there', { generationConfig: { thinkingConfig: { thinkingBudget: 0 } } }))).json());
    expect(off.usageMetadata.thoughtsTokenCount).toBeUndefined();
    const pro = await post('gemini-2.5-pro', ask('x', { generationConfig: { thinkingConfig: { thinkingBudget: 0 } } }));
    expect(pro.status).toBe(400);
    expect(((await pro.json()) as { error: { message: string } }).error.message).toMatch(/only works in thinking mode/);
  });

  it('answers malformed requests with 400 INVALID_ARGUMENT naming the field', async () => {
    const cases: [unknown, RegExp][] = [
      [{ contents: [] }, /contents is not specified/],
      [{ contents: [{ role: 'assistant', parts: [{ text: 'x' }] }] }, /contents\[0\]\.role: Please use a valid role: user, model/],
      [{ contents: [{ role: 'user', parts: [{ text: 'a' }] }, { role: 'model', parts: [] }] }, /contents\[1\]\.parts: contents\.parts must not be empty/],
      [{ contents: [{ role: 'user', parts: [{ text: '' }] }] }, /contents\[0\]\.parts\[0\]\.data: required oneof field 'data'/],
      [ask('x', { generationConfig: { temperature: 3 } }), /generation_config\.temperature: must be a number in \[0, 2\]/],
      [ask('x', { tools: [{ functionDeclarations: [{ name: '1bad name' }] }] }), /tools\[0\]\.function_declarations\[0\]\.name: Invalid function name/],
    ];
    for (const [body, message] of cases) {
      const res = await post('gemini-2.0-flash', body);
      expect(res.status).toBe(400);
      const error = ErrorSchema.parse(await res.json()).error;
      expect(error.status).toBe('INVALID_ARGUMENT');
      expect(error.message).toMatch(message);
    }
  });

  it('answers a bad key with 400 API_KEY_INVALID, as Google does', async () => {
    const res = await post('gemini-2.0-flash', ask('x'), { header: 'wrong' });
    expect(res.status).toBe(400);
    const error = ErrorSchema.parse(await res.json()).error;
    expect(error.message).toBe('API key not valid. Please pass a valid API key.');
    expect(error.details).toEqual([expect.objectContaining({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' })]);
  });

  it('sends a 429 with QuotaFailure and RetryInfo in the body and no retry-after header; other statuses by name', async () => {
    fake.setFaults({ rateLimited: 1, retryAfter: '1.5' });
    const limited = await post('gemini-2.0-flash', ask('x'));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeNull();
    const error = ErrorSchema.parse(await limited.json()).error;
    expect(error.status).toBe('RESOURCE_EXHAUSTED');
    expect(error.details?.map((d) => d['@type'])).toEqual(['type.googleapis.com/google.rpc.QuotaFailure', 'type.googleapis.com/google.rpc.RetryInfo']);
    expect(error.details?.[1]).toMatchObject({ retryDelay: '1.5s' });
    fake.setFaults(null);

    for (const [status, name] of [
      [403, 'PERMISSION_DENIED'],
      [500, 'INTERNAL'],
      [503, 'UNAVAILABLE'],
    ] as const) {
      fake.setRules([{ error: { status, message: `scripted ${status}` } }]);
      const res = await post('gemini-2.0-flash', ask('x'));
      expect(res.status).toBe(status);
      expect(ErrorSchema.parse(await res.json()).error).toEqual({ code: status, message: `scripted ${status}`, status: name });
    }
  });
});

describe('the GoogleClient against the fake, over HTTP', () => {
  const client = () => new GoogleClient({ apiKey: 'goog-key', baseURL: fake.origin });

  it('reads replies, tool calls, log-probabilities and served model', async () => {
    fake.setRules([
      { lastUser: 'weather', toolCalls: [{ name: 'weather', arguments: { city: 'Oslo' } }] },
      { lastUser: 'grade', judge: { labels: { A: 0.3, B: 0.7 } } },
    ]);
    const called = await client().chat({
      model: 'gemini-2.0-flash',
      tools: [{ type: 'function', function: { name: 'weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
      messages: [{ role: 'user', content: 'weather in Oslo?' }],
    });
    expect(called.toolCalls).toEqual([{ name: 'weather', arguments: { city: 'Oslo' } }]);
    const judged = await client().chat({ model: 'gemini-2.0-flash', temperature: 0, topLogprobs: 5, messages: [{ role: 'system', content: 'judge' }, { role: 'user', content: 'grade' }] });
    expect(judged.content).toContain('<answer>B</answer>');
    const label = judged.logprobs!.find((t) => t.top.filter((a) => a.logprob > -20).length > 1)!;
    expect(label.top.filter((a) => a.logprob > -20).map((t) => t.token.replace(/[^AB]/g, ''))).toEqual(['B', 'A']);
    expect(judged.served.model).toBe('gemini-2.0-flash');
    expect(fake.requests().at(-1)!.request).toMatchObject({ dialect: 'gemini', system: 'judge', temperature: 0, topLogprobs: 5 });
  });

  it('carries on a conversation after an empty reply (Gemini refuses a turn without parts)', async () => {
    fake.setRules([{ lastUser: 'again', reply: 'second answer' }]);
    const res = await client().chat({
      model: 'gemini-2.0-flash',
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: '' },
        { role: 'user', content: 'again' },
      ],
    });
    expect(res.content).toBe('second answer');
  });

  it("waits the 429's RetryInfo delay: ProviderError.retryAfterMs, honoured by withRetry", async () => {
    fake.setRules([{ error: { status: 429, message: 'Resource has been exhausted (e.g. check quota).', headers: { 'retry-after': '1.5' } }, times: 1 }, { reply: 'after the wait' }]);
    const waits: number[] = [];
    const errors: ProviderError[] = [];
    const res = await withRetry(() => client().chat({ model: 'gemini-2.0-flash', messages: [{ role: 'user', content: 'x' }] }), {
      sleep: async (ms) => void waits.push(ms),
      onRetry: ({ error }) => void errors.push(error),
      random: () => 0,
    });
    expect(res.content).toBe('after the wait');
    expect(waits).toEqual([1500]);
    expect(errors[0]).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 1500 });
    expect(errors[0]!.message).toContain('Resource has been exhausted');
  });

  it('reports the 400 a 2.5 model gives to log-probabilities as a bad request with Google\'s message', async () => {
    const e = await client()
      .chat({ model: 'gemini-2.5-flash', topLogprobs: 5, messages: [{ role: 'user', content: 'x' }] })
      .catch((err: unknown) => err);
    expect(isProviderError(e) && e.kind).toBe('bad_request');
    expect((e as Error).message).toContain('Logprobs is not enabled for models/gemini-2.5-flash');
  });

  it('sends google: models to ASSAY_LLM_BASE_URL when it is set, no key needed', async () => {
    const open = await startFakeLlm({ rules: [{ reply: 'from the gemini dialect' }] });
    try {
      const { client: c, model } = resolveModel('google:gemini-2.5-flash', { keys: {}, baseUrlOverride: open.url });
      expect((await c.chat({ model, messages: [{ role: 'user', content: 'ping' }] })).content).toBe('from the gemini dialect');
      expect(open.requests().map((r) => [r.dialect, r.path])).toEqual([['gemini', '/v1beta/models/gemini-2.5-flash:generateContent']]);
    } finally {
      await open.close();
    }
  });
});
