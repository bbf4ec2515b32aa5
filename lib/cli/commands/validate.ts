/**
 * `assay validate PATH…`: loads every blueprint under the paths (folders recursively) exactly as
 * a sync or a run would, and reports each file: `file: ok (N prompts, M points)` or its
 * problems as `file:line:col: message` (the form editors and CI annotate), hints indented.
 * A retrieval blueprint's corpus, queries and qrels are read and checked too, their problems
 * reported at the data file's own path:line:col. `--json` prints one object per file per
 * line, with the normalised blueprint.
 */
import { readFile, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { BLUEPRINT_LIMITS, blueprintIdFromPath, isSoevProjectText, parseBlueprint, type BlueprintIssue, type RetrievalBlock } from '@/lib/core';
import { folderDataReader, loadRetrievalFiles } from '@/lib/server/blueprints/retrieval-files';
import { displayPath, expandPaths, repositoryRoot, repoRelativePath } from '../files';
import { casesOf, loadProjectFromDisk } from '../soev-files';
import { blueprintJson, type BlueprintJson } from './blueprint-json';
import { parseCommandArgs, usageError } from './usage';

const USAGE = `usage: assay validate [--json] [--strict] PATH…

Checks blueprint files (.yml, .yaml, .json; folders are searched recursively).
  --json     one JSON object per file per line: {file, ok, errors, warnings, blueprint}
  --strict   warnings (unknown fields, suspicious forms) fail the file too
Exit status: 0 when every file is valid, 1 when any is invalid or missing, 2 on usage errors.`;

interface IssueJson {
  /** Set when the problem is in another file than the blueprint (a retrieval data file). */
  file?: string;
  line: number;
  col: number;
  message: string;
  hint: string;
  code: string;
  severity: 'error' | 'warning';
}

interface FileReport {
  file: string;
  ok: boolean;
  errors: IssueJson[];
  warnings: IssueJson[];
  blueprint: BlueprintJson | null;
  /** A retrieval blueprint's data, counted (null for other blueprints and when the files are broken). */
  retrieval?: { documents: number; queries: number; judgements: number; contentHash: string } | null;
  /** A soev project file: its suites, files and cases, and its corpus lookup's units (null when it has none). */
  soev?: { suites: number; files: string[]; cases: number; corpusUnits: number | null };
}

export async function validateCommand(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs('validate', USAGE, argv, { allowPositionals: true, options: { json: { type: 'boolean' }, strict: { type: 'boolean' } } });
  if (typeof parsed === 'number') return parsed;
  const { values, positionals: paths } = parsed;
  if (paths.length === 0) return usageError('validate', 'give at least one file or folder', USAGE);

  const { files, missing } = await expandPaths(paths);
  const reports: FileReport[] = missing.map((path) => notFound(path));
  // A soev project is validated with its suites; the suite files it reads are not validated again on their own.
  const projects: string[] = [];
  for (const f of files) if (/\.ya?ml$/i.test(f) && isSoevProjectText(await readFile(f, 'utf8').catch(() => ''), f)) projects.push(f);
  const covered = new Set<string>();
  for (const project of projects) {
    const { report, suiteFiles } = await validateProject(project, values.strict ?? false);
    reports.push(report);
    for (const f of suiteFiles) covered.add(resolve(f));
  }
  for (const file of files) if (!projects.includes(file) && !covered.has(resolve(file))) reports.push(await validateFile(file, values.strict ?? false));

  for (const report of reports) console.log(values.json ? JSON.stringify(report) : humanReport(report));
  const invalid = reports.filter((r) => !r.ok).length;
  // the tally is for the person at the terminal: standard output stays the files' lines alone,
  // `file:line:col: message` or `file: ok (…)`, for an editor or a CI problem matcher to read
  if (!values.json && reports.length > 1) console.error(`${reports.length - invalid} valid, ${invalid} invalid`);
  return invalid > 0 ? 1 : 0;
}

/** A soev project file with its suites and corpus: one report, each issue at its own file:line:col. */
async function validateProject(path: string, strict: boolean): Promise<{ report: FileReport; suiteFiles: string[] }> {
  const loaded = await loadProjectFromDisk(path, false);
  const suiteFiles = loaded.files.map((f) => join(loaded.folder, f.path));
  const shown = (issue: BlueprintIssue): IssueJson => ({ ...issueJson(issue), file: issue.file });
  const warnings = loaded.warnings.map(shown);
  const soev = { suites: loaded.project ? Object.keys(loaded.project.suites).length : 0, files: loaded.files.map((f) => f.path), cases: casesOf(loaded), corpusUnits: loaded.ok ? (loaded.corpus?.units ?? null) : null };
  const file = displayPath(path);
  if (!loaded.ok) return { report: { file, ok: false, errors: loaded.errors.map(shown), warnings, blueprint: null, soev }, suiteFiles };
  if (strict && warnings.length > 0) return { report: { file, ok: false, errors: warnings, warnings: [], blueprint: null, soev }, suiteFiles };
  return { report: { file, ok: true, errors: [], warnings, blueprint: null, soev }, suiteFiles };
}

async function validateFile(path: string, strict: boolean): Promise<FileReport> {
  const file = displayPath(path);
  let text: string;
  try {
    // a file over the size limit is reported from its size, not read into memory to be measured
    const { size } = await stat(path);
    if (size > BLUEPRINT_LIMITS.maxFileBytes) {
      const message = `the file is ${size.toLocaleString('en-US')} bytes, over the limit of ${BLUEPRINT_LIMITS.maxFileBytes.toLocaleString('en-US')} bytes`;
      return { file, ok: false, errors: [{ line: 1, col: 1, message, hint: `Split the blueprint into several files. Assay's limit is ${BLUEPRINT_LIMITS.maxFileBytes.toLocaleString('en-US')} bytes per blueprint file (docs/limits.md).`, code: 'limit', severity: 'error' }], warnings: [], blueprint: null };
    }
    text = await readFile(path, 'utf8');
  } catch (error) {
    return { file, ok: false, errors: [fileError(`cannot read the file: ${(error as Error).message}`, 'Check the path and its permissions.')], warnings: [], blueprint: null };
  }
  const result = parseBlueprint(text, { file });
  const warnings = result.warnings.map(issueJson);
  if (!result.ok) return { file, ok: false, errors: result.errors.map(issueJson), warnings, blueprint: null };
  // Weval stores a blueprint under the id of its path; a header `id` names it explicitly.
  const id = result.blueprint.id ?? blueprintIdFromPath(repoRelativePath(path));
  const blueprint = blueprintJson(result.blueprint, id);
  let retrieval: FileReport['retrieval'];
  if (result.blueprint.retrieval) {
    const data = await checkRetrievalFiles(path, result.blueprint.retrieval);
    if (!data.ok) return { file, ok: false, errors: data.errors, warnings, blueprint: null, retrieval: null };
    warnings.push(...data.warnings);
    retrieval = data.counts;
  }
  // Under --strict the warnings are what fails the file, so they are reported as its errors.
  if (strict && warnings.length > 0) return { file, ok: false, errors: warnings, warnings: [], blueprint, ...(retrieval ? { retrieval } : {}) };
  return { file, ok: true, errors: [], warnings, blueprint, ...(retrieval ? { retrieval } : {}) };
}

/**
 * The data files as a sync would read them: paths relative to the blueprint, kept inside the
 * repository (the folder holding `.git` above the blueprint, else the blueprint's own folder).
 */
async function checkRetrievalFiles(path: string, block: RetrievalBlock): Promise<{ ok: true; warnings: IssueJson[]; counts: NonNullable<FileReport['retrieval']> } | { ok: false; errors: IssueJson[] }> {
  const root = await repositoryRoot(path);
  const inRepo = relative(root, path).split('\\').join('/');
  const shown = (issue: BlueprintIssue): IssueJson => ({ ...issueJson(issue), file: issue.file === inRepo ? displayPath(path) : displayPath(join(root, issue.file)) });
  const loaded = await loadRetrievalFiles(block, inRepo, folderDataReader(root));
  if (!loaded.ok) return { ok: false, errors: loaded.issues.map(shown) };
  const { corpus, queries, qrels } = loaded.data;
  return { ok: true, warnings: loaded.warnings.map(shown), counts: { documents: corpus.length, queries: queries.length, judgements: qrels.length, contentHash: loaded.contentHash } };
}

function issueJson(issue: BlueprintIssue): IssueJson {
  return { line: issue.line, col: issue.col, message: issue.message, hint: issue.hint, code: issue.code, severity: issue.severity };
}

/** A problem with the file itself rather than its content (positions are 1:1, as the loader's whole-file issues). */
function fileError(message: string, hint: string): IssueJson {
  return { line: 1, col: 1, message, hint, code: 'not_found', severity: 'error' };
}

function notFound(path: string): FileReport {
  return { file: path, ok: false, errors: [fileError('no such file or directory', 'Check the path; folders are searched recursively for .yml, .yaml and .json files.')], warnings: [], blueprint: null };
}

function humanReport(report: FileReport): string {
  const lines: string[] = [];
  for (const issue of [...report.errors, ...report.warnings].sort((a, b) => a.line - b.line || a.col - b.col)) {
    const label = issue.severity === 'warning' ? 'warning: ' : '';
    // A file that cannot be read has no position to point at.
    const at = issue.code === 'not_found' ? '' : `:${issue.line}:${issue.col}`;
    lines.push(`${issue.file ?? report.file}${at}: ${label}${issue.message}`);
    if (issue.hint) lines.push(`  hint: ${issue.hint.replace(/\n/g, '\n        ')}`);
  }
  if (report.ok && report.soev) {
    const { suites, files, cases, corpusUnits } = report.soev;
    lines.unshift(`${report.file}: ok (soev project: ${suites} suite${suites === 1 ? '' : 's'} in ${files.length} file${files.length === 1 ? '' : 's'}, ${cases} case${cases === 1 ? '' : 's'}, corpus ${corpusUnits === null ? 'none' : `${corpusUnits} units`})`);
  } else if (report.ok && report.blueprint?.retrieval && report.retrieval) {
    const { documents, queries, judgements } = report.retrieval;
    const models = report.blueprint.retrieval.models.length;
    lines.unshift(`${report.file}: ok (retrieval: ${documents} documents, ${queries} queries, ${judgements} judgements; ${report.blueprint.retrieval.metrics.map((m) => m.label).join(', ')}; ${models} model${models === 1 ? '' : 's'})`);
  } else if (report.ok && report.blueprint) {
    const prompts = report.blueprint.prompts;
    const points = prompts.reduce((n, p) => n + p.points.length, 0);
    lines.unshift(`${report.file}: ok (${prompts.length} prompt${prompts.length === 1 ? '' : 's'}, ${points} point${points === 1 ? '' : 's'})`);
  }
  return lines.join('\n');
}
