/**
 * The SourceReader over a local folder (the source when no GitHub repository is configured,
 * `blueprints/` by default): every .yml/.yaml/.json file under it is a blueprint, its id from
 * its path (`a/b.yml` → `a__b`), except `models/*.json`, which are model collections. A folder
 * has no revisions, so every sync reads every file and compares it by content hash.
 */
import { readdir } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { BLUEPRINT_LIMITS, blueprintIdFromPath } from '@/lib/core';
import { readConfinedText } from './confined-file';
import { folderDataReader } from './retrieval-files';
import type { SourceFile, SourceReader } from './sync-source';

const BLUEPRINT_FILE = /\.(ya?ml|json)$/i;

/**
 * A blueprint or collection file is read up to this size: above the file limit, so that the
 * parser (written-limits.ts) still reports an oversized file as an issue of that file, yet bounded.
 */
export const LOCAL_BLUEPRINT_READ_LIMIT = 4 * BLUEPRINT_LIMITS.maxFileBytes;

/** `cwd` names the source (`local:<folder relative to it>`), so one folder is one source wherever it is given from. */
export function localFolderReader(folder: string, cwd = process.cwd()): SourceReader {
  const root = resolve(folder);
  const key = `local:${relative(cwd, root) || '.'}`;
  return {
    describe: () => ({ kind: 'local', key, localPath: root }),
    revision: async () => null,
    async list() {
      const entries = await readdir(root, { withFileTypes: true, recursive: true });
      return entries
        .filter((e) => e.isFile() && BLUEPRINT_FILE.test(e.name))
        .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
        .sort()
        .map((path): SourceFile =>
          path.startsWith('models/') && path.endsWith('.json')
            ? { kind: 'collection', path, blobSha: null, name: path.slice('models/'.length, -'.json'.length) }
            : { kind: 'blueprint', path, blobSha: null, blueprintId: blueprintIdFromPath(path) },
        );
    },
    // the list holds regular files only (a symlink's Dirent is no file), yet one may be swapped before it is read
    read: (file) => readConfinedText(root, file.path, LOCAL_BLUEPRINT_READ_LIMIT),
    // loadRetrievalFiles refuses paths that leave the folder before asking; this refuses symlinks that do
    readPath: folderDataReader(root),
  };
}
