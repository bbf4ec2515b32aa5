/**
 * The vector store: one embedding per (model, text hash) in `embeddings` (float4[]), and
 * nearest-neighbour search by cosine similarity over it.
 *
 * Two search paths, chosen per database by `hasPgvector` (or forced with `method`):
 *   - pgvector (PGlite ships it; a server may have it): the corpus is cast once per search into
 *     a temporary `vector` table and scanned with `<=>` (exact, no approximate index), in the
 *     database. The migration never requires the extension: it is created here, at run time,
 *     only where `pg_available_extensions` lists it.
 *   - exact (this machine's PostgreSQL 15 has no pgvector): the corpus vectors are read once and
 *     scored in JS. Measured faster than scoring in SQL over real[] (bench/retrieval.bench.ts).
 *
 * Identical rankings on both paths. pgvector accumulates in float4 while JS does in float8, so
 * its distances differ from ours in the 7th digit and near-ties could swap. So pgvector only
 * chooses candidates: every document within RESCORE_MARGIN of the k-th best distance (fetching
 * more when the margin reaches the end of what was fetched), and the final scores and order come
 * from the same JS function over the same stored float4 values as the exact path: score =
 * cosine in float8, ordered by score descending, ties by text hash ascending (code-unit order).
 */
import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import { poolOf, type Db } from './client';

export type EmbeddingKind = 'document' | 'query';
export type VectorLike = ArrayLike<number>;

export interface StoredVector {
  textHash: string;
  vector: VectorLike;
}

export interface Neighbour {
  textHash: string;
  /** Cosine similarity, in float8 from the stored float4 values. */
  score: number;
}

export type SearchMethod = 'auto' | 'exact' | 'pgvector';

export interface NearestQuery {
  /** Which query this is, e.g. its query id; keys the result. */
  key: string;
  vector: VectorLike;
}

export interface NearestOptions {
  modelId: string;
  /** The documents to rank (their text hashes; duplicates count once). */
  corpusHashes: readonly string[];
  queries: readonly NearestQuery[];
  k: number;
  /** `auto` (default): pgvector where the database has it, exact otherwise. */
  method?: SearchMethod;
}

/**
 * The store's key of a text: sha256 of its UTF-8 bytes, queries apart from documents (Gemini
 * embeds a query and a document of the same text differently; hashing them apart costs one
 * embedding when a query repeats a document, and keeps the cache right for every provider).
 */
export function textHash(text: string, kind: EmbeddingKind = 'document'): string {
  const h = createHash('sha256');
  if (kind === 'query') h.update('query\u0000');
  return h.update(text, 'utf8').digest('hex');
}

// ───────────────────────── pgvector availability ─────────────────────────

const PGVECTOR = new WeakMap<Db, Promise<boolean>>();

/**
 * Whether searches on this database can use pgvector: the extension is installed, or available
 * and we may create it. Checked once per client. A server that lists it but refuses CREATE
 * EXTENSION (no privilege) answers false: the exact path serves it.
 */
export function hasPgvector(db: Db): Promise<boolean> {
  let known = PGVECTOR.get(db);
  if (!known) {
    known = detectPgvector(poolOf(db));
    PGVECTOR.set(db, known);
  }
  return known;
}

