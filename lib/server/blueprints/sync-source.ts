/**
 * Sync one blueprint source into the database: the one lifecycle behind `launch`, `assay sync`,
 * the push webhook and the cron, whatever the source is. A `SourceReader` (the port this module
 * declares) says where the files are; two adapters implement it: a local folder
 * (local-folder-reader.ts) and a GitHub repository at its branch head
 * (../github/repository-reader.ts).
 *
 *   source row → sync record (running) → revision → up to date? → list → for each blueprint:
 *   unchanged? else read, validate, store a version → collections → mark the missing removed
 *   → sync record (completed | failed) and the source's last sync
 *
 * A file whose content is known by its Git blob SHA is compared without being read, so an
 * unchanged repository costs two requests and one changed file costs one blob; a file without
 * one (a folder's) is read and compared by content hash. Every file, valid or not, is stored,
 * its errors reported as `file:line:col: message`; the size limits for untrusted input are
 * parseBlueprint's (BLUEPRINT_LIMITS), and a model collection is held to the same file size.
 * Blueprints that left the source are marked removed, never deleted (their runs stay); a
 * collection that left it is deleted (runs keep their resolved model lists).
 */
import pLimit from 'p-limit';
import type { Db } from '../db/client';
import { BLUEPRINT_LIMITS, isSoevProjectText } from '@/lib/core';
import { parseBlueprintBounded } from '../untrusted/parse-bounded';
import { UNTRUSTED_TIME_LIMITS } from '../untrusted/untrusted-pool';
import { contentHash, storeBlueprintVersion } from '../db/commands/store-blueprint-version';
import { retryOnUniqueViolation } from '../db/unique-retry';
import { syncRetrievalData } from './sync-retrieval';

/** Which source a reader reads: its `blueprint_sources` key and the columns that locate it. */
export type SourceIdentity =
  | { kind: 'local'; key: string; localPath: string }
  | { kind: 'github'; key: string; owner: string; repo: string; branch: string };

/** A file of the source, classified by the reader (it knows its layout). */
export type SourceFile = {
  /** The path inside the source, as stored on the version (`blueprints/a/b.yml` in a repository, `a/b.yml` in a folder). */
  path: string;
  /** The content's identity when the source knows it without reading the file (a Git blob SHA); null: read it and hash it. */
  blobSha: string | null;
} & ({ kind: 'blueprint'; blueprintId: string } | { kind: 'collection'; name: string });

/** What the sync needs from a source (declared here by its consumer, the sync, not by the adapters). */
export interface SourceReader {
  describe(): SourceIdentity;
  /**
   * The revision this sync reads: a repository's commit SHA at the branch head, read once per
   * sync (never the commit a webhook named, so a late or redelivered webhook cannot roll the
   * blueprints back). Null for a source without revisions (a folder): every sync then lists
   * and compares every file.
   */
  revision(): Promise<string | null>;
  /** The source's blueprint and model-collection files at `revision`; other files are left out. */
  list(revision: string | null): Promise<SourceFile[]>;
  /** A listed file's text (UTF-8). */
  read(file: SourceFile): Promise<string>;
  /**
   * The files this sync is about to read (their content is new or changed): a reader that can
   * fetch many in one request (a repository's archive) does so here; without it, each is read alone.
   */
  prefetch?(files: SourceFile[], revision: string | null): Promise<void>;
  /**
   * Any file's text at `revision` by its path in the source (a retrieval blueprint's corpus,
   * queries and qrels, which are not listed as blueprints); absent: retrieval data is not synced.
   */
  readPath?(path: string, revision: string | null): Promise<string>;
}

export interface SyncDeps {
  db: Db;
}

export interface SyncOptions {
  /** start | webhook | cron | admin | cli | test */
  trigger: string;
  /** List the files even when the revision was synced already (repairs a partial state). */
  force?: boolean;
}

export interface SyncSummary {
  kind: SourceIdentity['kind'];
  sourceId: string;
  /** The revision synced (commit SHA), or null for a folder. */
  revision: string | null;
  /** The revision was synced already, so nothing was listed or read. */
  upToDate: boolean;
  added: number;
  changed: number;
  unchanged: number;
  removed: number;
  invalid: number;
  collections: number;
  /** Files read from the source: the changed ones where the listing names their content (a repository), every one otherwise. */
  filesRead: number;
  /** `file:line:col: message` for each problem, in path order. */
  errors: string[];
}

/** Parallel reads: enough to hide GitHub's latency, few enough to stay clear of its abuse limits. */
const READ_CONCURRENCY = 8;

