/**
 * Retrieval at issue 13's size: embed a 10,000-document corpus and 1,000 queries through
 * embedTexts (the fake provider in its own process, as a provider is on its own machine), then
 * rank the corpus for every query (k = 10) three ways: exact on the PostgreSQL server (no
 * pgvector there: vectors read once, scored in JS), pgvector on PGlite, and exact on PGlite.
 * Reports wall time, CPU time of this process and peak RSS growth per phase, checks the three
 * rankings are identical, and measures exact search in SQL over real[] on a sample of queries
 * (the alternative the exact path rejects).
 *
 * PGlite runs inside this process (WebAssembly), so its work is in this process's CPU time and
 * RSS; the server's work is not (it is another process): compare wall times across engines.
 */
import { freshDatabase, type TestDatabase } from '@/lib/server/db/db.testkit';
import { poolOf } from '@/lib/server/db/client';
import { nearest, type Neighbour, type SearchMethod } from '@/lib/server/db/vectors';
import { OpenAiEmbeddingClient } from '@/lib/server/providers/embeddings';
import { embedTexts } from '@/lib/server/runs/retrieval/embed-texts';
import { startFakeProcess } from './fake-process';
import { reportFigure, reportTarget } from './targets';

const DOCS = 10_000;
const QUERIES = 1_000;
const K = 10;
const MODEL = 'fake-embed-large'; // 256 dimensions
const FAKE_PORT = 3810; // this bench's port range: 3800–3899
const SQL_SAMPLE = 3;

function corpus(): { docs: string[]; queries: string[] } {
  let seed = 42;
  const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const vocab = Array.from({ length: 8_000 }, (_, i) => `t${i.toString(36)}q${((i * 2654435761) >>> 0).toString(36).slice(0, 4)}`);
  // Zipf-like word choice, so common words are shared by many documents (a realistic overlap)
  const word = (): string => vocab[Math.floor(vocab.length * next() ** 2)]!;
  const docs = Array.from({ length: DOCS }, () => Array.from({ length: 40 }, word).join(' '));
  const queries = Array.from({ length: QUERIES }, (_, i) => {
    const words = docs[(i * 7) % DOCS]!.split(' ');
    return Array.from({ length: 6 }, () => words[Math.floor(next() * words.length)]!).join(' ');
  });
  return { docs, queries };
}

interface Measured<T> {
  value: T;
  wallMs: number;
  cpuMs: number;
  peakRssMb: number;
}

/** Wall and CPU time of `fn`, and the peak RSS above the start, sampled every 20 ms. */
async function measure<T>(fn: () => Promise<T>): Promise<Measured<T>> {
  const rss0 = process.memoryUsage().rss;
  let peak = rss0;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  try {
    const value = await fn();
    peak = Math.max(peak, process.memoryUsage().rss);
    const cpu = process.cpuUsage(cpu0);
    return { value, wallMs: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, peakRssMb: (peak - rss0) / 2 ** 20 };
  } finally {
    clearInterval(timer);
  }
}

function line(label: string, m: Measured<unknown>): string {
  return `${label}: ${(m.wallMs / 1000).toFixed(2)} s wall, ${(m.cpuMs / 1000).toFixed(2)} s CPU here, +${m.peakRssMb.toFixed(0)} MB peak RSS`;
}

async function embedAll(t: TestDatabase, url: string, docs: string[], queries: string[]) {
  const client = new OpenAiEmbeddingClient({ provider: 'openai', model: MODEL, apiKey: 'bench', baseURL: url });
  const d = await embedTexts({ db: t.db, client }, { modelId: `openai:${MODEL}`, texts: docs, kind: 'document' });
  const q = await embedTexts({ db: t.db, client }, { modelId: `openai:${MODEL}`, texts: queries, kind: 'query' });
  return { docHashes: d.textHashes, queryVectors: q.vectors, calls: d.calls + q.calls, costUsd: d.costUsd + q.costUsd };
}

async function search(t: TestDatabase, e: Awaited<ReturnType<typeof embedAll>>, method: SearchMethod): Promise<Record<string, Neighbour[]>> {
  return nearest(t.db, { modelId: `openai:${MODEL}`, corpusHashes: e.docHashes, queries: e.queryVectors.map((vector, i) => ({ key: `q${i}`, vector })), k: K, method });
}

function mismatches(a: Record<string, Neighbour[]>, b: Record<string, Neighbour[]>): number {
  return Object.keys(a).filter((key) => JSON.stringify(a[key]) !== JSON.stringify(b[key])).length;
}

