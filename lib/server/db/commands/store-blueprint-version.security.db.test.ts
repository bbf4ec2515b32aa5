/**
 * Issue 11, finding 5 (the blueprint half): a blueprint with `\0` passed validation and then
 * crashed when stored. Through the real local sync into a real database: a raw NUL and an
 * escaped one are rejected at their line and column, and the rejected version is stored (its
 * raw text with U+FFFD for the NUL, hashed as read) instead of failing the sync.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localFolderReader } from '../../blueprints/local-folder-reader';
import { syncSource } from '../../blueprints/sync-source';
import { freshDatabase, type TestDatabase } from '../db.testkit';
import { contentHash } from './store-blueprint-version';

let t: TestDatabase;
let dir: string;
const RAW_NUL = 'title: Raw\nprompts:\n  - prompt: "a\0b"\n';
const ESCAPED_NUL = 'title: Escaped\nprompts:\n  - prompt: hi\n    should: ["x\\0y"]\n';
const JSON_NUL = '{"title": "J", "prompts": [{"prompt": "hi\\u0000"}]}';

beforeAll(async () => {
  t = await freshDatabase();
  dir = await mkdtemp(join(tmpdir(), 'assay-nul-'));
  await writeFile(join(dir, 'raw.yml'), RAW_NUL);
  await writeFile(join(dir, 'escaped.yml'), ESCAPED_NUL);
  await writeFile(join(dir, 'json.json'), JSON_NUL);
  await writeFile(join(dir, 'fine.yml'), 'title: Fine\nprompts:\n  - prompt: hi\n');
});
afterAll(async () => {
  await Promise.all([t?.close(), dir && rm(dir, { recursive: true, force: true })]);
});

describe(`blueprints with text PostgreSQL refuses (${process.env.ASSAY_TEST_DB})`, () => {
  it('are rejected at their line and column and stored as invalid versions; the sync completes', async () => {
    const summary = await syncSource({ db: t.db }, localFolderReader(dir), { trigger: 'test' });
    expect(summary).toMatchObject({ added: 4, invalid: 3 });
    expect(summary.errors).toEqual([
      'escaped.yml:4:14: this value contains a NUL character (U+0000), which cannot be stored',
      'json.json:1:39: this value contains a NUL character (U+0000), which cannot be stored',
      'raw.yml:3:15: the file contains a NUL character (U+0000), which cannot be stored',
    ]);
    const versions = await t.db.blueprintVersion.findMany({ select: { path: true, valid: true, rawText: true, contentHash: true }, orderBy: { path: 'asc' } });
    expect(versions.map((v) => [v.path, v.valid])).toEqual([['escaped.yml', false], ['fine.yml', true], ['json.json', false], ['raw.yml', false]]);
    const raw = versions.find((v) => v.path === 'raw.yml')!;
    expect(raw.rawText).toBe(RAW_NUL.replace('\0', '\uFFFD'));
    expect(raw.contentHash).toBe(contentHash(RAW_NUL));
    expect((await t.db.syncRecord.findFirstOrThrow({ orderBy: { startedAt: 'desc' } })).status).toBe('completed');
  });

  it('an unchanged file is not stored again (the hash is of the text as read)', async () => {
    const summary = await syncSource({ db: t.db }, localFolderReader(dir), { trigger: 'test' });
    expect(summary).toMatchObject({ added: 0, changed: 0, unchanged: 4, invalid: 3 });
  });
});
