import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { CustomHttpSpecError } from '../custom-http-spec';
import { ModelResolutionError } from '../resolve';
import { runEmbeddingClientContract } from './embedding-client-contract.testkit';
import { createCustomEmbeddingClient } from './custom-embeddings';
import { GeminiEmbeddingClient, GEMINI_MAX_BATCH, toGeminiEmbedParams } from './gemini-embeddings';
import { decodeEmbedding, OpenAiEmbeddingClient, OPENAI_MAX_BATCH } from './openai-embeddings';
import { embeddingCostUsd, embeddingPriceFor } from './prices';
import { resolveEmbeddingClient } from './resolve';

runEmbeddingClientContract(
  'OpenAI-compatible /v1/embeddings (base64)',
  ({ fake, apiKey, model }) => new OpenAiEmbeddingClient({ provider: 'openai', model, apiKey, baseURL: fake.url }),
  { provider: 'openai', maxBatch: OPENAI_MAX_BATCH, usage: true, retryAfter: true },
);

runEmbeddingClientContract(
  'Gemini batchEmbedContents',
  // the SDK appends /v1beta/models/…; the fake serves it at its origin
  ({ fake, apiKey, model }) => new GeminiEmbeddingClient({ model, apiKey, baseURL: fake.origin }),
  { provider: 'google', maxBatch: GEMINI_MAX_BATCH, usage: false, retryAfter: false },
);

const token = { Authorization: { env: 'EMBED_TOKEN', prefix: 'Bearer ' } };

runEmbeddingClientContract(
  'custom HTTP embeddings, format: openai',
  ({ fake, apiKey, model }) =>
    createCustomEmbeddingClient('team-embedder', { format: 'openai', url: `${fake.url}/embeddings`, model, headers: token, max_batch: 512 }, {
      allowedOrigins: [fake.origin],
      env: { EMBED_TOKEN: { value: apiKey, origins: [fake.origin] } },
    }),
  { provider: 'custom', maxBatch: 512, usage: true, retryAfter: true },
);

runEmbeddingClientContract(
  'custom HTTP embeddings, JSON mapping',
  ({ fake, apiKey, model }) =>
    createCustomEmbeddingClient(
      'team-embedder',
      {
        url: `${fake.origin}/custom/embed`,
        model,
        headers: { 'X-Api-Key': { env: 'EMBED_TOKEN' } },
        body: { model: '{{model}}', texts: '{{inputs}}', input_type: '{{input_type}}' },
        response: { vectors: '$.vectors', prompt_tokens: '$.tokens' },
      },
      { allowedOrigins: [fake.origin], env: { EMBED_TOKEN: { value: apiKey, origins: [fake.origin] } } },
    ),
  { provider: 'custom', maxBatch: 64, usage: true, retryAfter: true },
);

