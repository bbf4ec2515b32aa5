/**
 * Writers of the same blueprint at once (two CLIs, a webhook sync beside the start-up sync):
 * each write is idempotent under the race, so every writer succeeds and one set of rows results.
 * Separate clients, as separate processes would be: each has its own connections.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBlueprint } from '@/lib/core';
import { localFolderReader } from '../../blueprints/local-folder-reader';
import { syncSource } from '../../blueprints/sync-source';
import { ensureGitHubSource } from '../../github/source';
import { createDb, type Db } from '../client';
import { freshDatabase, type TestDatabase } from '../db.testkit';
import { storeBlueprintVersion } from './store-blueprint-version';

const WRITERS = 4;
const TEXT = 'title: Raced\n---\n- id: one\n  prompt: hi\n  should: [{ $contains: hi }]\n- id: two\n  prompt: ho\n';

let t: TestDatabase;
let dir: string;
let clients: Db[];

beforeAll(async () => {
  t = await freshDatabase();
  // PGlite serves one connection at a time: there the writers queue, here that must still work
  clients = Array.from({ length: WRITERS }, () => createDb(t.url));
  dir = await mkdtemp(join(tmpdir(), 'assay-race-'));
  await writeFile(join(dir, 'first.yml'), TEXT.replace('Raced', 'First'));
  await writeFile(join(dir, 'second.yml'), TEXT.replace('Raced', 'Second'));
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.$disconnect()));
  await Promise.all([t?.close(), dir && rm(dir, { recursive: true, force: true })]);
});

describe(`concurrent writers of one blueprint (${process.env.ASSAY_TEST_DB})`, () => {
  it('the same GitHub source ensured at once: one row, every caller gets it', async () => {
    const src = { owner: 'o', repo: 'r', branch: 'main' } as Parameters<typeof ensureGitHubSource>[1];
    const rows = await Promise.all(clients.map((c) => ensureGitHubSource(c, src)));
    expect(new Set(rows.map((r) => r.id)).size).toBe(1);
    expect(await t.db.blueprintSource.count({ where: { kind: 'github' } })).toBe(1);
  });

  it('the same version stored at once: one blueprint, one version, its prompts once', async () => {
    const source = await t.db.blueprintSource.create({ data: { key: 'local:race', kind: 'local', localPath: '.' } });
    const parsed = parseBlueprint(TEXT, { file: 'raced.yml' });
    const stored = await Promise.all(
      clients.map((c) => storeBlueprintVersion(c, source.id, 'raced', { path: 'raced.yml', rawText: TEXT, sourceCommit: null, blobSha: null }, parsed)),
    );
    expect(new Set(stored.map((s) => s.versionId)).size).toBe(1);
    expect(stored.filter((s) => s.created)).toHaveLength(1);
    expect(await t.db.blueprintVersion.count({ where: { blueprintId: 'raced' } })).toBe(1);
    expect(await t.db.versionPrompt.count({ where: { versionId: stored[0]!.versionId } })).toBe(2);
    expect((await t.db.blueprint.findUniqueOrThrow({ where: { id: 'raced' } })).latestVersionId).toBe(stored[0]!.versionId);
  });

  it('an unpublished version (a pull request’s, a rescore’s rubric) stored at once: one version', async () => {
    // publish: false does not write the blueprint row, so nothing serialises the writers before the version insert
    const { sourceId } = await t.db.blueprint.findUniqueOrThrow({ where: { id: 'raced' } });
    const text = TEXT.replace('prompt: ho', 'prompt: changed');
    const parsed = parseBlueprint(text, { file: 'raced.yml' });
    const stored = await Promise.all(
      clients.map((c) => storeBlueprintVersion(c, sourceId, 'raced', { path: 'raced.yml', rawText: text, sourceCommit: 'abc', blobSha: null }, parsed, { publish: false })),
    );
    expect(new Set(stored.map((s) => s.versionId)).size).toBe(1);
    expect(await t.db.blueprintVersion.count({ where: { blueprintId: 'raced' } })).toBe(2);
    expect(await t.db.versionPrompt.count({ where: { versionId: stored[0]!.versionId } })).toBe(2);
  });

  it('one folder synced at once on a fresh source: every sync completes, one source row', async () => {
    const summaries = await Promise.all(clients.map((c) => syncSource({ db: c }, localFolderReader(dir), { trigger: 'test' })));
    expect(new Set(summaries.map((s) => s.sourceId)).size).toBe(1);
    expect(summaries.every((s) => s.errors.length === 0)).toBe(true);
    expect(await t.db.syncRecord.count({ where: { status: 'completed' } })).toBe(WRITERS);
    expect(await t.db.blueprint.count({ where: { sourceId: summaries[0]!.sourceId } })).toBe(2);
  });
});
