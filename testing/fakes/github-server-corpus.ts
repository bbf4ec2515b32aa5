/**
 * The fake GitHub repository's first commit: every file of the Weval configs corpus when it is
 * there (ASSAY_WEVAL_CORPUS, testing/outside-data.ts); else this repository's own `blueprints/`
 * with two of Weval's model collections (testing/weval-copies) and a README, so a clone on its
 * own still has a realistic repository to sync.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { filesUnder, WEVAL_CORPUS } from '../outside-data';

const OWN_BLUEPRINTS = fileURLToPath(new URL('../../blueprints', import.meta.url));
const COPIES = fileURLToPath(new URL('../weval-copies', import.meta.url));

/** A copy of one of Weval's files (`models/CORE.json`, `blueprints/test.yml`; testing/weval-copies/README.md). */
export function wevalCopy(path: string): string {
  return readFileSync(`${COPIES}/${path}`, 'utf8');
}

/** The files the fake repository starts with, keyed by path (`blueprints/…`, `models/…`), sorted. */
export function corpusFiles(dir: string | null = WEVAL_CORPUS): Record<string, string> {
  if (dir) {
    const files = filesUnder(dir);
    if (Object.keys(files).length === 0) throw new Error(`the corpus folder ${dir} is empty`);
    return files;
  }
  const blueprints = Object.entries(filesUnder(OWN_BLUEPRINTS)).map(([path, text]) => [`blueprints/${path}`, text]);
  const models = Object.entries(filesUnder(`${COPIES}/models`)).map(([path, text]) => [`models/${path}`, text]);
  return Object.fromEntries([['README.md', '# Blueprints\n\nThe example blueprints of Assay, served by the fake GitHub.\n'], ...blueprints, ...models].sort(([a], [b]) => (a! < b! ? -1 : 1)));
}