/** Exact cosine top-k in SQL over real[] (what a server without pgvector could do instead of JS). */
async function sqlExactMsPerQuery(t: TestDatabase, e: Awaited<ReturnType<typeof embedAll>>): Promise<number> {
  const pool = poolOf(t.db);
  const started = performance.now();
  for (const v of e.queryVectors.slice(0, SQL_SAMPLE)) {
    await pool.query(
      `SELECT text_hash, s FROM (
         SELECT e.text_hash, (SELECT sum(a * b) FROM unnest(e.vector, $3::real[]) AS x(a, b))
                / NULLIF(sqrt((SELECT sum(a * a) FROM unnest(e.vector) AS y(a))), 0) AS s
         FROM embeddings e WHERE e.model_id = $1 AND e.text_hash = ANY($2::text[])) r
       ORDER BY s DESC NULLS LAST, text_hash LIMIT ${K}`,
      [`openai:${MODEL}`, e.docHashes, Array.from(v)],
    );
  }
  return (performance.now() - started) / SQL_SAMPLE;
}

export async function bench(): Promise<void> {
  const { docs, queries } = corpus();
  const fake = await startFakeProcess({ port: FAKE_PORT });
  const server = await freshDatabase('postgres');
  let lite: TestDatabase | null = null;
  try {
    const embedServer = await measure(() => embedAll(server, fake.url, docs, queries));
    console.log(line(`embed ${DOCS} docs + ${QUERIES} queries (server)`, embedServer), `· ${embedServer.value.calls} calls, $${embedServer.value.costUsd.toFixed(5)}`);
    const exactServer = await measure(() => search(server, embedServer.value, 'exact'));
    console.log(line(`search ${QUERIES} × ${DOCS}, k=${K}, exact (server, JS scoring)`, exactServer));
    const sqlMs = await sqlExactMsPerQuery(server, embedServer.value);
    console.log(`exact in SQL over real[] (server): ${sqlMs.toFixed(0)} ms per query (${SQL_SAMPLE} sampled) ≈ ${((sqlMs * QUERIES) / 1000).toFixed(0)} s for ${QUERIES}`);

    lite = await freshDatabase('pglite');
    const embedLite = await measure(() => embedAll(lite!, fake.url, docs, queries));
    console.log(line('embed (PGlite)', embedLite));
    const pgv = await measure(() => search(lite!, embedLite.value, 'pgvector'));
    console.log(line('search, pgvector (PGlite)', pgv));
    const exactLite = await measure(() => search(lite!, embedLite.value, 'exact'));
    console.log(line('search, exact (PGlite, JS scoring)', exactLite));

    const differ = mismatches(exactServer.value, pgv.value) + mismatches(exactServer.value, exactLite.value);
    console.log(`queries whose top ${K} differ between the three searches: ${differ}`);

    const note = `${DOCS} docs × ${QUERIES} queries, 256 dims, k=${K}`;
    reportFigure({ name: 'retrieval: embed corpus + queries via fake (server)', value: embedServer.wallMs / 1000, unit: 's', note: `${embedServer.value.calls} calls; +${embedServer.peakRssMb.toFixed(0)} MB RSS` });
    reportFigure({ name: 'retrieval: search exact (PostgreSQL server)', value: exactServer.wallMs / 1000, unit: 's', note: `${note}; ${(exactServer.cpuMs / 1000).toFixed(1)} s CPU; +${exactServer.peakRssMb.toFixed(0)} MB RSS` });
    reportFigure({ name: 'retrieval: search pgvector (PGlite)', value: pgv.wallMs / 1000, unit: 's', note: `${note}; ${(pgv.cpuMs / 1000).toFixed(1)} s CPU (PGlite in process); +${pgv.peakRssMb.toFixed(0)} MB RSS` });
    reportFigure({ name: 'retrieval: search exact (PGlite)', value: exactLite.wallMs / 1000, unit: 's', note: `${note}; ${(exactLite.cpuMs / 1000).toFixed(1)} s CPU; +${exactLite.peakRssMb.toFixed(0)} MB RSS` });
    reportFigure({ name: 'retrieval: exact in SQL ÷ exact in JS (server)', value: (sqlMs * QUERIES) / exactServer.wallMs, unit: '×', note: `SQL over real[] extrapolated from ${SQL_SAMPLE} queries` });
    reportTarget({ name: 'retrieval: queries ranked differently (exact vs pgvector vs PGlite exact)', value: differ, unit: 'queries', atMost: 0 });
  } finally {
    fake.stop();
    await lite?.close();
    await server.close();
  }
}
