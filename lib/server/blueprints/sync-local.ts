/**
 * Sync from the local `blueprints/` folder (the source when no GitHub repository is
 * configured): every .yml/.yaml/.json file is a blueprint, except `models/*.json`, which
 * are model collections. Unchanged files (same content hash) are not parsed again;
 * files that disappeared are marked removed, never deleted (their runs stay).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import type { Db } from '../db/client';
import { blueprintIdFromPath, parseBlueprint } from '@/lib/core';
import { contentHash, storeBlueprintVersion } from '../db/commands/store-blueprint-version';
import { retryOnUniqueViolation } from '../db/unique-retry';

export interface SyncSummary {
  sourceId: string;
  added: number;
  changed: number;
  unchanged: number;
  removed: number;
  invalid: number;
  collections: number;
  /** `file:line:col: message` for each invalid blueprint. */
  errors: string[];
}

const BLUEPRINT_FILE = /\.(ya?ml|json)$/i;

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && BLUEPRINT_FILE.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

export async function syncLocalFolder(db: Db, folder: string, trigger = 'start'): Promise<SyncSummary> {
  const root = resolve(folder);
  const key = `local:${relative(process.cwd(), root) || '.'}`;
  // two processes syncing one folder at once on a fresh database both create the source row
  const source = await retryOnUniqueViolation(() =>
    db.blueprintSource.upsert({
      where: { key },
      create: { key, kind: 'local', localPath: root },
      update: { localPath: root },
    }),
  );
  const record = await db.syncRecord.create({ data: { sourceId: source.id, trigger, status: 'running' } });
  const summary: SyncSummary = { sourceId: source.id, added: 0, changed: 0, unchanged: 0, removed: 0, invalid: 0, collections: 0, errors: [] };
  try {
    const seen = new Set<string>();
    for (const abs of await listFiles(root)) {
      const path = relative(root, abs).split(sep).join('/');
      const rawText = await readFile(abs, 'utf8');
      if (path.startsWith('models/') && path.endsWith('.json')) {
        const problem = await storeCollection(db, source.id, path, rawText);
        if (problem) summary.errors.push(problem);
        else summary.collections++;
        continue;
      }
      const id = blueprintIdFromPath(path);
      seen.add(id);
      const current = await db.blueprint.findUnique({
        where: { id },
        select: { removedAt: true, latestVersion: { select: { contentHash: true, valid: true } } },
      });
      if (current?.latestVersion?.contentHash === contentHash(rawText) && !current.removedAt) {
        summary.unchanged++;
        if (!current.latestVersion.valid) summary.invalid++;
        continue;
      }
      const parsed = parseBlueprint(rawText, { file: path });
      if (!parsed.ok) {
        summary.invalid++;
        summary.errors.push(...parsed.errors.map((e) => `${path}:${e.line}:${e.col}: ${e.message}`));
      }
      await storeBlueprintVersion(db, source.id, id, { path, rawText, sourceCommit: null, blobSha: null }, parsed);
      if (current) summary.changed++;
      else summary.added++;
    }
    const gone = await db.blueprint.updateMany({
      where: { sourceId: source.id, removedAt: null, id: { notIn: [...seen] } },
      data: { removedAt: new Date() },
    });
    summary.removed = gone.count;
    await db.syncRecord.update({
      where: { id: record.id },
      data: { status: 'completed', finishedAt: new Date(), added: summary.added, changed: summary.changed, unchanged: summary.unchanged, removed: summary.removed, invalid: summary.invalid },
    });
    await db.blueprintSource.update({ where: { id: source.id }, data: { lastSyncedAt: new Date(), lastSyncError: null } });
    return summary;
  } catch (e) {
    const message = (e as Error).message;
    await db.syncRecord.update({ where: { id: record.id }, data: { status: 'failed', finishedAt: new Date(), error: message } });
    await db.blueprintSource.update({ where: { id: source.id }, data: { lastSyncError: message } });
    throw e;
  }
}

/**
 * Stores `models/NAME.json` (with the commit and blob it was read at, for the GitHub sync); a
 * malformed one is reported and leaves the stored collection as it was.
 */
export async function storeCollection(
  db: Db,
  sourceId: string,
  path: string,
  rawText: string,
  at: { commitSha: string | null; blobSha: string | null } = { commitSha: null, blobSha: null },
): Promise<string | null> {
  const name = path.slice('models/'.length, -'.json'.length);
  let models: unknown;
  try {
    models = JSON.parse(rawText);
  } catch (e) {
    return `${path}:1:1: model collection is not valid JSON: ${(e as Error).message}`;
  }
  if (!Array.isArray(models) || !models.every((m) => typeof m === 'string' || (typeof m === 'object' && m !== null))) {
    return `${path}:1:1: a model collection must be a JSON array of model ids (e.g. ["openai:gpt-4o-mini"])`;
  }
  await retryOnUniqueViolation(() =>
    db.modelCollection.upsert({
      where: { sourceId_name: { sourceId, name } },
      create: { sourceId, name, models, ...at },
      update: { models, ...at },
    }),
  );
  return null;
}
