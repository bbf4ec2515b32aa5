/**
 * The pure half of a retrieval run at the benchmark's size (issue 13: 10,000 documents, 1,000
 * queries): reading the three data files (`parseRetrievalFiles`) and scoring full rankings of
 * the corpus for every query with trec_eval's metrics (`scoreRankings`). Embedding and search
 * are the runs' bench; this bounds what the core adds to them. CPU time (process.cpuUsage), so
 * the figure holds on a machine shared with other work.
 */
import { parseMetric, parseRetrievalFiles, scoreRankings, type MetricSpec, type RankedDoc } from '@/lib/core';
import { reportTarget } from './targets';
import { prng } from '@/testing/fakes/llm-server-embeddings';

const DOCS = 10_000;
const QUERIES = 1_000;

/** A small seeded generator (the fake's mulberry32): the same corpus and scores on every run. */
const random = prng;

function cpuSeconds<T>(f: () => T): { value: T; seconds: number } {
  const start = process.cpuUsage();
  const value = f();
  const used = process.cpuUsage(start);
  return { value, seconds: (used.user + used.system) / 1e6 };
}

export async function bench(): Promise<void> {
  const rand = random(13);
  const words = ['pasta', 'rice', 'bread', 'egg', 'knife', 'oven', 'salt', 'water', 'butter', 'sauce', 'stock', 'roast', 'boil', 'simmer', 'bake'];
  const text = (n: number) => Array.from({ length: n }, () => words[Math.floor(rand() * words.length)]).join(' ');
  const corpus = Array.from({ length: DOCS }, (_, i) => JSON.stringify({ id: `d${i}`, text: text(40) })).join('\n');
  const queries = Array.from({ length: QUERIES }, (_, i) => JSON.stringify({ id: `q${i}`, text: text(8) })).join('\n');
  const qrelLines: string[] = [];
  for (let q = 0; q < QUERIES; q++) for (let j = 0; j < 10; j++) qrelLines.push(`q${q} 0 d${(q * 37 + j * 1_009) % DOCS} ${j % 3}`);

  const heapBefore = process.memoryUsage().heapUsed;
  const loaded = cpuSeconds(() => parseRetrievalFiles({ corpus: { path: 'corpus.jsonl', text: corpus }, queries: { path: 'queries.jsonl', text: queries }, qrels: { path: 'qrels.txt', text: qrelLines.join('\n') } }));
  if (!loaded.value.ok) throw new Error(`bench data rejected: ${loaded.value.issues[0]?.message}`);
  const data = loaded.value.data;
  console.log(`read ${DOCS.toLocaleString('en-US')} documents, ${QUERIES.toLocaleString('en-US')} queries, ${qrelLines.length.toLocaleString('en-US')} judgements: ${loaded.seconds.toFixed(2)} s CPU, heap +${((process.memoryUsage().heapUsed - heapBefore) / 1e6).toFixed(0)} MB`);
  reportTarget({ name: 'retrieval files: read 10,000 docs + 1,000 queries + 10,000 qrels', value: loaded.seconds, unit: 's CPU', atMost: 2, note: 'parseRetrievalFiles, CPU time' });

  // Full rankings (every document scored for every query), as exact search over the corpus gives.
  const rankings: Record<string, RankedDoc[]> = {};
  for (const q of data.queries) rankings[q.id] = data.corpus.map((d) => ({ docId: d.id, score: Math.round(rand() * 1_000) / 1_000 }));
  const metrics = ['ndcg@10', 'recall@10', 'precision@10', 'mrr', 'map'].map((l) => (parseMetric(l) as { ok: true; metric: MetricSpec }).metric);
  const scored = cpuSeconds(() => scoreRankings(data.qrels, rankings, metrics));
  console.log(`scored ${QUERIES.toLocaleString('en-US')} full rankings of ${DOCS.toLocaleString('en-US')} documents (scores rounded to 0.001, so ties are common): ${scored.seconds.toFixed(2)} s CPU; ndcg@10 ${scored.value.overall['ndcg@10']!.toFixed(4)}`);
  reportTarget({ name: 'retrieval scoring: 1,000 queries × 10,000 ranked docs, 5 metrics', value: scored.seconds, unit: 's CPU', atMost: 10, note: 'scoreRankings, full rankings with ties, CPU time' });
}
