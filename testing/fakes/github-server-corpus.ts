/** The fake GitHub repository's first commit: every file of the Weval configs corpus. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `../shared/corpus/weval-configs` beside the project (ASSAY_CORPUS_DIR overrides). */
export function corpusDir(): string {
  return process.env.ASSAY_CORPUS_DIR ?? fileURLToPath(new URL('../../../shared/corpus/weval-configs', import.meta.url));
}

export function corpusFiles(dir = corpusDir()): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const abs = join(entry.parentPath, entry.name);
    files[relative(dir, abs).split(sep).join('/')] = readFileSync(abs, 'utf8');
  }
  if (Object.keys(files).length === 0) throw new Error(`the corpus folder ${dir} is empty or missing; set ASSAY_CORPUS_DIR`);
  return files;
}