async function detectPgvector(pool: pg.Pool): Promise<boolean> {
  const { rows } = await pool.query<{ installed: boolean; available: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') AS installed,
            EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available`,
  );
  if (rows[0]?.installed) return true;
  if (!rows[0]?.available) return false;
  try {
    await pool.query('CREATE EXTENSION IF NOT EXISTS vector');
    return true;
  } catch {
    return false;
  }
}

// ───────────────────────── storing and loading ─────────────────────────

/** Rows per INSERT: keeps one statement's JSON under a few MB at 1,536 dimensions. */
const STORE_CHUNK = 500;
/** Hashes per SELECT … = ANY($1). */
const LOAD_CHUNK = 5_000;

const plain = (v: VectorLike): number[] => Array.from(v, (x) => Math.fround(x));

/**
 * Stores vectors not stored yet; an existing (model, hash) keeps its vector (the first answer
 * wins, so every run that ever read it saw the same one). Returns how many rows were new.
 */
export async function storeVectors(db: Db, modelId: string, rows: readonly StoredVector[]): Promise<number> {
  let inserted = 0;
  for (let i = 0; i < rows.length; i += STORE_CHUNK) {
    const chunk = rows.slice(i, i + STORE_CHUNK).map((r) => {
      if (r.vector.length === 0) throw new Error(`storeVectors: empty vector for ${r.textHash}`);
      return { h: r.textHash, d: r.vector.length, v: plain(r.vector) };
    });
    const result = await poolOf(db).query(
      `INSERT INTO embeddings (model_id, text_hash, dims, vector)
       SELECT $1, x.h, x.d, x.v FROM json_to_recordset($2::json) AS x(h text, d int, v real[])
       ON CONFLICT (model_id, text_hash) DO NOTHING`,
      [modelId, JSON.stringify(chunk)],
    );
    inserted += result.rowCount ?? 0;
  }
  return inserted;
}

/**
 * PostgreSQL's binary form of a one-dimensional float4[] (array_send): ndim, has-null flag,
 * element type, then per dimension its size and lower bound, then per element its byte length
 * (4) and the big-endian float. Read directly: 5× faster than parsing the text form of 10,000
 * vectors of 256 floats (measured for the benchmark's exact search).
 */
function fromArraySend(buf: Buffer): Float32Array {
  const ndim = buf.readInt32BE(0);
  if (ndim === 0) return new Float32Array(0);
  if (ndim !== 1) throw new Error(`a stored vector has ${ndim} dimensions of array, expected 1`);
  const n = buf.readInt32BE(12);
  const out = new Float32Array(n);
  for (let i = 0, at = 20; i < n; i++, at += 8) {
    if (buf.readInt32BE(at) !== 4) throw new Error('a stored vector holds a NULL or a non-float4 element');
    out[i] = buf.readFloatBE(at + 4);
  }
  return out;
}

/** The stored vectors of these hashes (those not stored are absent from the map). */
export async function loadVectors(db: Db, modelId: string, textHashes: readonly string[]): Promise<Map<string, Float32Array>> {
  const out = new Map<string, Float32Array>();
  const unique = [...new Set(textHashes)];
  for (let i = 0; i < unique.length; i += LOAD_CHUNK) {
    const { rows } = await poolOf(db).query<{ text_hash: string; v: Buffer }>(
      'SELECT text_hash, array_send(vector) AS v FROM embeddings WHERE model_id = $1 AND text_hash = ANY($2::text[])',
      [modelId, unique.slice(i, i + LOAD_CHUNK)],
    );
    for (const r of rows) out.set(r.text_hash, fromArraySend(r.v));
  }
  return out;
}

// ───────────────────────── scoring (shared by both paths) ─────────────────────────

function norm(v: VectorLike): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  return Math.sqrt(s);
}

/** Cosine similarity in float8; 0 when either vector is zero (nothing to point at). */
export function cosine(a: VectorLike, b: VectorLike, normA = norm(a), normB = norm(b)): number {
  if (a.length !== b.length) throw new Error(`cannot compare vectors of ${a.length} and ${b.length} dimensions`);
  if (normA === 0 || normB === 0) return 0;
  return dot(a, b) / (normA * normB);
}

function dot(a: VectorLike, b: VectorLike): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** The hot loop of exact search: typed arrays only, so the engine compiles one fast path (same sums as `dot`). */
function dotTyped(a: Float64Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

/** The ranking rule of both paths: score descending, then text hash ascending. */
export function compareNeighbours(a: Neighbour, b: Neighbour): number {
  return b.score - a.score || (a.textHash < b.textHash ? -1 : a.textHash > b.textHash ? 1 : 0);
}

interface Corpus {
  hashes: string[];
  vectors: Float32Array[];
  norms: Float64Array;
}

function corpusOf(vectors: Map<string, Float32Array>, hashes: readonly string[]): Corpus {
  const present = hashes.filter((h) => vectors.has(h));
  return { hashes: present, vectors: present.map((h) => vectors.get(h)!), norms: Float64Array.from(present, (h) => norm(vectors.get(h)!)) };
}

/** The k best of the candidates `indexes` (all of the corpus when absent), by compareNeighbours. */
function topK(corpus: Corpus, query: VectorLike, k: number, indexes?: readonly number[]): Neighbour[] {
  const q = Float64Array.from(query, (x) => Math.fround(x)); // the stored precision, as the corpus has
  const qNorm = norm(q);
  const best: Neighbour[] = [];
  const consider = (i: number): void => {
    const v = corpus.vectors[i]!;
    if (v.length !== q.length) throw new Error(`cannot compare vectors of ${q.length} and ${v.length} dimensions`);
    const score = qNorm === 0 || corpus.norms[i] === 0 ? 0 : dotTyped(q, v) / (qNorm * corpus.norms[i]!);
    if (best.length === k && (score < best[k - 1]!.score || (score === best[k - 1]!.score && corpus.hashes[i]! > best[k - 1]!.textHash))) return;
    const n: Neighbour = { textHash: corpus.hashes[i]!, score };
    // insertion into a sorted array: k is small (tens), the corpus large
    let at = best.length === k ? k - 1 : best.length;
    while (at > 0 && compareNeighbours(n, best[at - 1]!) < 0) {
      best[at] = best[at - 1]!;
      at--;
    }
    best[at] = n;
  };
  if (indexes) for (const i of indexes) consider(i);
  else for (let i = 0; i < corpus.hashes.length; i++) consider(i);
  return best;
}

// ───────────────────────── search ─────────────────────────

/**
 * Cosine distances of pgvector (float4 accumulation) and ours (float8) differ by far less than
 * this at any dimension an embedding model uses (≈ dims × 2⁻²⁴ relative at worst): every
 * document within it of the k-th candidate's distance is rescored, so none can be missed.
 */
export const RESCORE_MARGIN = 1e-4;

/**
 * The k nearest stored corpus vectors to each query by cosine similarity (ranking rule:
 * compareNeighbours). Corpus hashes with no stored vector are skipped: store them first.
 */
export async function nearest(db: Db, opts: NearestOptions): Promise<Record<string, Neighbour[]>> {
  if (!Number.isInteger(opts.k) || opts.k < 1) throw new Error(`nearest: k must be a positive integer, not ${opts.k}`);
  const hashes = [...new Set(opts.corpusHashes)];
  const method = opts.method ?? 'auto';
  const usePgvector = method === 'pgvector' || (method === 'auto' && (await hasPgvector(db)));
  if (method === 'pgvector' && !(await hasPgvector(db))) throw new Error('nearest: pgvector is not available on this database (use method exact or auto)');
  const out: Record<string, Neighbour[]> = {};
  if (opts.queries.length === 0 || hashes.length === 0) {
    for (const q of opts.queries) out[q.key] = [];
    return out;
  }
  if (!usePgvector) {
    const corpus = corpusOf(await loadVectors(db, opts.modelId, hashes), hashes);
    for (const q of opts.queries) out[q.key] = topK(corpus, q.vector, opts.k);
    return out;
  }
  const candidates = await pgvectorCandidates(poolOf(db), opts.modelId, hashes, opts.queries, opts.k);
  const needed = [...new Set([...candidates.values()].flat())];
  const corpus = corpusOf(await loadVectors(db, opts.modelId, needed), needed);
  const index = new Map(corpus.hashes.map((h, i) => [h, i]));
  for (const q of opts.queries) {
    const mine = (candidates.get(q.key) ?? []).flatMap((h) => (index.has(h) ? [index.get(h)!] : []));
    out[q.key] = topK(corpus, q.vector, opts.k, mine);
  }
  return out;
}

/**
 * Queries per statement (one round trip answers them all). Small enough that on PGlite, where
 * every connection shares one backend that runs one statement at a time, other work waits a
 * few seconds at most between two statements of a long search.
 */
const QUERY_CHUNK = 50;

/**
 * Per query, the hashes of every document within RESCORE_MARGIN of the k-th best pgvector
 * distance. Fetches k + 8 per query first; a query whose last fetched row is still within the
 * margin (a run of near-ties) is asked again with twice the limit until the margin ends.
 */
async function pgvectorCandidates(pool: pg.Pool, modelId: string, hashes: string[], queries: readonly NearestQuery[], k: number): Promise<Map<string, string[]>> {
  const client = await pool.connect();
  const table = `assay_corpus_${randomBytes(6).toString('hex')}`;
  const out = new Map<string, string[]>();
  try {
    // Cast once per search, not once per (query, document): the scan then reads vectors directly.
    // No transaction around the search (on PGlite it would hold the one backend for all of it),
    // so the table is named for this search: PGlite's connections share one session's temp tables.
    await client.query(`CREATE TEMP TABLE ${table} (text_hash text PRIMARY KEY, v vector)`);
    await client.query(`INSERT INTO ${table} SELECT text_hash, vector::vector FROM embeddings WHERE model_id = $1 AND text_hash = ANY($2::text[])`, [modelId, hashes]);
    await client.query(`ANALYZE ${table}`);
    // pgvector's cosine distance to a zero vector is NaN (sorted last); ours is similarity 0, which
    // can rank: zero vectors are every query's candidates, and a zero query's candidates are all.
    const zero = (await client.query<{ text_hash: string }>(`SELECT text_hash FROM ${table} WHERE vector_norm(v) = 0`)).rows.map((r) => r.text_hash);
    let pending: { key: string; vector: number[] }[] = [];
    for (const q of queries) {
      if (norm(q.vector) === 0) out.set(q.key, hashes);
      else pending.push({ key: q.key, vector: plain(q.vector) });
    }
    let limit = Math.min(k + 8, hashes.length);
    while (pending.length > 0) {
      const again: typeof pending = [];
      for (let i = 0; i < pending.length; i += QUERY_CHUNK) {
        const chunk = pending.slice(i, i + QUERY_CHUNK);
        const { rows } = await client.query<{ key: string; text_hash: string; dist: number }>(
          // the query cast once, outside the scan, and each distance computed once (ORDER BY its alias)
          `SELECT q.key, c.text_hash, c.dist
             FROM (SELECT key, v::vector AS qv FROM json_to_recordset($1::json) AS x(key text, v real[])) q
             CROSS JOIN LATERAL (
               SELECT text_hash, v <=> q.qv AS dist FROM ${table} ORDER BY dist, text_hash LIMIT $2
             ) c`,
          [JSON.stringify(chunk.map((q) => ({ key: q.key, v: q.vector }))), limit],
        );
        const byKey = new Map<string, { h: string; d: number }[]>();
        for (const r of rows) {
          const list = byKey.get(r.key) ?? [];
          list.push({ h: r.text_hash, d: Number(r.dist) });
          byKey.set(r.key, list);
        }
        for (const q of chunk) {
          const list = byKey.get(q.key) ?? [];
          // NaN (zero vectors) sorts last: once one is fetched, every real distance is in
          const finite = list.filter((c) => Number.isFinite(c.d));
          const kth = finite[Math.min(k, finite.length) - 1]?.d ?? Number.POSITIVE_INFINITY;
          const last = finite.at(-1)?.d ?? Number.POSITIVE_INFINITY;
          const more = finite.length === limit && limit < hashes.length;
          if (more && last <= kth + RESCORE_MARGIN) again.push(q);
          else out.set(q.key, [...finite.filter((c) => c.d <= kth + RESCORE_MARGIN).map((c) => c.h), ...zero]);
        }
      }
      pending = again;
      limit = Math.min(limit * 2, hashes.length);
    }
  } finally {
    await client.query(`DROP TABLE IF EXISTS ${table}`).catch(() => {});
    client.release();
  }
  return out;
}