export async function syncSource({ db }: SyncDeps, reader: SourceReader, opts: SyncOptions): Promise<SyncSummary> {
  const identity = reader.describe();
  const source = await ensureSource(db, identity);
  const summary: SyncSummary = { kind: identity.kind, sourceId: source.id, revision: null, upToDate: false, added: 0, changed: 0, unchanged: 0, removed: 0, invalid: 0, collections: 0, filesRead: 0, errors: [] };
  const record = await db.syncRecord.create({ data: { sourceId: source.id, trigger: opts.trigger, status: 'running' } });
  try {
    const revision = await reader.revision();
    summary.revision = revision;
    if (revision !== null && !opts.force && source.lastSyncedSha === revision && !source.lastSyncError) {
      summary.upToDate = true;
      await db.syncRecord.update({ where: { id: record.id }, data: { commitSha: revision, status: 'up_to_date', finishedAt: new Date() } });
      return summary;
    }
    const files = await reader.list(revision);
    if (reader.prefetch) await reader.prefetch(await filesToRead(db, source.id, files), revision);
    const problems = new Problems();
    const blueprints = files.filter((f) => f.kind === 'blueprint');
    await syncBlueprints(db, reader, source.id, revision, blueprints, summary, problems);
    for (const [path, lines] of await syncRetrievalData(db, reader, revision, source.id, blueprints.map((f) => f.blueprintId))) problems.add(path, lines);
    await syncCollections(db, reader, source.id, revision, files.filter((f) => f.kind === 'collection'), summary, problems);
    summary.errors = problems.inPathOrder();

    const gone = await db.blueprint.updateMany({
      where: { sourceId: source.id, removedAt: null, id: { notIn: blueprints.map((f) => f.blueprintId) } },
      data: { removedAt: new Date() },
    });
    summary.removed = gone.count;
    const { added, changed, unchanged, removed, invalid } = summary;
    await db.syncRecord.update({
      where: { id: record.id },
      data: { commitSha: revision, status: 'completed', finishedAt: new Date(), added, changed, unchanged, removed, invalid, blobsFetched: summary.filesRead },
    });
    await db.blueprintSource.update({ where: { id: source.id }, data: { lastSyncedSha: revision, lastSyncedAt: new Date(), lastSyncError: null } });
    return summary;
  } catch (e) {
    const message = (e as Error).message;
    await db.syncRecord.update({ where: { id: record.id }, data: { status: 'failed', finishedAt: new Date(), error: message, blobsFetched: summary.filesRead } });
    await db.blueprintSource.update({ where: { id: source.id }, data: { lastSyncError: message } });
    throw e;
  }
}

/** The source's row, created on first use. */
export function ensureSource(db: Db, identity: SourceIdentity) {
  const { key, ...columns } = identity;
  // two workers (a webhook and the start-up sync, or two processes on a fresh database) may create it at once
  return retryOnUniqueViolation(() => db.blueprintSource.upsert({ where: { key }, create: { key, ...columns }, update: columns }));
}

/** The listed files whose content the sync will read: those without a blob SHA, or whose SHA differs from the stored one (the rule of syncBlueprints and syncCollections). */
async function filesToRead(db: Db, sourceId: string, files: SourceFile[]): Promise<SourceFile[]> {
  const blueprintIds = files.flatMap((f) => (f.kind === 'blueprint' ? [f.blueprintId] : []));
  const blueprints = new Map(
    (await db.blueprint.findMany({ where: { id: { in: blueprintIds }, sourceId, removedAt: null }, select: { id: true, latestVersion: { select: { blobSha: true } } } })).map((b) => [b.id, b.latestVersion?.blobSha ?? null]),
  );
  const collections = new Map((await db.modelCollection.findMany({ where: { sourceId }, select: { name: true, blobSha: true } })).map((c) => [c.name, c.blobSha]));
  return files.filter((f) => f.blobSha === null || (f.kind === 'blueprint' ? blueprints.get(f.blueprintId) : collections.get(f.name)) !== f.blobSha);
}

type BlueprintFile = Extract<SourceFile, { kind: 'blueprint' }>;
type CollectionFile = Extract<SourceFile, { kind: 'collection' }>;

/** Problems by file, so the report reads in path order whatever order the reads finished in. */
class Problems {
  private readonly byPath = new Map<string, string[]>();
  add(path: string, lines: string[]): void {
    this.byPath.set(path, [...(this.byPath.get(path) ?? []), ...lines]);
  }
  inPathOrder(): string[] {
    return [...this.byPath.keys()].sort().flatMap((p) => this.byPath.get(p)!);
  }
}