describe('OpenAI-compatible embeddings', () => {
  it('decodes base64 float32 and accepts the float arrays of servers that ignore encoding_format', () => {
    const floats = Float32Array.from([0.5, -0.25, 1e-3]);
    expect(decodeEmbedding(Buffer.from(floats.buffer).toString('base64'), 'openai')).toEqual(Array.from(floats));
    expect(decodeEmbedding([0.1, 0.2], 'openai')).toEqual([0.1, 0.2]);
    expect(() => decodeEmbedding('AAA', 'openai')).toThrow(/not a whole number of float32s/);
    expect(() => decodeEmbedding(['x'], 'openai')).toThrow(/neither base64 nor an array/);
    expect(() => decodeEmbedding(Buffer.from(Float32Array.from([1, NaN]).buffer).toString('base64'), 'openai')).toThrow(/NaN or infinity/);
    expect(() => decodeEmbedding([1, Infinity], 'openai')).toThrow(/neither base64 nor an array/);
  });

  describe('against the fake', () => {
    let fake: FakeLlm;
    beforeAll(async () => {
      fake = await startFakeLlm();
    });
    afterAll(() => fake.close());

    it('gives the same vectors whether the wire carries base64 (what the SDK asks for) or floats', async () => {
      const client = new OpenAiEmbeddingClient({ provider: 'openai', model: 'fake-embed-small', apiKey: 'k', baseURL: fake.url });
      const viaSdk = await client.embed({ model: 'fake-embed-small', inputs: ['alpha beta', 'gamma'] });
      const raw = (await (
        await fetch(`${fake.url}/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'fake-embed-small', input: ['alpha beta', 'gamma'] }) })
      ).json()) as { data: { embedding: number[] }[] };
      expect(viaSdk.vectors).toEqual(raw.data.map((d) => d.embedding));
      expect(viaSdk.vectors[0]).toHaveLength(64);
    });
  });
});

describe('Gemini embeddings', () => {
  it('asks for the retrieval task type of documents and of queries', () => {
    expect(toGeminiEmbedParams({ model: 'gemini-embedding-001', inputs: ['q'], kind: 'query' }).config?.taskType).toBe('RETRIEVAL_QUERY');
    expect(toGeminiEmbedParams({ model: 'gemini-embedding-001', inputs: ['d'], kind: 'document' }).config?.taskType).toBe('RETRIEVAL_DOCUMENT');
    expect(toGeminiEmbedParams({ model: 'gemini-embedding-001', inputs: ['a', 'b'] }).contents).toEqual([
      { role: 'user', parts: [{ text: 'a' }] },
      { role: 'user', parts: [{ text: 'b' }] },
    ]);
  });
});

describe('custom HTTP embedding specs', () => {
  const ctx = { allowedOrigins: ['https://emb.example.org'], env: {} };
  const message = (fn: () => unknown): string => {
    expect(fn).toThrow(CustomHttpSpecError);
    return (() => {
      try {
        fn();
      } catch (e) {
        return (e as Error).message;
      }
      return '';
    })();
  };

  it('needs a response mapping to the vectors for a custom format', () => {
    expect(message(() => createCustomEmbeddingClient('e', { url: 'https://emb.example.org/embed' }, ctx))).toMatch(/response: required for a custom mapping, e.g. \{ vectors: \$\.data\[\*\]\.embedding \}/);
  });

  it('names an unknown placeholder and lists the known ones', () => {
    const spec = { url: 'https://emb.example.org/embed', body: { q: '{{messages}}' }, response: { vectors: '$.v' } };
    expect(message(() => createCustomEmbeddingClient('e', spec, ctx))).toMatch(/body\.q: unknown placeholder \{\{messages\}\}; known: \{\{inputs\}\}, \{\{model\}\}, \{\{input_type\}\}/);
  });

  it('refuses a host the maintainer did not allow', () => {
    expect(message(() => createCustomEmbeddingClient('e', { url: 'https://evil.example.com/embed', response: { vectors: '$.v' } }, ctx))).toMatch(/not an allowed endpoint/);
  });

  it('refuses a body or mapping on the fixed OpenAI wire format', () => {
    expect(message(() => createCustomEmbeddingClient('e', { format: 'openai', url: 'https://emb.example.org/v1/embeddings', response: { vectors: '$.v' } }, ctx))).toMatch(/openai-format endpoint takes neither/);
  });
});

describe('resolveEmbeddingClient', () => {
  it('resolves OpenAI-compatible providers and Gemini, stripping the provider prefix', () => {
    const openai = resolveEmbeddingClient('openai:text-embedding-3-small', { keys: { openai: 'sk-test' } });
    expect(openai).toMatchObject({ provider: 'openai', model: 'text-embedding-3-small', maxBatch: 2048, concurrencyKey: 'openai' });
    expect(resolveEmbeddingClient('together:BAAI/bge-base-en-v1.5', { keys: { together: 't' } })).toMatchObject({ provider: 'together', model: 'BAAI/bge-base-en-v1.5' });
    expect(resolveEmbeddingClient('ollama:nomic-embed-text')).toMatchObject({ provider: 'ollama', model: 'nomic-embed-text' });
    expect(resolveEmbeddingClient('google:gemini-embedding-001', { keys: { google: 'g' } })).toMatchObject({ provider: 'google', maxBatch: 100 });
  });

  it('says what to set, or what is wrong, for ids that cannot resolve', () => {
    expect(() => resolveEmbeddingClient('openai:text-embedding-3-small', { keys: {} })).toThrow(/set OPENAI_API_KEY/);
    expect(() => resolveEmbeddingClient('text-embedding-3-small')).toThrow(ModelResolutionError);
    expect(() => resolveEmbeddingClient('anthropic:claude')).toThrow(/offers no embeddings API/);
    expect(() => resolveEmbeddingClient('nope:x')).toThrow(/unknown provider "nope"/);
  });

  it('points every provider at ASSAY_LLM_BASE_URL (the fake), Gemini included', async () => {
    const fake = await startFakeLlm();
    try {
      const config = { keys: {}, baseUrlOverride: fake.url };
      const a = await resolveEmbeddingClient('openai:fake-embed-large', config).embed({ model: 'fake-embed-large', inputs: ['x y z'] });
      const b = await resolveEmbeddingClient('google:fake-embed-large', config).embed({ model: 'fake-embed-large', inputs: ['x y z'] });
      expect(a.vectors).toEqual(b.vectors);
      expect(fake.stats().embeddings.calls).toBe(2);
    } finally {
      await fake.close();
    }
  });
});

describe('embedding prices', () => {
  it('prices the common models per 1M input tokens, and unknown ones as unknown', () => {
    expect(embeddingPriceFor('text-embedding-3-small')).toBe(0.02);
    expect(embeddingPriceFor('text-embedding-3-large')).toBe(0.13);
    expect(embeddingPriceFor('openai/text-embedding-3-large')).toBe(0.13);
    expect(embeddingPriceFor('BAAI/bge-base-en-v1.5')).toBe(0.008);
    expect(embeddingPriceFor('my-own-model')).toBeNull();
    expect(embeddingCostUsd('text-embedding-3-small', { promptTokens: 1_000_000 })).toBeCloseTo(0.02, 12);
    expect(embeddingCostUsd('my-own-model', { promptTokens: 10 })).toBeNull();
    expect(embeddingCostUsd('text-embedding-3-small', null)).toBeNull();
  });
});
