import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { isProviderError } from '../types';
import { OpenAiEmbeddingClient } from './openai-embeddings';
import { openAiEmbeddingLimits, planRequests } from './openai-limits';

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(() => fake?.close());
beforeEach(() => fake.reset());

/** `n` cl100k_base tokens: "go" and then " go" are one token each. */
const text = (n: number) => `go${' go'.repeat(n - 1)}`;
const limits = openAiEmbeddingLimits('openai', 'text-embedding-3-small')!;

const post = async (model: string, input: string[]) => {
  const res = await fetch(`${fake.url}/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model, input }) });
  return { status: res.status, body: (await res.json()) as { error?: { message: string; type: string; code: string | null } } };
};

describe("the fake enforces OpenAI's documented embedding limits on OpenAI's models", () => {
  it('refuses an empty string, an input over 8,192 tokens and a request over 300,000 tokens, in OpenAI’s error shape', async () => {
    expect(await limits.countTokens(text(8192))).toBe(8192);
    expect((await post('text-embedding-3-small', ['fine', ''])).body.error).toMatchObject({ type: 'invalid_request_error', message: "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference." });
    const long = await post('text-embedding-3-large', [text(8193)]);
    expect(long.status).toBe(400);
    expect(long.body.error?.message).toMatch(/^This model's maximum context length is 8192 tokens, however you requested 8193 tokens/);
    const many = await post('text-embedding-ada-002', Array.from({ length: 37 }, () => text(8192)));
    expect(many.status).toBe(400);
    expect(many.body.error).toEqual({ message: `Requested ${37 * 8192} tokens, max 300000 tokens per request`, type: 'max_tokens_per_request', param: null, code: 'max_tokens_per_request' });
    expect((await post('text-embedding-3-small', [text(8192)])).status).toBe(200);
  });

  it("holds no such limits for its own models (a self-hosted server's)", async () => {
    expect((await post('fake-embed-large', [text(9000)])).status).toBe(200);
  });
});

describe('the OpenAI embeddings adapter keeps within them', () => {
  const client = (model: string) => new OpenAiEmbeddingClient({ provider: 'openai', model, apiKey: 'k', baseURL: fake.url });

  it('splits a batch over 300,000 tokens into requests within it, vectors in input order', async () => {
    const inputs = Array.from({ length: 40 }, (_, i) => `${text(8000)} topic${i}`);
    const res = await client('text-embedding-3-small').embed({ model: 'text-embedding-3-small', inputs });
    expect(res.vectors).toHaveLength(40);
    expect(fake.stats().embeddings.calls).toBe(2);
    // the same vectors as each text embedded alone: nothing reordered across the requests
    const alone = await client('text-embedding-3-small').embed({ model: 'text-embedding-3-small', inputs: [inputs[39]!] });
    expect(res.vectors[39]).toEqual(alone.vectors[0]);
    expect(res.usage!.promptTokens).toBeGreaterThan(0);
  });

  it('refuses an empty input or one over 8,192 tokens before any request, naming which', async () => {
    for (const [inputs, message] of [
      [['a', ''], /input 2 of 2 is an empty string, which text-embedding-3-small refuses/],
      [['a', 'b', text(9000)], /input 3 of 3 has 9,000 tokens, over text-embedding-3-small's limit of 8,192 per input/],
    ] as const) {
      const e = await client('text-embedding-3-small').embed({ model: 'text-embedding-3-small', inputs: [...inputs] }).catch((err: unknown) => err);
      expect(isProviderError(e) && e.kind).toBe('bad_request');
      expect((e as Error).message).toMatch(message);
    }
    expect(fake.stats().embeddings.calls).toBe(0);
  });

  it('counts nothing when the bytes alone keep every limit, and sends models without published limits unchanged', async () => {
    let counted = 0;
    const spy = { ...limits, countTokens: (t: string) => (counted++, limits.countTokens(t)) };
    expect(await planRequests(spy, ['short', 'texts'])).toEqual({ ok: true, groups: [[0, 1]] });
    expect(counted).toBe(0);
    expect(await planRequests(spy, [text(8192), text(8192)])).toEqual({ ok: true, groups: [[0, 1]] });
    expect(counted).toBe(2);
    expect(openAiEmbeddingLimits('together', 'text-embedding-3-small')).toBeNull();
    expect((await client('fake-embed-large').embed({ model: 'fake-embed-large', inputs: [text(9000)] })).vectors).toHaveLength(1);
  });
});
