import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfinedFileError, isMissingFile, readConfinedText } from './confined-file';

let dir: string;
let folder: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'assay-confined-'));
  folder = join(dir, 'project');
  await mkdir(join(folder, 'data'), { recursive: true });
  await writeFile(join(dir, 'secret.txt'), 'outside the folder');
  await writeFile(join(folder, 'data', 'corpus.jsonl'), '{"id":"a","text":"b"}\n');
  await writeFile(join(folder, 'big.jsonl'), 'x'.repeat(101));
  await symlink(join(dir, 'secret.txt'), join(folder, 'data', 'escape.jsonl'));
  await symlink('../../secret.txt', join(folder, 'data', 'relative-escape.jsonl'));
  await symlink('/dev/zero', join(folder, 'zero.jsonl'));
  await symlink(join(folder, 'data', 'corpus.jsonl'), join(folder, 'inside-link.jsonl'));
  await symlink(dir, join(folder, 'up'));
  execFileSync('mkfifo', [join(folder, 'pipe.jsonl')]);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const refusal = async (path: string, limit = 1000) => {
  const e = await readConfinedText(folder, path, limit).then(() => null, (err: unknown) => err);
  expect(e).toBeInstanceOf(ConfinedFileError);
  return e as ConfinedFileError;
};

describe('reading a file a blueprint names', () => {
  it('reads a regular file inside the folder, also through a symlink that stays inside', async () => {
    expect(await readConfinedText(folder, 'data/corpus.jsonl', 1000)).toBe('{"id":"a","text":"b"}\n');
    expect(await readConfinedText(folder, 'inside-link.jsonl', 1000)).toBe('{"id":"a","text":"b"}\n');
  });

  it('refuses a symlink (absolute or relative, or a linked folder) whose target is outside the folder', async () => {
    for (const path of ['data/escape.jsonl', 'data/relative-escape.jsonl', 'up/secret.txt', '../secret.txt', join(dir, 'secret.txt')]) {
      const e = await refusal(path);
      expect(e.code).toBe('outside');
      expect(e.message).toContain(path);
    }
  });

  it('refuses a symlink to /dev/zero, and a named pipe, as not regular files (without reading them)', async () => {
    // /dev/zero is outside the folder too; a link to it inside a folder that holds /dev is refused as a device
    expect((await refusal('zero.jsonl')).code).toBe('outside');
    const device = await readConfinedText('/dev', 'zero', 1000).then(() => null, (err: unknown) => err as ConfinedFileError);
    expect(device?.code).toBe('not_a_file');
    const pipe = await refusal('pipe.jsonl');
    expect(pipe.code).toBe('not_a_file');
    expect(pipe.message).toContain('pipe.jsonl');
  });

  it('refuses a file over the limit, naming the file and the limit; a file at the limit is read', async () => {
    const e = await refusal('big.jsonl', 100);
    expect(e.code).toBe('too_large');
    expect(e.message).toContain('big.jsonl');
    expect(e.message).toContain('100 bytes');
    expect(await readConfinedText(folder, 'big.jsonl', 101)).toHaveLength(101);
  });

  it('tells a missing file apart from a refused one', async () => {
    const e = await readConfinedText(folder, 'data/none.jsonl', 1000).then(() => null, (err: unknown) => err);
    expect(isMissingFile(e)).toBe(true);
    expect(e).not.toBeInstanceOf(ConfinedFileError);
  });
});
