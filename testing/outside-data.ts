/**
 * Where the test data that is not in this repository lives, and the suites that need it.
 *
 * Two folders come from outside: the Weval corpus (a copy of the public weval-org/configs
 * repository: `blueprints/` and `models/`) and the Weval conformance vectors (JSON files recorded
 * by running Weval's own code). Each is named by an environment variable, or else found beside
 * the repository (`../shared/...`, the layout CI uses). A folder that is not there, including a
 * variable set to a path that does not exist, is "absent": the suites that need it skip
 * (`describe.skipIf(!WEVAL_CORPUS)`), and vitest's global setup (outside-data.global-setup.ts)
 * prints one line naming them. A clone on its own therefore passes its tests, and says what it
 * did not run.
 *
 * This is the only file that spells the `../shared` paths; every reader asks it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPOSITORY = fileURLToPath(new URL('..', import.meta.url));

export const CORPUS_VARIABLE = 'ASSAY_WEVAL_CORPUS';
export const CONFORMANCE_VARIABLE = 'ASSAY_WEVAL_CONFORMANCE';
/** The defaults, relative to the repository's folder. */
export const CORPUS_BESIDE = '../shared/corpus/weval-configs';
export const CONFORMANCE_BESIDE = '../shared/conformance/weval';

/** The variable's folder (relative to the working directory), else the default beside the repository; null if that folder does not exist. */
export function outsideDir(variable: string, beside: string, env: Record<string, string | undefined> = process.env): string | null {
  const set = env[variable];
  const dir = set ? resolve(set) : resolve(REPOSITORY, beside);
  return existsSync(dir) && statSync(dir).isDirectory() ? dir : null;
}

/** The Weval corpus folder (holding `blueprints/` and `models/`), or null when absent. */
export const WEVAL_CORPUS: string | null = outsideDir(CORPUS_VARIABLE, CORPUS_BESIDE);
/** The Weval conformance vectors folder (`parser-cases.json`, …), or null when absent. */
export const WEVAL_CONFORMANCE: string | null = outsideDir(CONFORMANCE_VARIABLE, CONFORMANCE_BESIDE);

/** Why a folder is absent, e.g. "ASSAY_WEVAL_CORPUS not set and ../shared/corpus/weval-configs absent". */
function absence(variable: string, beside: string): string {
  const set = process.env[variable];
  return set ? `${variable}=${set} does not exist` : `${variable} not set and ${beside} absent`;
}
const howToGet = {
  [CORPUS_VARIABLE]: absence(CORPUS_VARIABLE, CORPUS_BESIDE),
  [CONFORMANCE_VARIABLE]: absence(CONFORMANCE_VARIABLE, CONFORMANCE_BESIDE),
};

/** A suite's title, with why it is skipped when its data is absent (vitest's skipIf takes no reason). */
export function needsCorpus(title: string): string {
  return WEVAL_CORPUS ? title : `${title} (skipped: ${howToGet[CORPUS_VARIABLE]})`;
}
export function needsConformance(title: string): string {
  return WEVAL_CONFORMANCE ? title : `${title} (skipped: ${howToGet[CONFORMANCE_VARIABLE]})`;
}
export function needsBoth(title: string): string {
  return needsCorpus(needsConformance(title));
}

/** Every file under `dir`, keyed by its path relative to `dir` with `/` separators; {} when `dir` is null. */
export function filesUnder(dir: string | null, keep: (path: string) => boolean = () => true): Record<string, string> {
  const files: Record<string, string> = {};
  if (!dir) return files;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const abs = join(entry.parentPath, entry.name);
    const path = relative(dir, abs).split(sep).join('/');
    if (keep(path)) files[path] = readFileSync(abs, 'utf8');
  }
  return Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The corpus's blueprint files (`blueprints/….{yml,yaml,json}`, keyed from the corpus folder), sorted; {} when absent. */
export function corpusBlueprints(): Record<string, string> {
  return filesUnder(WEVAL_CORPUS, (path) => path.startsWith('blueprints/') && /\.(ya?ml|json)$/.test(path));
}

/** One file of the corpus (e.g. `models/CORE.json`); throws when the corpus is absent, so call it only inside a suite that skips without it. */
export function corpusFile(path: string): string {
  if (!WEVAL_CORPUS) throw new Error(`the Weval corpus is absent (${howToGet[CORPUS_VARIABLE]})`);
  return readFileSync(join(WEVAL_CORPUS, path), 'utf8');
}

/** One vector file's text, or null when the conformance folder is absent. */
export function conformanceText(name: string): string | null {
  return WEVAL_CONFORMANCE ? readFileSync(join(WEVAL_CONFORMANCE, name), 'utf8') : null;
}

/** For a bench (bench/*.bench.ts) that needs the corpus: true, having printed that it skipped and why, when the corpus is absent. */
export function benchSkipsWithoutCorpus(bench: string): boolean {
  if (WEVAL_CORPUS) return false;
  console.log(`${bench}: skipped, the Weval corpus is absent (${howToGet[CORPUS_VARIABLE]}); README.md, "Test it", says how to get it`);
  return true;
}

/**
 * The suites that need outside data, by file, and which. outside-data.test.ts checks this list
 * against the files that import this module, so it cannot fall behind.
 */
export const OUTSIDE_DATA_SUITES: ReadonlyArray<{ file: string; needs: readonly ('corpus' | 'conformance')[] }> = [
  { file: 'lib/core/blueprint/corpus.test.ts', needs: ['corpus'] },
  { file: 'lib/core/blueprint/conformance.test.ts', needs: ['corpus', 'conformance'] },
  { file: 'lib/core/blueprint/fast-tree.test.ts', needs: ['corpus'] },
  { file: 'lib/core/blueprint/source-schema.test.ts', needs: ['corpus'] },
  { file: 'lib/core/blueprint/contract.test.ts', needs: ['corpus'] },
  { file: 'lib/core/authoring/round-trip.test.ts', needs: ['corpus'] },
  { file: 'lib/core/points/weval-conformance.test.ts', needs: ['conformance'] },
  { file: 'lib/core/scoring/weval-conformance.test.ts', needs: ['conformance'] },
  { file: 'lib/cli/commands/validate.test.ts', needs: ['corpus'] },
  { file: 'lib/server/runs/chat/tool-use.db.test.ts', needs: ['corpus'] },
  { file: 'lib/server/github/repository-reader.db.test.ts', needs: ['corpus'] },
];

/**
 * The one line to print when some data is absent (null when all is present): which variable is
 * missing, which suites skip (wholly or in part), and where the data comes from.
 */
export function outsideDataNotice(corpus = WEVAL_CORPUS, conformance = WEVAL_CONFORMANCE): string | null {
  const missing: ('corpus' | 'conformance')[] = [];
  if (!corpus) missing.push('corpus');
  if (!conformance) missing.push('conformance');
  if (missing.length === 0) return null;
  const why = missing.map((m) => howToGet[m === 'corpus' ? CORPUS_VARIABLE : CONFORMANCE_VARIABLE]).join('; ');
  const skipped = OUTSIDE_DATA_SUITES.filter((s) => s.needs.some((n) => missing.includes(n))).map((s) => s.file);
  const how = missing.map((m) => (m === 'corpus' ? `${CORPUS_VARIABLE} at a checkout of github.com/weval-org/configs` : `${CONFORMANCE_VARIABLE} at Weval's conformance vectors`)).join(' and ');
  return `outside data: ${why}: skipping (in whole or in part) ${skipped.join(', ')}; to run them, set ${how} (README.md, "Test it").`;
}
