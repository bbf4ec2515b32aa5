/**
 * Sync from the configured GitHub repository: read the branch head, list the tree at that
 * commit (one request), and fetch only the blobs whose SHA differs from the stored version's,
 * so an unchanged repository costs two requests and one changed file costs one blob. Every
 * version is stored with its commit SHA and blob SHA; model collections come from
 * `models/*.json`; blueprints that left the branch are marked removed, never deleted.
 * It always reads the branch's current head, never the commit a webhook named: a late or
 * redelivered webhook cannot roll the blueprints back.
 */
import pLimit from 'p-limit';
import type { Db } from '../db/client';
import { parseBlueprint } from '@/lib/core';
import { storeBlueprintVersion } from '../db/commands/store-blueprint-version';
import { storeCollection, type SyncSummary } from '../blueprints/sync-local';
import type { GitHubSource } from './config';
import { ensureGitHubSource } from './source';
import type { GitHubRepo, RepoFile } from './port';
import { blueprintIdOf, isBlueprintPath, isCollectionPath } from './paths';

export interface GitHubSyncSummary extends SyncSummary {
  commitSha: string;
  /** Blobs read from GitHub: the changed files only. */
  blobsFetched: number;
  /** The branch head was already synced, so nothing was listed or fetched. */
  upToDate: boolean;
}

export interface GitHubSyncOptions {
  /** webhook | cron | admin | cli */
  trigger: string;
  /** Re-list the tree even when the head commit was synced already (repairs a partial state). */
  force?: boolean;
}

/** Parallel blob fetches: enough to hide GitHub's latency, few enough to stay clear of its abuse limits. */
const FETCH_CONCURRENCY = 8;

export async function syncGitHubRepository(db: Db, gh: GitHubRepo, src: GitHubSource, opts: GitHubSyncOptions): Promise<GitHubSyncSummary> {
  const source = await ensureGitHubSource(db, src);
  const summary: GitHubSyncSummary = { sourceId: source.id, added: 0, changed: 0, unchanged: 0, removed: 0, invalid: 0, collections: 0, errors: [], commitSha: '', blobsFetched: 0, upToDate: false };
  const record = await db.syncRecord.create({ data: { sourceId: source.id, trigger: opts.trigger, status: 'running' } });
  try {
    const commitSha = await gh.branchHead(src.branch);
    summary.commitSha = commitSha;
    if (!opts.force && source.lastSyncedSha === commitSha && !source.lastSyncError) {
      summary.upToDate = true;
      await db.syncRecord.update({ where: { id: record.id }, data: { commitSha, status: 'up_to_date', finishedAt: new Date() } });
      return summary;
    }
    const files = await gh.listFiles(commitSha);
    const blueprints = files.filter((f) => isBlueprintPath(f.path));
    await syncBlueprints(db, gh, source.id, commitSha, blueprints, summary);
    await syncCollections(db, gh, source.id, commitSha, files.filter((f) => isCollectionPath(f.path)), summary);

    const gone = await db.blueprint.updateMany({
      where: { sourceId: source.id, removedAt: null, id: { notIn: blueprints.map((f) => blueprintIdOf(f.path)) } },
      data: { removedAt: new Date() },
    });
    summary.removed = gone.count;
    await db.syncRecord.update({
      where: { id: record.id },
      data: {
        commitSha,
        status: 'completed',
        finishedAt: new Date(),
        added: summary.added,
        changed: summary.changed,
        unchanged: summary.unchanged,
        removed: summary.removed,
        invalid: summary.invalid,
        blobsFetched: summary.blobsFetched,
      },
    });
    await db.blueprintSource.update({ where: { id: source.id }, data: { lastSyncedSha: commitSha, lastSyncedAt: new Date(), lastSyncError: null } });
    return summary;
  } catch (e) {
    const message = (e as Error).message;
    await db.syncRecord.update({ where: { id: record.id }, data: { status: 'failed', finishedAt: new Date(), error: message, blobsFetched: summary.blobsFetched } });
    await db.blueprintSource.update({ where: { id: source.id }, data: { lastSyncError: message } });
    throw e;
  }
}

async function syncBlueprints(db: Db, gh: GitHubRepo, sourceId: string, commitSha: string, files: RepoFile[], summary: GitHubSyncSummary): Promise<void> {
  const ids = files.map((f) => blueprintIdOf(f.path));
  const stored = new Map(
    (
      await db.blueprint.findMany({
        where: { id: { in: ids } },
        select: { id: true, sourceId: true, removedAt: true, latestVersion: { select: { blobSha: true, valid: true } } },
      })
    ).map((b) => [b.id, b]),
  );
  const limit = pLimit(FETCH_CONCURRENCY);
  // blobs are fetched in parallel, but stored one at a time: each store is a transaction, and
  // an embedded database (PGlite) runs one at a time anyway; awaiting the queue bounds memory
  let writes: Promise<void> = Promise.resolve();
  await Promise.all(
    files.map((file) =>
      limit(async () => {
        const id = blueprintIdOf(file.path);
        const current = stored.get(id);
        // the blob SHA is the content's identity: equal SHA, equal text, nothing to fetch
        if (current && current.sourceId === sourceId && !current.removedAt && current.latestVersion?.blobSha === file.blobSha) {
          summary.unchanged++;
          if (!current.latestVersion.valid) summary.invalid++;
          return;
        }
        const rawText = await gh.readBlob(file.blobSha);
        summary.blobsFetched++;
        writes = writes.then(() => storeFile(db, sourceId, commitSha, file, rawText, summary, current ? !current.removedAt : false));
        await writes;
      }),
    ),
  );
  summary.errors.sort();
}

async function storeFile(db: Db, sourceId: string, commitSha: string, file: RepoFile, rawText: string, summary: GitHubSyncSummary, existed: boolean): Promise<void> {
  const parsed = parseBlueprint(rawText, { file: file.path });
  if (!parsed.ok) {
    summary.invalid++;
    summary.errors.push(...parsed.errors.map((e) => `${file.path}:${e.line}:${e.col}: ${e.message}`));
  }
  const version = await storeBlueprintVersion(db, sourceId, blueprintIdOf(file.path), { path: file.path, rawText, sourceCommit: commitSha, blobSha: file.blobSha }, parsed);
  if (!version.created) {
    // the same text stored before without a blob SHA (e.g. from the local folder): record it, or every sync would fetch it again
    await db.blueprintVersion.updateMany({ where: { id: version.versionId, blobSha: null }, data: { blobSha: file.blobSha, sourceCommit: commitSha } });
  }
  if (existed) summary.changed++;
  else summary.added++;
}

async function syncCollections(db: Db, gh: GitHubRepo, sourceId: string, commitSha: string, files: RepoFile[], summary: GitHubSyncSummary): Promise<void> {
  const stored = new Map((await db.modelCollection.findMany({ where: { sourceId }, select: { name: true, blobSha: true } })).map((c) => [c.name, c.blobSha]));
  const names: string[] = [];
  for (const file of files) {
    const name = file.path.slice('models/'.length, -'.json'.length);
    names.push(name);
    if (stored.get(name) === file.blobSha) {
      summary.collections++;
      continue;
    }
    const text = await gh.readBlob(file.blobSha);
    summary.blobsFetched++;
    const problem = await storeCollection(db, sourceId, file.path, text, { commitSha, blobSha: file.blobSha });
    if (problem) summary.errors.push(problem);
    else summary.collections++;
  }
  // a collection deleted from the repository no longer resolves (runs keep their resolved model lists)
  await db.modelCollection.deleteMany({ where: { sourceId, name: { notIn: names } } });
}
