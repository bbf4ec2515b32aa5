/** Expands CLI path arguments (files or folders, recursively) into blueprint files. */
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';

const BLUEPRINT_FILE = /\.(ya?ml|json)$/i;

export async function expandPaths(paths: string[]): Promise<{ files: string[]; missing: string[] }> {
  const files: string[] = [];
  const missing: string[] = [];
  for (const p of paths) {
    const info = await stat(p).catch(() => null);
    if (!info) missing.push(p);
    else if (info.isDirectory()) {
      const entries = await readdir(p, { recursive: true, withFileTypes: true });
      files.push(
        ...entries
          .filter((e) => e.isFile() && BLUEPRINT_FILE.test(e.name))
          .map((e) => join(e.parentPath, e.name))
          .sort(),
      );
    } else files.push(p);
  }
  return { files, missing };
}

/**
 * The path a blueprint id is derived from, as in Weval: relative to the `blueprints/`
 * folder that holds it (`blueprints/a/b.yml` → `a/b.yml`), or the file name elsewhere.
 */
export function repoRelativePath(file: string): string {
  const parts = resolve(file).split(sep);
  const at = parts.lastIndexOf('blueprints');
  if (at >= 0 && at < parts.length - 1) return parts.slice(at + 1).join('/');
  return basename(file);
}

export function displayPath(file: string): string {
  const rel = relative(process.cwd(), resolve(file));
  return rel.startsWith('..') ? file : rel;
}

/**
 * The repository a file belongs to: the nearest folder above it holding `.git` (a folder, or a
 * file in a worktree), else the file's own folder. A retrieval blueprint's data paths may not
 * leave it, as they may not leave a synced repository.
 */
export async function repositoryRoot(file: string): Promise<string> {
  const start = dirname(resolve(file));
  for (let dir = start; ; dir = dirname(dir)) {
    if (await stat(join(dir, '.git')).then(() => true, () => false)) return dir;
    if (dirname(dir) === dir) return start;
  }
}
