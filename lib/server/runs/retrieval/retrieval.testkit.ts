/**
 * A small retrieval blueprint and its three files for the retrieval run's database tests: a
 * corpus about everyday science, queries whose relevant documents share their words (so the
 * fake's word-overlap embeddings find them, fake-embed-large more surely than fake-embed-small),
 * graded qrels, and a query with no relevant document. Stored as a source would store it.
 */
import { parseBlueprint, blueprintIdFromPath } from '@/lib/core';
import type { Db } from '../../db/client';
import { storeBlueprintVersion } from '../../db/commands/store-blueprint-version';
import { syncRetrievalFiles } from '../../blueprints/sync-retrieval';

export const RETRIEVAL_MODELS = ['openai:fake-embed-large', 'openai:fake-embed-small'];

export const RETRIEVAL_BLUEPRINT = `title: Retrieval suite
description: Everyday science questions against a small corpus.
tags: [retrieval, science]
retrieval:
  corpus: data/corpus.jsonl
  queries: data/queries.jsonl
  qrels: data/qrels.jsonl
  metrics: [ndcg@10, recall@5, mrr, map]
  models: [${RETRIEVAL_MODELS.join(', ')}]
  thresholds:
    min: { ndcg@10: 0.5, recall@5: 0.6 }
    warn_margin: 0.1
  primary_metric: ndcg@10
`;

const DOCS: [string, string][] = [
  ['d01', 'Photosynthesis turns sunlight water and carbon dioxide into glucose and oxygen in plant leaves'],
  ['d02', 'Chlorophyll in plant leaves absorbs red and blue sunlight for photosynthesis'],
  ['d03', 'Volcanoes erupt when magma pressure builds beneath the crust'],
  ['d04', 'Lava from volcanoes cools into basalt rock'],
  ['d05', 'Tides rise and fall because the moon gravity pulls the oceans'],
  ['d06', 'Spring tides happen when the sun and moon align'],
  ['d07', 'Rainbows appear when sunlight refracts through raindrops'],
  ['d08', 'Thunder is the sound of air expanding after lightning heats it'],
  ['d09', 'Lightning is an electric discharge between clouds and ground'],
  ['d10', 'Bread rises because yeast ferments sugar into carbon dioxide'],
  ['d11', 'Sourdough bread uses wild yeast and bacteria to rise'],
  ['d12', 'Ice floats because frozen water is less dense than liquid water'],
  ['d13', 'Salt lowers the freezing point of water on icy roads'],
  ['d14', 'Earthquakes happen when tectonic plates slip along faults'],
];

const QUERIES: [string, string][] = [
  ['q1', 'how do plants use sunlight photosynthesis'],
  ['q2', 'why do volcanoes erupt magma'],
  ['q3', 'what causes ocean tides moon'],
  ['q4', 'why does bread rise yeast'],
  ['q5', 'why does ice float on water'],
  ['q6', 'what makes thunder and lightning'],
  ['q7', 'how do penguins stay warm'],
];

/** Graded: 2 = the answer, 1 = related. q7 is judged, with nothing relevant (it averages in as 0). */
const QRELS: [string, string, number][] = [
  ['q1', 'd01', 2], ['q1', 'd02', 1],
  ['q2', 'd03', 2], ['q2', 'd04', 1],
  ['q3', 'd05', 2], ['q3', 'd06', 1],
  ['q4', 'd10', 2], ['q4', 'd11', 1],
  ['q5', 'd12', 2], ['q5', 'd13', 0],
  ['q6', 'd08', 2], ['q6', 'd09', 2],
  ['q7', 'd12', 0],
];

const jsonl = (rows: object[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;

/** The files by repository path (beside `retrieval/suite.yml`). */
export function retrievalFiles(over: Partial<Record<'corpus' | 'queries' | 'qrels', string>> = {}): Record<string, string> {
  return {
    'retrieval/data/corpus.jsonl': over.corpus ?? jsonl(DOCS.map(([id, text]) => ({ id, text }))),
    'retrieval/data/queries.jsonl': over.queries ?? jsonl(QUERIES.map(([id, text]) => ({ id, text }))),
    'retrieval/data/qrels.jsonl': over.qrels ?? jsonl(QRELS.map(([query_id, doc_id, relevance]) => ({ query_id, doc_id, relevance }))),
  };
}

export const RETRIEVAL_SIZES = { documents: DOCS.length, queries: QUERIES.length };

/** Stores the blueprint (path `retrieval/suite.yml`) and links its files, as a sync does. */
export async function storeRetrievalBlueprint(db: Db, files = retrievalFiles(), text = RETRIEVAL_BLUEPRINT, path = 'retrieval/suite.yml'): Promise<{ blueprintId: string; versionId: string }> {
  const source = await db.blueprintSource.upsert({ where: { key: 'local:test' }, create: { key: 'local:test', kind: 'local', localPath: 'test' }, update: {} });
  const parsed = parseBlueprint(text, { file: path });
  if (!parsed.ok || !parsed.blueprint.retrieval) throw new Error(`test retrieval blueprint does not parse: ${parsed.ok ? 'no retrieval block' : parsed.errors.map((e) => e.message).join('; ')}`);
  const blueprintId = blueprintIdFromPath(path);
  const { versionId } = await storeBlueprintVersion(db, source.id, blueprintId, { path, rawText: text, sourceCommit: null, blobSha: null }, parsed);
  const issues = await syncRetrievalFiles(db, versionId, parsed.blueprint.retrieval, path, async (p) => {
    const t = files[p];
    if (t === undefined) throw new Error(`no such test file ${p}`);
    return t;
  });
  if (issues.length) throw new Error(`test retrieval files do not load:\n${issues.join('\n')}`);
  return { blueprintId, versionId };
}
