/**
 * The local folder's reader follows no symlink out of the folder: a blueprint names its data
 * files, and the name is checked lexically before asking (retrieval-files.ts), but a file inside
 * the folder may itself be a link to anywhere.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { besideBlueprint } from './beside-blueprint';
import { localFolderReader } from './local-folder-reader';

let dir: string;
let folder: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'assay-local-reader-'));
  folder = join(dir, 'blueprints');
  await mkdir(join(folder, 'retrieval'), { recursive: true });
  await writeFile(join(dir, 'secret.jsonl'), '{"_id": "secret"}\n');
  await writeFile(join(folder, 'retrieval', 'x.yml'), 'title: X\n');
  await writeFile(join(folder, 'retrieval', 'corpus.jsonl'), '{"_id": "d1", "text": "t"}\n');
  await symlink(join(dir, 'secret.jsonl'), join(folder, 'retrieval', 'escape.jsonl'));
  await symlink('/dev/zero', join(folder, 'retrieval', 'zero.jsonl'));
  await symlink(join(dir, 'secret.jsonl'), join(folder, 'linked.yml'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the local folder reader', () => {
  it('lists regular files only: a symlinked blueprint is not a blueprint of the folder', async () => {
    const paths = (await localFolderReader(folder, dir).list(null)).map((f) => f.path);
    expect(paths).toEqual(['retrieval/x.yml']);
  });

  it('reads a data file inside the folder and refuses symlinks out of it, to a file or to /dev/zero', async () => {
    const reader = localFolderReader(folder, dir);
    expect(await reader.readPath!('retrieval/corpus.jsonl', null)).toContain('d1');
    await expect(reader.readPath!('retrieval/escape.jsonl', null)).rejects.toThrow(/retrieval\/escape\.jsonl leads outside its folder/);
    await expect(reader.readPath!('retrieval/zero.jsonl', null)).rejects.toThrow(/retrieval\/zero\.jsonl leads outside its folder/);
    // a blueprint file swapped for a link after listing is refused the same way
    await expect(reader.read({ kind: 'blueprint', path: 'linked.yml', blobSha: null, blueprintId: 'linked' })).rejects.toThrow(/leads outside/);
  });

  it('reads a file a blueprint names at run time (a corpus lookup) under the same rules', async () => {
    const read = besideBlueprint(folder);
    expect(await read('retrieval/x.yml', 'corpus.jsonl')).toContain('d1');
    await expect(read('retrieval/x.yml', 'escape.jsonl')).rejects.toThrow(/leads outside/);
    await expect(read('retrieval/x.yml', 'zero.jsonl')).rejects.toThrow(/leads outside/);
    await expect(read('retrieval/x.yml', '../../secret.jsonl')).rejects.toThrow(/leaves the blueprint folder/);
  });
});
