/**
 * The behaviour every SourceReader must give the sync use case, run against each adapter
 * (one shared suite for every adapter of the port, as providers/llm-client-contract.testkit.ts is for the LLM clients): the local folder on a
 * temporary folder, the GitHub repository through the real Octokit adapter against the fake
 * GitHub server over HTTP. Both start from the same real blueprint files (suiteFiles). Adapter test files
 * call `syncSourceSuite`; nothing here is mocked. For `*.db.test.ts` files only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusFiles } from '@/testing/fakes/github-server-corpus';
import { WEVAL_CORPUS } from '@/testing/outside-data';
import { blueprintIdFromPath } from '@/lib/core';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { listBlueprints } from '../db/queries/blueprint-list';
import { BROKEN_BLUEPRINT, GOOD_BLUEPRINT } from '../github/github.testkit';
import { syncSource, type SourceReader, type SyncSummary } from './sync-source';

/** A source under test. Paths are in a repository's layout (`blueprints/…`, `models/…`). */
export interface SyncSourceFixture {
  reader: SourceReader;
  /** Writes (text) or deletes (null) files in the source. */
  change(files: Record<string, string | null>): Promise<void>;
  /** The path a repository-layout path is stored under for this source (a folder is its own `blueprints/`). */
  storedPath(path: string): string;
  close(): Promise<void>;
}

export interface SyncSourceAdapter {
  name: string;
  /** The listing names each file's content (a blob SHA), so unchanged files are not read. */
  knowsContent: boolean;
  start(files: Record<string, string>): Promise<SyncSourceFixture>;
}

/**
 * Real blueprints, some at the top of `blueprints/` and one nested, two real model collections,
 * and a file that is neither: from the Weval corpus (six blueprints, five at the top) when it is
 * there, else from what the fake serves without it (this repository's five plain examples, four
 * moved to the top).
 */
export function suiteFiles(): Record<string, string> {
  const served = corpusFiles();
  const yml = Object.keys(served).filter((p) => /^blueprints\/.+\.yml$/.test(p)).sort();
  const others = ['models/CORE.json', 'models/QUICK.json', 'README.md'].map((p) => [p, served[p]!]);
  if (!WEVAL_CORPUS) {
    const [nested, ...top] = yml.filter((p) => p.startsWith('blueprints/examples/'));
    return Object.fromEntries([...top.map((p) => [p.replace('blueprints/examples/', 'blueprints/'), served[p]!]), [nested!, served[nested!]!], ...others]);
  }
  const top = yml.filter((p) => p.split('/').length === 2).slice(0, 5);
  const nested = yml.find((p) => p.split('/').length > 2)!;
  return Object.fromEntries([...[...top, nested].map((p) => [p, served[p]!]), ...others]);
}

const idOf = (path: string) => blueprintIdFromPath(path.slice('blueprints/'.length));

