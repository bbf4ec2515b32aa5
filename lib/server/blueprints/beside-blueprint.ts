import { RETRIEVAL_LIMITS } from '@/lib/core';
import { readConfinedText } from './confined-file';
import { resolveRetrievalPath } from './retrieval-files';

/**
 * A file a blueprint names, beside it in the local folder (the same resolution as a retrieval
 * blueprint's data files: never outside the root). A blueprint synced from GitHub is read from
 * the local folder too: reading it through the GitHub source is not built yet.
 */
export function besideBlueprint(root: string): (blueprintPath: string, relative: string) => Promise<string> {
  return async (blueprintPath, relative) => {
    const path = resolveRetrievalPath(blueprintPath, relative);
    if (path === null) throw new Error(`${relative} leaves the blueprint folder; write a path relative to ${blueprintPath}, inside the folder`);
    // a corpus lookup is a data file like a retrieval corpus: the same bound, and no symlink out of the root
    return readConfinedText(root, path, RETRIEVAL_LIMITS.maxFileBytes);
  };
}
