/** The data a retrieval blueprint version reads (db/commands/retrieval-data.ts links it), parsed with the schema its writer used. */
import { RetrievalDataSchema, type RetrievalData } from '@/lib/core';
import type { Db } from '../client';

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