export function syncSourceSuite(adapter: SyncSourceAdapter): void {
  describe(`the sync use case over the ${adapter.name} reader (${process.env.ASSAY_TEST_DB})`, () => {
    let t: TestDatabase;
    let source: SyncSourceFixture;
    const files = suiteFiles();
    const blueprints = Object.keys(files).filter((p) => p.startsWith('blueprints/'));
    const n = blueprints.length;
    const sync = (force = false): Promise<SyncSummary> => syncSource({ db: t.db }, source.reader, { trigger: 'test', force });
    const latestVersions = async () => new Map((await t.db.blueprint.findMany({ select: { id: true, latestVersionId: true } })).map((b) => [b.id, b.latestVersionId]));

    beforeAll(async () => {
      [t, source] = await Promise.all([freshDatabase(), adapter.start(files)]);
    });
    afterAll(async () => {
      await Promise.all([t?.close(), source?.close()]);
    });

    it('a first sync stores a version of every blueprint, valid or not, and the model collections', async () => {
      const s = await sync();
      expect(s).toMatchObject({ kind: source.reader.describe().kind, added: n, changed: 0, unchanged: 0, removed: 0, collections: 2, upToDate: false });
      expect(s.filesRead).toBe(n + 2);
      expect(s.invalid).toBe(await t.db.blueprintVersion.count({ where: { valid: false } }));
      for (const e of s.errors) expect(e).toMatch(/^\S+:\d+:\d+: /);

      const versions = await t.db.blueprintVersion.findMany({ select: { blueprintId: true, path: true, sourceCommit: true } });
      expect(versions.map((v) => [v.blueprintId, v.path]).sort()).toEqual(blueprints.map((p) => [idOf(p), source.storedPath(p)]).sort());
      expect(versions.every((v) => v.sourceCommit === s.revision)).toBe(true);
      const core = await t.db.modelCollection.findFirst({ where: { name: 'CORE' } });
      expect(core?.models).toEqual(JSON.parse(files['models/CORE.json']!));

      const row = await t.db.blueprintSource.findUniqueOrThrow({ where: { id: s.sourceId } });
      expect(row).toMatchObject({ key: source.reader.describe().key, lastSyncedSha: s.revision, lastSyncError: null });
      expect(await t.db.syncRecord.findFirst({ orderBy: { startedAt: 'desc' } })).toMatchObject({ status: 'completed', trigger: 'test', commitSha: s.revision, added: n, invalid: s.invalid, blobsFetched: n + 2 });
    });

    it('a second sync with no change stores nothing new', async () => {
      const before = await t.db.blueprintVersion.count();
      const again = await sync();
      // a source with revisions sees its revision was synced and stops there
      if (again.revision !== null) expect(again).toMatchObject({ upToDate: true, added: 0, changed: 0, filesRead: 0 });
      else expect(again).toMatchObject({ upToDate: false, added: 0, changed: 0, unchanged: n, removed: 0 });
      // listing everything again (forced) compares every file and still stores nothing
      const forced = await sync(true);
      expect(forced).toMatchObject({ upToDate: false, added: 0, changed: 0, unchanged: n, removed: 0, collections: 2, filesRead: adapter.knowsContent ? 0 : n + 2 });
      expect(await t.db.blueprintVersion.count()).toBe(before);
    });

    it('a changed file makes a new version, and only that one', async () => {
      const [path] = blueprints;
      const before = await latestVersions();
      await source.change({ [path!]: GOOD_BLUEPRINT });
      const s = await sync();
      expect(s).toMatchObject({ added: 0, changed: 1, unchanged: n - 1, removed: 0, filesRead: adapter.knowsContent ? 1 : n + 2 });
      expect(await t.db.blueprintVersion.count({ where: { blueprintId: idOf(path!) } })).toBe(2);
      const b = await t.db.blueprint.findUniqueOrThrow({ where: { id: idOf(path!) }, select: { title: true, latestVersion: { select: { path: true, valid: true, sourceCommit: true } } } });
      expect(b).toEqual({ title: 'Greetings', latestVersion: { path: source.storedPath(path!), valid: true, sourceCommit: s.revision } });
      const after = await latestVersions();
      expect([...after].filter(([id, v]) => before.get(id) !== v).map(([id]) => id)).toEqual([idOf(path!)]);
    });

    it('a broken file is reported at file:line:col, stored invalid, and changes nothing else', async () => {
      const path = 'blueprints/nested/broken.yml';
      const before = await latestVersions();
      const invalidBefore = await t.db.blueprintVersion.count({ where: { valid: false } });
      await source.change({ [path]: BROKEN_BLUEPRINT });
      const s = await sync();
      expect(s).toMatchObject({ added: 1, changed: 0, unchanged: n, removed: 0, invalid: invalidBefore + 1 });
      expect(s.errors).toContain(`${source.storedPath(path)}:7:7: unknown point function "no_such_function"`);
      const broken = await t.db.blueprint.findUniqueOrThrow({ where: { id: 'nested__broken' }, select: { latestVersion: { select: { valid: true } } } });
      expect(broken.latestVersion?.valid).toBe(false);
      const after = await latestVersions();
      expect([...before].every(([id, v]) => after.get(id) === v)).toBe(true);
      expect((await listBlueprints(t.db)).find((b) => b.id === 'nested__broken')).toMatchObject({ valid: false });
    });

    it('a malformed model collection is reported at file:1:1 and the stored one is kept', async () => {
      await source.change({ 'models/CORE.json': '{"not": "a list"' });
      const s = await sync();
      expect(s.errors.some((e) => e.startsWith('models/CORE.json:1:1: model collection is not valid JSON'))).toBe(true);
      expect(s.collections).toBe(1);
      expect((await t.db.modelCollection.findFirst({ where: { name: 'CORE' } }))?.models).toEqual(JSON.parse(files['models/CORE.json']!));
      await source.change({ 'models/CORE.json': files['models/CORE.json']! });
    });

    it('a removed file is marked removed, keeping its versions; a removed collection is dropped; a file put back returns', async () => {
      const path = blueprints[1]!;
      await source.change({ [path]: null, 'models/QUICK.json': null });
      const s = await sync();
      expect(s).toMatchObject({ added: 0, changed: 0, removed: 1, collections: 1 });
      expect(await t.db.blueprint.findUnique({ where: { id: idOf(path) }, select: { removedAt: true, _count: { select: { versions: true } } } })).toMatchObject({ removedAt: expect.any(Date), _count: { versions: 1 } });
      expect((await listBlueprints(t.db)).map((b) => b.id)).not.toContain(idOf(path));
      expect(await t.db.modelCollection.findFirst({ where: { name: 'QUICK' } })).toBeNull();

      await source.change({ [path]: files[path]! });
      const back = await sync();
      expect(back).toMatchObject({ added: 1, removed: 0 });
      expect(await t.db.blueprint.findUnique({ where: { id: idOf(path) }, select: { removedAt: true, _count: { select: { versions: true } } } })).toEqual({ removedAt: null, _count: { versions: 1 } });
    });
  });
}
