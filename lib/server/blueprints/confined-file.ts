/**
 * Reading a file that a blueprint or a project names, from the folder that holds it. The names
 * are untrusted (a blueprint comes from anyone's pull request), and a lexical check of the path
 * is not enough: `data/corpus.jsonl` may be a symlink to `/etc/passwd` or to `/dev/zero` (which
 * never ends). So a read here
 *
 *   - resolves the folder and the file with fs.realpath (every symlink followed) and refuses a
 *     file whose real path is outside the folder's real path;
 *   - reads regular files only (not a device, a FIFO, a socket or a folder);
 *   - reads at most `maxBytes + 1` bytes, and refuses the file when there are more.
 *
 * Every error names the file (as the caller wrote it) and, for the size, the limit.
 */
import { constants } from 'node:fs';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ProjectFiles } from './soev-project';

/** A file refused for where it leads, what it is or its size; `code` tells a caller which. */
export class ConfinedFileError extends Error {
  override name = 'ConfinedFileError';
  constructor(
    readonly code: 'outside' | 'not_a_file' | 'too_large',
    message: string,
  ) {
    super(message);
  }
}

/** Is the error "no such file" (ENOENT, or a path through something that is not a folder)? */
export function isMissingFile(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * The UTF-8 text of `path` (relative to `folder`), confined to `folder` after symlinks are
 * resolved, a regular file of at most `maxBytes` bytes. A missing file rejects with Node's own
 * ENOENT error (see isMissingFile); a refused one with ConfinedFileError.
 */
export async function readConfinedText(folder: string, path: string, maxBytes: number): Promise<string> {
  if (path.includes('\0')) throw new ConfinedFileError('outside', `${JSON.stringify(path)}: a file name cannot contain a NUL character`);
  const root = await realpath(folder);
  const real = await realpath(resolve(root, path));
  const rel = relative(root, real);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new ConfinedFileError('outside', `${path} leads outside its folder ${folder} (it resolves to ${real}); a file a blueprint names must be inside the folder, and a symlink may not point out of it`);
  }
  // stat before open: opening a FIFO for reading would wait for a writer
  if (!(await stat(real)).isFile()) throw new ConfinedFileError('not_a_file', `${path} is not a regular file (a device, a pipe or a folder); name a regular file inside ${folder}`);
  const handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    // the file may have been swapped between the checks and open: check what was opened
    const info = await handle.stat();
    if (!info.isFile()) throw new ConfinedFileError('not_a_file', `${path} is not a regular file; name a regular file inside ${folder}`);
    const tooLarge = () => new ConfinedFileError('too_large', `${path} is over the limit of ${maxBytes.toLocaleString('en-US')} bytes; use a smaller file`);
    if (info.size > maxBytes) throw tooLarge();
    // the size may have grown since fstat: read until the end, or one byte past the limit
    let buffer = Buffer.alloc(Math.min(info.size, maxBytes) + 1);
    let filled = 0;
    for (;;) {
      if (filled === buffer.length) {
        if (filled > maxBytes) throw tooLarge();
        const bigger = Buffer.alloc(Math.min(buffer.length * 2, maxBytes + 1));
        buffer.copy(bigger);
        buffer = bigger;
      }
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, null);
      if (bytesRead === 0) return buffer.subarray(0, filled).toString('utf8');
      filled += bytesRead;
    }
  } finally {
    await handle.close();
  }
}

/** A folder on disk as the project loader's file port: every regular file under it, read confined to it. */
export function folderFiles(folder: string): ProjectFiles {
  return {
    list: async () => (await readdir(folder, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => relative(folder, join(e.parentPath, e.name)).split(sep).join('/')),
    read: (path, maxBytes) => readConfinedText(folder, path, maxBytes).catch((e: unknown) => (isMissingFile(e) ? null : Promise.reject(e))),
  };
}
