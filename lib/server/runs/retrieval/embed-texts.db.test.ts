/**
 * embedTexts against the fake provider and a real database: the vector store is the cache (a
 * second pass sends nothing), texts are de-duplicated, batches respect maxBatch, retryable
 * failures are retried with back-off, and cost is summed from the price table.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { DEFAULT_EMBEDDING_MODELS, embeddingModelFor, fakeEmbedding } from '@/testing/fakes/llm-server-embeddings';
import { freshDatabase, testEngine, type TestDatabase } from '../../db/db.testkit';
import { loadVectors, textHash } from '../../db/vectors';
import { ProviderError } from '../../providers';
import { OpenAiEmbeddingClient } from '../../providers/embeddings';
import { embedTexts, EmbeddingLimiters } from './embed-texts';

const fast = { baseDelayMs: 1, maxDelayMs: 20 };

describe(`embedTexts (${testEngine()})`, () => {
  let t: TestDatabase;
  let fake: FakeLlm;
  let client: OpenAiEmbeddingClient;
  beforeAll(async () => {
    [t, fake] = await Promise.all([freshDatabase(), startFakeLlm()]);
    client = new OpenAiEmbeddingClient({ provider: 'openai', model: 'fake-embed-small', apiKey: 'k', baseURL: fake.url, maxBatch: 4 });
  });
  afterAll(async () => {
    await fake?.close();
    await t?.close();
  });
  beforeEach(() => fake.reset());

  it('embeds each distinct text once, in batches of maxBatch, and returns vectors in input order', async () => {
    const texts = ['alpha one', 'beta two', 'alpha one', 'gamma three', 'delta four', 'epsilon five', 'zeta six'];
    const res = await embedTexts({ db: t.db, client, retry: fast }, { modelId: 'openai:fake-embed-small', texts, kind: 'document' });
    expect(res.calls).toBe(2); // 6 distinct texts, 4 per request
    expect(res.cached).toBe(0);
    expect(fake.stats().embeddings).toMatchObject({ calls: 2, inputs: 6 });
    const spec = embeddingModelFor('fake-embed-small', DEFAULT_EMBEDDING_MODELS);
    res.vectors.forEach((v, i) => expect(v).toEqual(fakeEmbedding(texts[i]!, 'fake-embed-small', spec)));
    expect(res.textHashes).toEqual(texts.map((x) => textHash(x, 'document')));
    // 12 words at $0.02 per 1M tokens
    expect(res.costUsd).toBeCloseTo((12 * 0.02) / 1e6, 15);
    expect(res.unpricedCalls).toBe(0);
    expect((await loadVectors(t.db, 'openai:fake-embed-small', res.textHashes)).size).toBe(6);
  });

  it('reads the store first: a second pass sends nothing, a third only the new text', async () => {
    const texts = ['cache me', 'and me too'];
    await embedTexts({ db: t.db, client, retry: fast }, { modelId: 'openai:fake-embed-small', texts, kind: 'query' });
    const again = await embedTexts({ db: t.db, client, retry: fast }, { modelId: 'openai:fake-embed-small', texts, kind: 'query' });
    expect(again).toMatchObject({ calls: 0, cached: 2, costUsd: 0 });
    const more = await embedTexts({ db: t.db, client, retry: fast }, { modelId: 'openai:fake-embed-small', texts: [...texts, 'one more'], kind: 'query' });
    expect(more).toMatchObject({ calls: 1, cached: 2 });
    expect(fake.stats().embeddings.inputs).toBe(3);
    // the same text as a document is another entry (queries are hashed apart)
    const asDoc = await embedTexts({ db: t.db, client, retry: fast }, { modelId: 'openai:fake-embed-small', texts: ['cache me'], kind: 'document' });
    expect(asDoc.cached).toBe(0);
  });

  it('retries 429s and 5xx with back-off until the batch goes through, storing it once', async () => {
    fake.setFaults({ rateLimited: 0.3, serverError: 0.3, retryAfter: '0.001' });
    const texts = Array.from({ length: 24 }, (_, i) => `retried text number ${i}`);
    const res = await embedTexts({ db: t.db, client, retry: { ...fast, maxAttempts: 12 } }, { modelId: 'openai:fake-embed-small', texts, kind: 'document' });
    const stats = fake.stats().embeddings;
    expect(stats.calls).toBeGreaterThan(6); // some batches failed first
    expect(stats.inputs).toBe(24); // …and each text was answered once
    expect(res.calls).toBe(6);
    expect((await loadVectors(t.db, 'openai:fake-embed-small', res.textHashes)).size).toBe(24);
  });

  it('gives up on an error that is not retryable, keeping the batches that succeeded', async () => {
    const bad = new OpenAiEmbeddingClient({ provider: 'openai', model: 'fake-embed-small', apiKey: 'k', baseURL: fake.url, maxBatch: 2 });
    fake.setFaults({ model: 'fake-embed-small', malformed: 1 });
    await expect(embedTexts({ db: t.db, client: bad, retry: fast }, { modelId: 'openai:malformed', texts: ['a b', 'c d', 'e f'], kind: 'document' })).rejects.toMatchObject({ kind: 'malformed' });
    expect(fake.stats().embeddings.calls).toBe(2); // not retried
  });

  it('keeps at most `concurrency` requests in flight per provider key, shared between calls', async () => {
    const one = new OpenAiEmbeddingClient({ provider: 'openai', model: 'fake-embed-small', apiKey: 'k', baseURL: fake.url, maxBatch: 1 });
    fake.setLatency(15);
    const limiters = new EmbeddingLimiters(2);
    const texts = (p: string) => Array.from({ length: 6 }, (_, i) => `${p} concurrency ${i}`);
    await Promise.all([
      embedTexts({ db: t.db, client: one, limiters }, { modelId: 'openai:conc', texts: texts('a'), kind: 'document' }),
      embedTexts({ db: t.db, client: one, limiters }, { modelId: 'openai:conc', texts: texts('b'), kind: 'document' }),
    ]);
    expect(fake.stats().embeddings).toMatchObject({ calls: 12, peakInFlight: 2 });
  });

  it('refuses a model whose dimension differs from the vectors already stored for it', async () => {
    await embedTexts({ db: t.db, client }, { modelId: 'openai:shifty', texts: ['stored at 64'], kind: 'document' });
    const wider = new OpenAiEmbeddingClient({ provider: 'openai', model: 'fake-embed-large', apiKey: 'k', baseURL: fake.url });
    const err = await embedTexts({ db: t.db, client: wider }, { modelId: 'openai:shifty', texts: ['stored at 64', 'now 256'], kind: 'document' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).toMatch(/returned 256 dimensions, earlier 64/);
    expect((await loadVectors(t.db, 'openai:shifty', [textHash('now 256')])).size).toBe(0);
  });
});
