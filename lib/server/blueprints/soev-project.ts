/**
 * A soev project with its suites and corpus lookup, read through a file port (a folder on disk
 * for the CLI, a repository's tree for a sync): the project file, each suite's files by glob
 * (relative to the project's folder), the corpus JSONL. Each suite file becomes one blueprint,
 * parsed with the project's context (invariants, system, citations, messages, corpus, runs.k).
 *
 * Checked across files as soev's loader does: a suite glob matching nothing, a suite file
 * whose `name` is not the project's name for it, the files of one suite differing in
 * `id_pattern` or `defaults`, and a case id used twice in the project (ProjectError).
 */
import { posix } from 'node:path';
import {
  BLUEPRINT_LIMITS,
  formatIssue,
  matchGlob,
  parseBlueprint,
  parseSoevProject,
  RETRIEVAL_LIMITS,
  suiteContext,
  type BlueprintIssue,
  type ParseResult,
  type SoevProject,
} from '@/lib/core';
import { parse as parseYaml } from 'yaml';

export interface ProjectFiles {
  /** Every file path under the project's folder, relative to it, `/`-separated. */
  list(): Promise<string[]>;
  /**
   * A file's text by its path relative to the project's folder, at most `maxBytes` bytes; null when
   * it does not exist. A file that exists but may not be read (outside the folder, not a regular
   * file, too large) rejects with an error naming it.
   */
  read(path: string, maxBytes: number): Promise<string | null>;
}

export interface SoevSuiteFile {
  suite: string;
  /** Relative to the project's folder. */
  path: string;
  text: string;
  parsed: ParseResult;
}

export type LoadedSoevProject =
  | { ok: true; project: SoevProject; files: SoevSuiteFile[]; corpus: CorpusSummary | null; warnings: BlueprintIssue[] }
  | { ok: false; project: SoevProject | null; files: SoevSuiteFile[]; errors: BlueprintIssue[]; warnings: BlueprintIssue[] };

export interface CorpusSummary {
  path: string;
  units: number;
}

export interface LoadOptions {
  /** The project file's path relative to its folder (its name), as issues show it. */
  projectPath: string;
  /** Shown in issues before each file's path (`blueprints/soev-example/`), or ''. */
  prefix?: string;
  /** The system's base URL (the value of `system.url_env`), or null to load without a system (validate). */
  baseUrl: string | null;
  soevSystemSpec?: (project: SoevProject, baseUrl: string) => Record<string, unknown>;
}

/** The project file and its suite files: above the blueprint file limit, so the parser reports an oversized file as that file's issue. */
export const PROJECT_FILE_READ_LIMIT = 4 * BLUEPRINT_LIMITS.maxFileBytes;

