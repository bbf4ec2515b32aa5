/**
 * The example blueprints an author can start from: the files under `blueprints/examples/`.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

const EXAMPLES_DIR = path.join(process.cwd(), 'blueprints', 'examples');

export interface AuthorExample {
  /** The file name, e.g. `multi-turn-support.yml` (the `?example=` value). */
  name: string;
  yaml: string;
}

export async function listExampleNames(): Promise<string[]> {
  const names = await readdir(EXAMPLES_DIR).catch(() => [] as string[]);
  return names.filter((n) => /\.ya?ml$/.test(n)).sort();
}

/** The example of that name, or null (an unknown or path-like name is never read). */
export async function readExample(name: string): Promise<AuthorExample | null> {
  if (!(await listExampleNames()).includes(name)) return null;
  return { name, yaml: await readFile(path.join(EXAMPLES_DIR, name), 'utf8') };
}
