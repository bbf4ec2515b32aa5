/**
 * The data files of a retrieval blueprint in the database: loaded (corpus, queries, qrels, by
 * `loadRetrievalFiles`), stored once per content (`retrieval_datasets`, keyed by the files'
 * hash) and linked to the blueprint version that read them (`retrieval_version_data`). The
 * sync, `assay run` and the demo seed store them here; a run request reads the link.
 */
import { formatIssue, RetrievalDataSchema, type RetrievalBlock, type RetrievalData } from '@/lib/core';
import type { Prisma } from '@/generated/prisma/client';
import type { Db } from '../../db/client';
import { retryOnUniqueViolation } from '../../db/unique-retry';
import { loadRetrievalFiles } from '../../blueprints/retrieval-files';

export type RetrievalFilesResult = Awaited<ReturnType<typeof loadRetrievalFiles>>;

/**
 * Reads the block's three files through `readText` (repository-relative paths) and links what
 * came out to the version: the dataset when they loaded, their positioned problems otherwise.
 * Returns the problems as `file:line:col: message` (empty when the files loaded).
 */
export async function syncRetrievalFiles(db: Db, versionId: string, block: RetrievalBlock, blueprintPath: string, readText: (path: string) => Promise<string>): Promise<string[]> {
  // a file the source cannot serve is one of the issues (said against the blueprint, where the path is written)
  return linkRetrievalData(db, versionId, await loadRetrievalFiles(block, blueprintPath, readText));
}

export async function linkRetrievalData(db: Db, versionId: string, loaded: RetrievalFilesResult): Promise<string[]> {
  if (!loaded.ok) {
    const issues = loaded.issues.map(formatIssue);
    await db.retrievalVersionData.upsert({ where: { versionId }, create: { versionId, datasetId: null, issues }, update: { datasetId: null, issues } });
    return issues;
  }
  const datasetId = await storeDataset(db, loaded.contentHash, RetrievalDataSchema.parse(loaded.data));
  await db.retrievalVersionData.upsert({ where: { versionId }, create: { versionId, datasetId, issues: [] }, update: { datasetId, issues: [] } });
  return [];
}

/** One row per content: two syncs (or two `assay run`) storing the same files share it. */
async function storeDataset(db: Db, contentHash: string, data: RetrievalData): Promise<string> {
  const found = await db.retrievalDataset.findUnique({ where: { contentHash }, select: { id: true } });
  if (found) return found.id;
  const row = await retryOnUniqueViolation(() =>
    db.retrievalDataset.upsert({
      where: { contentHash },
      create: { contentHash, data: data as unknown as Prisma.InputJsonValue, docCount: data.corpus.length, queryCount: data.queries.length, qrelCount: data.qrels.length },
      update: {},
      select: { id: true },
    }),
  );
  return row.id;
}

/** The data a version reads, or why it has none. */
export async function versionRetrievalData(db: Db, versionId: string): Promise<{ ok: true; datasetId: string; contentHash: string; docCount: number; queryCount: number } | { ok: false; issues: string[] }> {
  const link = await db.retrievalVersionData.findUnique({
    where: { versionId },
    select: { issues: true, dataset: { select: { id: true, contentHash: true, docCount: true, queryCount: true } } },
  });
  if (!link) return { ok: false, issues: ['its corpus, queries and qrels have not been loaded: sync the blueprint source (or run the file with `assay run`)'] };
  if (!link.dataset) return { ok: false, issues: Array.isArray(link.issues) ? link.issues.map(String) : [] };
  const d = link.dataset;
  return { ok: true, datasetId: d.id, contentHash: d.contentHash, docCount: d.docCount, queryCount: d.queryCount };
}

/** A stored dataset, parsed with its schema. */
export async function loadDataset(db: Db, datasetId: string): Promise<RetrievalData> {
  const row = await db.retrievalDataset.findUniqueOrThrow({ where: { id: datasetId }, select: { data: true } });
  return RetrievalDataSchema.parse(row.data);
}