export async function loadSoevProject(files: ProjectFiles, options: LoadOptions): Promise<LoadedSoevProject> {
  const prefix = options.prefix ?? '';
  const shown = (path: string) => `${prefix}${path}`;
  const errors: BlueprintIssue[] = [];
  const warnings: BlueprintIssue[] = [];
  const issue = (file: string, message: string, hint: string, at: { line: number; col: number } = { line: 1, col: 1 }, code: BlueprintIssue['code'] = 'schema'): BlueprintIssue => ({ severity: 'error', code, file, ...at, message, hint });
  // a file the project names that may not be read (a symlink out of the folder, a device, too large) is an error of that file
  const read = async (path: string, maxBytes: number): Promise<string | null | undefined> => {
    try {
      return await files.read(path, maxBytes);
    } catch (e) {
      errors.push(issue(shown(path), `cannot be read: ${e instanceof Error ? e.message : String(e)}`, 'Name a regular file inside the project folder (a symlink may not lead out of it), within the size limit.'));
      return undefined;
    }
  };
  const text = await read(options.projectPath, PROJECT_FILE_READ_LIMIT);
  if (text === undefined) return { ok: false, project: null, files: [], errors, warnings };
  if (text === null) return { ok: false, project: null, files: [], errors: [issue(shown(options.projectPath), 'no such project file', 'Check the path.')], warnings };
  const parsed = parseSoevProject(text, { file: shown(options.projectPath) });
  if (!parsed.ok) return { ok: false, project: null, files: [], errors: parsed.errors, warnings: parsed.warnings };
  const project = parsed.project;
  warnings.push(...parsed.warnings);

  const all = await files.list();
  const corpusPath = posix.normalize(project.corpus.path.replace(/\\/g, '/'));
  if (corpusPath.startsWith('/') || /^[A-Za-z]:\//.test(corpusPath) || corpusPath === '..' || corpusPath.startsWith('../')) {
    errors.push(issue(shown(options.projectPath), `corpus.path ${JSON.stringify(project.corpus.path)} leaves the project folder`, 'Write a path relative to the project file, inside its folder, e.g. `corpus/units.jsonl`.', lineOf(text, 'corpus')));
    return { ok: false, project, files: [], errors, warnings };
  }
  const corpusText = await read(corpusPath, RETRIEVAL_LIMITS.maxFileBytes);
  const corpus = corpusText == null ? null : checkCorpus(corpusText, shown(corpusPath), errors);
  if (corpusText === null) warnings.push({ ...issue(shown(options.projectPath), `the corpus lookup ${corpusPath} does not exist: the criteria that need the corpus will give \`error\``, `Write one JSON object per line, {"id": "…", "text": "…"}, at ${corpusPath} (corpus.path, relative to the project file).`, lineOf(text, 'corpus')), severity: 'warning', code: 'suspicious' });

  const out: SoevSuiteFile[] = [];
  const caseAt = new Map<string, string>();
  for (const [suite, glob] of Object.entries(project.suites)) {
    const paths = matchGlob(glob, all).filter((p) => p !== options.projectPath);
    if (paths.length === 0) {
      errors.push(issue(shown(options.projectPath), `the suite "${suite}" matches no file: ${glob}`, 'The glob is relative to the folder of the project file, e.g. `suites/huur*.yml`.', lineOf(text, `${suite}:`)));
      continue;
    }
    let first: { path: string; shape: string } | null = null;
    for (const path of paths) {
      const suiteText = await read(path, PROJECT_FILE_READ_LIMIT);
      if (suiteText == null) {
        if (suiteText === null) errors.push(issue(shown(path), 'the file was listed but cannot be found', 'Check that nothing removes files while the project loads.'));
        continue;
      }
      const relativeCorpus = posix.relative(posix.dirname(path), corpusPath);
      const systemSpec = options.baseUrl && options.soevSystemSpec ? options.soevSystemSpec(project, options.baseUrl) : null;
      const result = parseBlueprint(suiteText, { file: shown(path), soev: suiteContext(project, { systemSpec, corpusPath: relativeCorpus, suite }) });
      out.push({ suite, path, text: suiteText, parsed: result });
      warnings.push(...result.warnings);
      if (!result.ok) {
        errors.push(...result.errors);
        continue;
      }
      const doc = parseYaml(suiteText) as { name?: unknown; id_pattern?: unknown; defaults?: unknown } | null;
      if (doc?.name !== suite) errors.push(issue(shown(path), `the suite file names the suite ${JSON.stringify(doc?.name)}, but the project lists it under "${suite}"`, `Write \`name: ${suite}\`, or list the file under its own suite in ${options.projectPath}.`, lineOf(suiteText, 'name:')));
      // soev's load_suites: the files of one suite agree on id_pattern and defaults
      const shape = JSON.stringify([doc?.id_pattern ?? null, doc?.defaults ?? []]);
      if (first && first.shape !== shape) errors.push(issue(shown(path), `the files of the suite "${suite}" differ in \`id_pattern\` or \`defaults\` (${first.path} has others)`, 'Give every file of a suite the same id_pattern and defaults, or make them separate suites.', lineOf(suiteText, 'defaults:')));
      first ??= { path, shape };
      for (const prompt of result.blueprint.prompts) {
        const where = `${shown(path)}:${prompt.loc?.line ?? 1}:${prompt.loc?.col ?? 1}`;
        const earlier = caseAt.get(prompt.id);
        if (earlier) errors.push(issue(shown(path), `the case id "${prompt.id}" is already used at ${earlier}`, 'A case id is unique in its project (results are stored by case id).', prompt.loc ?? undefined, 'duplicate_id'));
        else caseAt.set(prompt.id, where);
      }
    }
  }
  if (errors.length > 0) return { ok: false, project, files: out, errors, warnings };
  return { ok: true, project, files: out, corpus: corpus === null ? null : { path: corpusPath, units: corpus }, warnings };
}

/** The corpus lookup: one JSON object a line with a non-empty `id` and a `text`; problems at line:col. */
function checkCorpus(text: string, file: string, errors: BlueprintIssue[]): number {
  let units = 0;
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      errors.push({ severity: 'error', code: 'syntax', file, line: i + 1, col: 1, message: `not a JSON object: ${(e as Error).message}`, hint: 'Write one JSON object per line: {"id": "law/1", "text": "…"}.' });
      return;
    }
    const unit = value as { id?: unknown; text?: unknown };
    if (!unit || typeof unit !== 'object' || typeof unit.id !== 'string' || unit.id === '' || typeof unit.text !== 'string') {
      errors.push({ severity: 'error', code: 'schema', file, line: i + 1, col: 1, message: 'a corpus unit needs a non-empty string `id` and a string `text`', hint: 'Write {"id": "law/1", "text": "…"}.' });
      return;
    }
    units++;
  });
  return units;
}

/** Where a key is first written, for cross-file issues that have no node (1:1 when not found). */
function lineOf(text: string, needle: string): { line: number; col: number } {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const col = lines[i]!.indexOf(needle);
    if (col >= 0 && !lines[i]!.trimStart().startsWith('#')) return { line: i + 1, col: col + 1 };
  }
  return { line: 1, col: 1 };
}

export function formatIssues(issues: BlueprintIssue[]): string {
  return issues.map(formatIssue).join('\n');
}
