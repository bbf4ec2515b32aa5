/**
 * The vector store on both engines: the PostgreSQL server (no pgvector: exact search in JS) and
 * PGlite (pgvector, and exact when forced). Every path must give the reference ranking, computed
 * here by brute force with a full sort, so the two engines agree with each other too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolOf } from './client';
import { freshDatabase, testEngine, type TestDatabase } from './db.testkit';
import { compareNeighbours, cosine, hasPgvector, loadVectors, nearest, storeVectors, textHash, type Neighbour, type SearchMethod } from './vectors';

const engine = testEngine();

/** Seeded vectors with planted near-ties: pairs differing in one coordinate by one float32 step. */
function vectors(n: number, dims: number, seed: number): Float32Array[] {
  let s = seed;
  const next = (): number => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32 - 0.5;
  const out: Float32Array[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 10 === 9) {
      const twin = Float32Array.from(out[i - 1]!);
      twin[0] = Math.fround(twin[0]! + 2 ** -23 * Math.abs(twin[0]!)); // the next float32 but one
      out.push(twin);
    } else if (i % 25 === 24) out.push(Float32Array.from(out[i - 2]!)); // an exact duplicate vector: a true tie
    else out.push(Float32Array.from({ length: dims }, next));
  }
  return out;
}

function reference(corpus: { textHash: string; vector: Float32Array }[], query: Float32Array, k: number): Neighbour[] {
  return corpus.map((d) => ({ textHash: d.textHash, score: cosine(query, d.vector) })).sort(compareNeighbours).slice(0, k);
}

