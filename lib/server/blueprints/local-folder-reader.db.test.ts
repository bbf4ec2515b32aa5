/**
 * The sync use case over the local-folder reader: the shared behaviour suite on a temporary
 * folder of real corpus files, then what is particular to a folder (ids from paths relative to
 * it, `models/*.json` as collections, the shipped examples, a folder that cannot be read).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { listBlueprints } from '../db/queries/blueprint-list';
import { localFolderReader } from './local-folder-reader';
import { syncSource } from './sync-source';
import { syncSourceSuite } from './sync-source.testkit';

/** A folder is its own `blueprints/`: `blueprints/a.yml` lives at `a.yml`, `models/` inside it. */
const inFolder = (path: string) => path.replace(/^blueprints\//, '');

syncSourceSuite({
  name: 'local folder',
  knowsContent: false,
  async start(files) {
    const dir = await mkdtemp(join(tmpdir(), 'assay-sync-suite-'));
    const change = async (changes: Record<string, string | null>) => {
      for (const [path, text] of Object.entries(changes)) {
        const abs = join(dir, inFolder(path));
        if (text === null) await rm(abs);
        else {
          await mkdir(dirname(abs), { recursive: true });
          await writeFile(abs, text);
        }
      }
    };
    await change(files);
    return { reader: localFolderReader(dir), change, storedPath: inFolder, close: () => rm(dir, { recursive: true, force: true }) };
  },
});

const GOOD = `title: Greetings
description: Says hello
tags: [demo, small]
prompts:
  - id: hi
    prompt: Say hello
    should:
      - $icontains: hello
  - id: bye
    prompt: Say goodbye
    should: ["Says goodbye politely"]
`;

describe(`local blueprint sync (${process.env.ASSAY_TEST_DB})`, () => {
  let t: TestDatabase;
  let dir: string;
  const sync = (folder = dir) => syncSource({ db: t.db }, localFolderReader(folder), { trigger: 'test' });

  beforeAll(async () => {
    t = await freshDatabase();
    dir = await mkdtemp(join(tmpdir(), 'assay-sync-'));
    await mkdir(join(dir, 'nested'), { recursive: true });
    await mkdir(join(dir, 'models'), { recursive: true });
    await writeFile(join(dir, 'greetings.yml'), GOOD);
    await writeFile(join(dir, 'nested', 'broken.yml'), 'title: Broken\nprompts:\n  - id: a\n    prompt: [unclosed\n');
    await writeFile(join(dir, 'models', 'CORE.json'), '["openai:gpt-4o-mini", "anthropic:claude-3-5-haiku-latest"]');
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('stores every file, valid or not, with ids from paths and errors with line and column', async () => {
    const s = await sync();
    expect(s).toMatchObject({ kind: 'local', revision: null, added: 2, changed: 0, unchanged: 0, removed: 0, invalid: 1, collections: 1 });
    expect(s.errors[0]).toMatch(/^nested\/broken\.yml:\d+:\d+: /);
    const list = await listBlueprints(t.db);
    expect(list.map((b) => [b.id, b.title, b.promptCount, b.valid])).toEqual([
      ['greetings', 'Greetings', 2, true],
      ['nested__broken', 'nested__broken', 0, false],
    ]);
    expect(list.find((b) => b.id === 'greetings')?.tags).toEqual(['demo', 'small']);
    const prompts = await t.db.versionPrompt.findMany({ orderBy: { position: 'asc' }, select: { promptKey: true, pointCount: true } });
    expect(prompts).toEqual([
      { promptKey: 'hi', pointCount: 1 },
      { promptKey: 'bye', pointCount: 1 },
    ]);
    const core = await t.db.modelCollection.findFirst({ where: { name: 'CORE' } });
    expect(core?.models).toEqual(['openai:gpt-4o-mini', 'anthropic:claude-3-5-haiku-latest']);
    const source = await t.db.blueprintSource.findUniqueOrThrow({ where: { id: s.sourceId } });
    expect(source).toMatchObject({ kind: 'local', localPath: dir, lastSyncedSha: null });
  });

  it('names the source by the folder relative to the working directory, however the folder is given', async () => {
    const here = localFolderReader('blueprints').describe();
    expect(here).toEqual({ kind: 'local', key: 'local:blueprints', localPath: join(process.cwd(), 'blueprints') });
    expect(localFolderReader(join(process.cwd(), 'blueprints')).describe()).toEqual(here);
    expect(localFolderReader('.').describe().key).toBe('local:.');
  });

  it('records a sync of a folder that cannot be read as failed, and leaves the stored blueprints as they were', async () => {
    const missing = join(dir, 'no-such-folder');
    await expect(sync(missing)).rejects.toThrow(/ENOENT/);
    const source = await t.db.blueprintSource.findFirstOrThrow({ where: { localPath: missing } });
    expect(source.lastSyncError).toMatch(/ENOENT/);
    expect(await t.db.syncRecord.findFirst({ where: { sourceId: source.id } })).toMatchObject({ status: 'failed', error: expect.stringMatching(/ENOENT/) });
    expect((await listBlueprints(t.db)).map((b) => b.id)).toEqual(['greetings', 'nested__broken']);
  });

  it('syncs the shipped example blueprints, all valid', async () => {
    const s = await sync('blueprints');
    expect(s.errors).toEqual([]);
    expect(s.invalid).toBe(0);
    expect(s.added).toBeGreaterThanOrEqual(5);
  });
});
