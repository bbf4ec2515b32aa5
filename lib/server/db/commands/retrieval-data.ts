/**
 * A retrieval blueprint's data in the database: stored once per content (`retrieval_datasets`,
 * keyed by the three files' hash) and linked to the blueprint version that read them
 * (`retrieval_version_data`), or the files' problems linked instead. Written by the sync, `assay
 * run` and the demo seed (after `loadRetrievalFiles`); read by db/queries/retrieval-dataset.ts.
 */
import { formatIssue, RetrievalDataSchema, type BlueprintIssue, type RetrievalData } from '@/lib/core';
import type { Prisma } from '@/generated/prisma/client';
import type { Db } from '../client';
import { retryOnUniqueViolation } from '../unique-retry';

/** What loading the files gave (`loadRetrievalFiles`). */
export type LoadedRetrievalFiles = { ok: true; data: RetrievalData; contentHash: string } | { ok: false; issues: BlueprintIssue[] };

/** Links the data (or the problems) to the version; returns the problems as `file:line:col: message` (empty when the files loaded). */
export async function linkRetrievalData(db: Db, versionId: string, loaded: LoadedRetrievalFiles): Promise<string[]> {
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
