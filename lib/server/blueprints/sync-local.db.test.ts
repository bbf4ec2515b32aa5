import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, writeFile, mkdir, rm, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabase, type TestDatabase } from '../db/testing';
import { syncLocalFolder } from './sync-local';
import { listBlueprints } from '../db/queries/blueprint-list';

let t: TestDatabase;
let dir: string;

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

describe(`local blueprint sync (${process.env.ASSAY_TEST_DB})`, () => {
  it('stores every file, valid or not, with ids from paths and errors with line and column', async () => {
    const s = await syncLocalFolder(t.db, dir, 'test');
    expect(s).toMatchObject({ added: 2, changed: 0, unchanged: 0, removed: 0, invalid: 1, collections: 1 });
    expect(s.errors[0]).toMatch(/^nested\/broken\.yml:\d+:\d+: /);
    const list = await listBlueprints(t.db);
    expect(list.map((b) => [b.id, b.title, b.promptCount, b.valid])).toEqual([
      ['greetings', 'Greetings', 2, true],
      ['nested__broken', 'nested__broken', 0, false],
    ]);
    const greetings = list.find((b) => b.id === 'greetings');
    expect(greetings?.tags).toEqual(['demo', 'small']);
    const prompts = await t.db.versionPrompt.findMany({ orderBy: { position: 'asc' }, select: { promptKey: true, pointCount: true } });
    expect(prompts).toEqual([
      { promptKey: 'hi', pointCount: 1 },
      { promptKey: 'bye', pointCount: 1 },
    ]);
    const core = await t.db.modelCollection.findFirst({ where: { name: 'CORE' } });
    expect(core?.models).toEqual(['openai:gpt-4o-mini', 'anthropic:claude-3-5-haiku-latest']);
  });

  it('is idempotent: a second sync of the same files stores nothing new', async () => {
    const before = await t.db.blueprintVersion.count();
    const s = await syncLocalFolder(t.db, dir, 'test');
    expect(s).toMatchObject({ added: 0, changed: 0, unchanged: 2, removed: 0 });
    expect(await t.db.blueprintVersion.count()).toBe(before);
  });

  it('stores a changed file as a new version and marks a deleted file removed, keeping its history', async () => {
    await writeFile(join(dir, 'greetings.yml'), GOOD.replace('Says hello', 'Says hello, v2'));
    await rm(join(dir, 'nested', 'broken.yml'));
    const s = await syncLocalFolder(t.db, dir, 'test');
    expect(s).toMatchObject({ added: 0, changed: 1, removed: 1 });
    expect(await t.db.blueprintVersion.count({ where: { blueprintId: 'greetings' } })).toBe(2);
    const list = await listBlueprints(t.db);
    expect(list.map((b) => b.id)).toEqual(['greetings']);
    expect(list[0]?.description).toBe('Says hello, v2');
    expect(await t.db.blueprint.findUnique({ where: { id: 'nested__broken' } })).toMatchObject({ removedAt: expect.any(Date) });
  });

  it('reports a malformed model collection and keeps the stored one', async () => {
    await writeFile(join(dir, 'models', 'CORE.json'), '{"not": "a list"');
    const s = await syncLocalFolder(t.db, dir, 'test');
    expect(s.errors.some((e) => e.startsWith('models/CORE.json:1:1: model collection is not valid JSON'))).toBe(true);
    const core = await t.db.modelCollection.findFirst({ where: { name: 'CORE' } });
    expect(core?.models).toEqual(['openai:gpt-4o-mini', 'anthropic:claude-3-5-haiku-latest']);
    expect(await readdir(join(dir, 'models'))).toEqual(['CORE.json']);
  });

  it('syncs the shipped example blueprints, all valid', async () => {
    const s = await syncLocalFolder(t.db, 'blueprints', 'test');
    expect(s.errors).toEqual([]);
    expect(s.invalid).toBe(0);
    expect(s.added).toBeGreaterThanOrEqual(5);
  });
});
