/**
 * The sync's retrieval step: for every retrieval blueprint of the source (its latest version
 * valid, with a `retrieval:` block), read the corpus, queries and qrels beside it through the
 * source reader and link what they hold to the version (runs/retrieval/datasets.ts). The files
 * are read on every sync that lists the source: they can change while the blueprint does not,
 * and a change gives new data (a new content hash, so a new run identity).
 */
import { BlueprintSchema, type RetrievalBlock } from '@/lib/core';
import type { Db } from '../db/client';
import { linkRetrievalData } from '../db/commands/retrieval-data';
import { loadRetrievalFiles } from './retrieval-files';
import type { SourceReader } from './sync-source';

/**
 * Reads the block's three files through `readText` (source paths) and links what came out to the
 * version: the dataset when they loaded, their positioned problems otherwise (a file the source
 * cannot serve is one of them). Returns the problems as `file:line:col: message`.
 */
export async function syncRetrievalFiles(db: Db, versionId: string, block: RetrievalBlock, blueprintPath: string, readText: (path: string) => Promise<string>): Promise<string[]> {
  return linkRetrievalData(db, versionId, await loadRetrievalFiles(block, blueprintPath, readText));
}

/** Returns `file:line:col: message` for each problem with the files, by blueprint path. */
export async function syncRetrievalData(db: Db, reader: SourceReader, revision: string | null, sourceId: string, blueprintIds: readonly string[]): Promise<Map<string, string[]>> {
  const problems = new Map<string, string[]>();
  const readPath = reader.readPath;
  if (!readPath) return problems;
  const rows = await db.blueprint.findMany({
    where: { id: { in: [...blueprintIds] }, sourceId, removedAt: null },
    select: { latestVersion: { select: { id: true, path: true, valid: true, normalized: true } } },
  });
  for (const { latestVersion: v } of rows) {
    if (!v?.valid || v.normalized === null) continue;
    const parsed = BlueprintSchema.safeParse(v.normalized);
    const block = parsed.success ? parsed.data.retrieval : null;
    if (!block) continue;
    const issues = await syncRetrievalFiles(db, v.id, block, v.path, (path) => readPath(path, revision));
    if (issues.length) problems.set(v.path, issues);
  }
  return problems;
}