async function syncBlueprints(db: Db, reader: SourceReader, sourceId: string, revision: string | null, files: BlueprintFile[], summary: SyncSummary, problems: Problems): Promise<void> {
  const stored = new Map(
    (
      await db.blueprint.findMany({
        where: { id: { in: files.map((f) => f.blueprintId) } },
        select: { id: true, sourceId: true, removedAt: true, latestVersion: { select: { blobSha: true, contentHash: true, valid: true } } },
      })
    ).map((b) => [b.id, b]),
  );
  const limit = pLimit(READ_CONCURRENCY);
  // files are read in parallel, but stored one at a time: each store is a transaction, and
  // an embedded database (PGlite) runs one at a time anyway; awaiting the queue bounds memory
  let writes: Promise<void> = Promise.resolve();
  await Promise.all(
    files.map((file) =>
      limit(async () => {
        const current = stored.get(file.blueprintId);
        const latest = current && current.sourceId === sourceId && !current.removedAt ? current.latestVersion : null;
        const unchanged = () => {
          summary.unchanged++;
          if (!latest!.valid) summary.invalid++;
        };
        // the blob SHA is the content's identity: equal SHA, equal text, nothing to read
        if (latest && file.blobSha !== null && latest.blobSha === file.blobSha) return unchanged();
        const rawText = await reader.read(file);
        summary.filesRead++;
        if (latest && file.blobSha === null && latest.contentHash === contentHash(rawText)) return unchanged();
        writes = writes.then(() => storeFile(db, sourceId, revision, file, rawText, summary, problems, current ? !current.removedAt : false));
        await writes;
      }),
    ),
  );
}

async function storeFile(db: Db, sourceId: string, revision: string | null, file: BlueprintFile, rawText: string, summary: SyncSummary, problems: Problems, existed: boolean): Promise<void> {
  // A soev project file is no blueprint: its suites are (each synced on its own; `assay run PROJECT.yml` adds the project's context).
  if (isSoevProjectText(rawText, file.path)) return;
  // a pushed file is untrusted: parsed in the bounded pool, a file past its limit stored as invalid saying so
  const parsed = await parseBlueprintBounded(rawText, { file: file.path, timeoutMs: UNTRUSTED_TIME_LIMITS.backgroundMs });
  if (!parsed.ok) {
    summary.invalid++;
    problems.add(file.path, parsed.errors.map((e) => `${file.path}:${e.line}:${e.col}: ${e.message}`));
  }
  const version = await storeBlueprintVersion(db, sourceId, file.blueprintId, { path: file.path, rawText, sourceCommit: revision, blobSha: file.blobSha }, parsed);
  if (!version.created && file.blobSha !== null) {
    // the same text stored before without a blob SHA (e.g. from the local folder): record it, or every sync would read it again
    await db.blueprintVersion.updateMany({ where: { id: version.versionId, blobSha: null }, data: { blobSha: file.blobSha, sourceCommit: revision } });
  }
  if (existed) summary.changed++;
  else summary.added++;
}

async function syncCollections(db: Db, reader: SourceReader, sourceId: string, revision: string | null, files: CollectionFile[], summary: SyncSummary, problems: Problems): Promise<void> {
  const stored = new Map((await db.modelCollection.findMany({ where: { sourceId }, select: { name: true, blobSha: true } })).map((c) => [c.name, c.blobSha]));
  for (const file of files) {
    if (file.blobSha !== null && stored.get(file.name) === file.blobSha) {
      summary.collections++;
      continue;
    }
    const text = await reader.read(file);
    summary.filesRead++;
    const problem = await storeCollection(db, sourceId, file, text, { commitSha: revision, blobSha: file.blobSha });
    if (problem) problems.add(file.path, [problem]);
    else summary.collections++;
  }
  // a collection deleted from the source no longer resolves (runs keep their resolved model lists)
  await db.modelCollection.deleteMany({ where: { sourceId, name: { notIn: files.map((f) => f.name) } } });
}

/** Stores a model collection (with the revision and blob it was read at); a malformed one is reported and leaves the stored one as it was. */
async function storeCollection(db: Db, sourceId: string, file: CollectionFile, rawText: string, at: { commitSha: string | null; blobSha: string | null }): Promise<string | null> {
  const { path, name } = file;
  if (rawText.length > BLUEPRINT_LIMITS.maxFileBytes) {
    return `${path}:1:1: the file is over the limit of ${BLUEPRINT_LIMITS.maxFileBytes.toLocaleString('en-US')} bytes (${rawText.length.toLocaleString('en-US')} characters); a model collection is a short JSON list of model ids (docs/limits.md)`;
  }
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
