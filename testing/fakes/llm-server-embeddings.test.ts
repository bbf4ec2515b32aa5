import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cosine } from '@/lib/server/db/vectors';
import { startFakeLlm, type FakeLlm } from './llm-server';
import { fakeLlmAdmin } from './llm-server-admin';
import { DEFAULT_EMBEDDING_MODELS, embeddingModelFor, embeddingWords, fakeEmbedding } from './llm-server-embeddings';

const large = embeddingModelFor('fake-embed-large', DEFAULT_EMBEDDING_MODELS);
const small = embeddingModelFor('fake-embed-small', DEFAULT_EMBEDDING_MODELS);

/** A word-overlap corpus: each document 12 words of a 600-word vocabulary; each query 4 of its document's words. */
function corpus(n: number): { docs: string[]; queries: string[] } {
  let seed = 7;
  const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const vocab = Array.from({ length: 600 }, (_, i) => `w${i.toString(36)}x${(i * 7919).toString(36)}`);
  const docs = Array.from({ length: n }, () => Array.from({ length: 12 }, () => vocab[Math.floor(next() * vocab.length)]!).join(' '));
  const queries = docs.map((d) => d.split(' ').slice(0, 4).join(' '));
  return { docs, queries };
}

/** Fraction of queries whose own document ranks first. */
function hitRate(model: string, spec: { dims: number; noise: number }, docs: string[], queries: string[]): number {
  const dv = docs.map((d) => fakeEmbedding(d, model, spec));
  let hits = 0;
  queries.forEach((q, i) => {
    const qv = fakeEmbedding(q, model, spec);
    let best = -1;
    let bestScore = -Infinity;
    dv.forEach((v, j) => {
      const s = cosine(qv, v);
      if (s > bestScore) [best, bestScore] = [j, s];
    });
    if (best === i) hits++;
  });
  return hits / queries.length;
}

describe('the fake’s embeddings', () => {
  it('are deterministic, unit length, of the model’s dimension, and differ between models', () => {
    const a = fakeEmbedding('Photosynthesis in plants', 'fake-embed-large', large);
    expect(a).toEqual(fakeEmbedding('Photosynthesis in plants', 'fake-embed-large', large));
    expect(a).toHaveLength(256);
    expect(fakeEmbedding('x', 'fake-embed-small', small)).toHaveLength(64);
    expect(Math.hypot(...a)).toBeCloseTo(1, 5);
    expect(cosine(a, fakeEmbedding('Photosynthesis in plants', 'other-large', large))).toBeLessThan(0.999);
  });

  it('see words, not case, stop words or plural endings', () => {
    expect(embeddingWords('The Cats are RUNNING in the gardens')).toEqual(['cat', 'runn', 'garden']);
    const zero = { dims: 64, noise: 0 };
    expect(fakeEmbedding('the garden cats', 'm', zero)).toEqual(fakeEmbedding('Garden CAT', 'm', zero));
  });

  it('follow word overlap: a text is nearer to one sharing its words than to one that does not', () => {
    const q = fakeEmbedding('mitochondria energy cell', 'fake-embed-large', large);
    const near = fakeEmbedding('The mitochondria is where the cell makes its energy', 'fake-embed-large', large);
    const far = fakeEmbedding('The treaty of Westphalia ended a long war', 'fake-embed-large', large);
    expect(cosine(q, near)).toBeGreaterThan(cosine(q, far) + 0.3);
  });

  it('retrieve better with fake-embed-large than with fake-embed-small', () => {
    const { docs, queries } = corpus(300);
    const largeRate = hitRate('fake-embed-large', large, docs, queries);
    const smallRate = hitRate('fake-embed-small', small, docs, queries);
    expect(largeRate).toBeGreaterThan(0.9);
    expect(smallRate).toBeLessThan(largeRate - 0.2);
    expect(smallRate).toBeGreaterThan(0.1); // worse, not useless
  });
});

describe('the fake’s embedding endpoints', () => {
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingModels: [{ model: 'tiny', dims: 8, noise: 0 }] });
  });
  afterAll(() => fake.close());

  it('serve OpenAI floats or base64, honour `dimensions`, report usage, and count calls and inputs (admin API too)', async () => {
    const post = async (body: unknown): Promise<{ data: { index: number; embedding: number[] | string }[]; usage: { prompt_tokens: number } }> =>
      (await (await fetch(`${fake.url}/embeddings`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as never;
    const floats = await post({ model: 'tiny', input: ['one two', 'three'] });
    expect(floats.data.map((d) => d.index)).toEqual([0, 1]);
    expect(floats.data[0]!.embedding).toEqual(Array.from(fakeEmbedding('one two', 'tiny', { dims: 8, noise: 0 })));
    expect(floats.usage.prompt_tokens).toBe(3);
    const b64 = await post({ model: 'tiny', input: 'one two', encoding_format: 'base64' });
    const bytes = Buffer.from(b64.data[0]!.embedding as string, 'base64');
    expect(Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, 8))).toEqual(floats.data[0]!.embedding);
    const wide = await post({ model: 'tiny', input: 'one', dimensions: 32 });
    expect(wide.data[0]!.embedding).toHaveLength(32);
    expect(fake.stats().embeddings).toEqual({ calls: 3, inputs: 4, byModel: { tiny: { calls: 3, inputs: 4 } }, peakInFlight: 1 });
    expect((await fakeLlmAdmin(fake.origin).stats()).embeddings.inputs).toBe(4);
  });

  it('serve Gemini’s batchEmbedContents and embedContent, and answer a bad body with a 400 that says why', async () => {
    const call = (path: string, body: unknown) => fetch(`${fake.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const batch = (await (await call('/v1beta/models/tiny:batchEmbedContents', { requests: [{ model: 'models/tiny', content: { parts: [{ text: 'one two' }] } }] })).json()) as {
      embeddings: { values: number[] }[];
    };
    const one = (await (await call('/v1beta/models/tiny:embedContent', { content: { parts: [{ text: 'one two' }] } })).json()) as { embedding: { values: number[] } };
    expect(batch.embeddings[0]!.values).toEqual(one.embedding.values);
    const bad = await call('/v1beta/models/tiny:batchEmbedContents', { requests: [] });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/requests/);
  });
});