describe(`vector store (${engine})`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await freshDatabase();
  });
  afterAll(() => t?.close());

  it(engine === 'pglite' ? 'finds pgvector on PGlite and creates the extension' : 'finds no pgvector on this server, and creates nothing', async () => {
    expect(await hasPgvector(t.db)).toBe(engine === 'pglite');
    const installed = await t.db.$queryRawUnsafe<{ n: bigint }[]>("SELECT count(*) AS n FROM pg_extension WHERE extname = 'vector'");
    expect(Number(installed[0]!.n)).toBe(engine === 'pglite' ? 1 : 0);
  });

  it('stores a vector once per (model, text hash), first answer kept, float32 values exact', async () => {
    const v = Float32Array.from([0.1, -0.2, 1 / 3]);
    const h = textHash('hello');
    expect(await storeVectors(t.db, 'm:a', [{ textHash: h, vector: v }])).toBe(1);
    expect(await storeVectors(t.db, 'm:a', [{ textHash: h, vector: [9, 9, 9] }])).toBe(0);
    expect(await storeVectors(t.db, 'm:b', [{ textHash: h, vector: [1, 2] }])).toBe(1);
    const back = await loadVectors(t.db, 'm:a', [h, textHash('absent')]);
    expect([...back.keys()]).toEqual([h]);
    expect(back.get(h)).toEqual(v);
    expect((await loadVectors(t.db, 'm:b', [h])).get(h)).toEqual(Float32Array.from([1, 2]));
  });

  it('hashes queries apart from documents of the same text', () => {
    expect(textHash('x')).toBe('2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881');
    expect(textHash('x', 'query')).not.toBe(textHash('x'));
  });

  describe('nearest', () => {
    const model = 'test:ranking';
    const docs = vectors(600, 48, 11).map((vector, i) => ({ textHash: textHash(`doc ${i}`), vector }));
    const queries = vectors(40, 48, 99).map((vector, i) => ({ key: `q${i}`, vector }));
    // queries planted on documents (and on a near-tie pair) make the top of the ranking a tie-break test
    queries.push({ key: 'on-twin', vector: docs[8]!.vector }, { key: 'on-duplicate', vector: docs[22]!.vector });
    const methods: SearchMethod[] = engine === 'pglite' ? ['auto', 'pgvector', 'exact'] : ['auto', 'exact'];

    beforeAll(async () => {
      await storeVectors(t.db, model, docs);
    });

    it.each(methods)('ranks by cosine, ties by text hash, as the brute-force reference does (method %s)', async (method) => {
      const got = await nearest(t.db, { modelId: model, corpusHashes: docs.map((d) => d.textHash), queries, k: 10, method });
      for (const q of queries) expect(got[q.key], q.key).toEqual(reference(docs, Float32Array.from(q.vector), 10));
      // the planted tie: docs 22 and 24 hold the same vector, so the one with the smaller hash comes first
      const [a, b] = got['on-duplicate']!;
      expect(a!.score).toBe(b!.score);
      expect(a!.textHash < b!.textHash).toBe(true);
      expect([a!.textHash, b!.textHash].sort()).toEqual([docs[22]!.textHash, docs[24]!.textHash].sort());
    });

    it.runIf(engine === 'pglite')('needs its rescoring: pgvector’s own float4 order breaks near-ties differently on some queries', async () => {
      // what nearest() would return if it trusted pgvector's order: it must differ somewhere on
      // this data, or the ranking test above would not be testing the margin at all
      let differ = 0;
      for (const q of queries) {
        const { rows } = await poolOf(t.db).query<{ text_hash: string }>(
          'SELECT text_hash FROM embeddings WHERE model_id = $1 ORDER BY vector::vector <=> $2::real[]::vector, text_hash LIMIT 10',
          [model, Array.from(q.vector)],
        );
        if (rows.map((r) => r.text_hash).join() !== reference(docs, Float32Array.from(q.vector), 10).map((n) => n.textHash).join()) differ++;
      }
      expect(differ).toBeGreaterThan(0);
    });

    it.runIf(engine === 'pglite')('runs concurrent pgvector searches side by side (PGlite’s connections share one session)', async () => {
      const some = queries.slice(0, 6);
      const [a, b] = await Promise.all([0, 1].map(() => nearest(t.db, { modelId: model, corpusHashes: docs.map((d) => d.textHash), queries: some, k: 5, method: 'pgvector' })));
      for (const q of some) {
        expect(a![q.key]).toEqual(reference(docs, Float32Array.from(q.vector), 5));
        expect(b![q.key]).toEqual(a![q.key]);
      }
      const left = await poolOf(t.db).query("SELECT count(*)::int AS n FROM pg_class WHERE relname LIKE 'assay_corpus_%'");
      expect(left.rows[0].n).toBe(0); // each search dropped its table
    });

    it('searches only the corpus given (duplicates once), and skips hashes with no stored vector', async () => {
      const some = [docs[3]!.textHash, docs[3]!.textHash, docs[4]!.textHash, textHash('never stored')];
      for (const method of methods) {
        const got = await nearest(t.db, { modelId: model, corpusHashes: some, queries: [{ key: 'q', vector: docs[3]!.vector }], k: 5, method });
        expect(got.q!.map((n) => n.textHash), method).toEqual([docs[3]!.textHash, docs[4]!.textHash]);
        expect(got.q![0]!.score).toBeCloseTo(1, 6);
      }
    });

    it('ranks zero vectors (similarity 0) the same way on every path', async () => {
      const zeroModel = 'test:zero';
      const corpus = [
        { textHash: textHash('neg'), vector: Float32Array.from([-1, 0]) },
        { textHash: textHash('zero'), vector: Float32Array.from([0, 0]) },
        { textHash: textHash('pos'), vector: Float32Array.from([1, 0]) },
      ];
      await storeVectors(t.db, zeroModel, corpus);
      const qs = [
        { key: 'right', vector: [1, 0] },
        { key: 'nothing', vector: [0, 0] },
      ];
      for (const method of methods) {
        const got = await nearest(t.db, { modelId: zeroModel, corpusHashes: corpus.map((c) => c.textHash), queries: qs, k: 3, method });
        expect(got.right!.map((n) => n.textHash), method).toEqual(['pos', 'zero', 'neg'].map((x) => textHash(x)));
        expect(got.nothing!.map((n) => n.score), method).toEqual([0, 0, 0]);
        expect(got.nothing!.map((n) => n.textHash), method).toEqual(corpus.map((c) => c.textHash).sort());
      }
    });

    it('says so when pgvector is asked for where there is none, and refuses a k below 1', async () => {
      if (engine === 'postgres') {
        await expect(nearest(t.db, { modelId: model, corpusHashes: [docs[0]!.textHash], queries, k: 1, method: 'pgvector' })).rejects.toThrow(/pgvector is not available/);
      }
      await expect(nearest(t.db, { modelId: model, corpusHashes: [docs[0]!.textHash], queries, k: 0 })).rejects.toThrow(/k must be a positive integer/);
    });
  });
});
