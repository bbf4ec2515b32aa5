/**
 * What Assay writes on a pull request: the check run's output and annotations, and the
 * comments (validation, approval, results). Pure functions of stored data, so they are
 * tested without GitHub. Text that comes from a blueprint (error messages quote it) goes
 * inside code fences or is escaped, so a pull request cannot inject markup or @mentions.
 */
import type { CheckAnnotation, CheckRunResult } from '../port';
import type { PullRequestPolicy } from '../config';
import type { PullRequestValidation, ValidatedFile } from './validation';

/** Marks Assay's own validation comment, so it is updated in place rather than repeated. */
export const VALIDATION_MARKER = '<!-- assay:validation -->';
export const CHECK_NAME = 'Assay: blueprints';

/** GitHub shows at most this many annotations usefully; the summary lists every error anyway. */
const MAX_ANNOTATIONS = 100;

const fence = (s: string) => s.replace(/```/g, "'''");
/** Escapes text shown outside a code block: HTML, Markdown specials and @mentions. */
export function inline(s: string): string {
  return s.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!).replace(/([\\`*_[\]|])/g, '\\$1').replace(/@/g, '@\u200b');
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function errorLine(f: ValidatedFile, e: ValidatedFile['errors'][number]): string {
  return `${f.path}:${e.line}:${e.col}: ${e.message}${e.hint ? `\n    hint: ${e.hint}` : ''}`;
}

/**
 * GitHub refuses a comment body over 65,536 characters and a check run's `output.summary` over
 * 65,535 (422; the `maxLength` of checks/create and "body is too long" for issues/create-comment in
 * GitHub's REST description, npm @octokit/openapi). JavaScript counts UTF-16 units, GitHub counts
 * characters: an error list stops well below both, so the text around it fits too.
 */
export const MAX_ERROR_LIST = 60_000;
/** GitHub's limit on a comment body (UTF-16 units never undercount characters, so JavaScript's length is safe). */
export const MAX_COMMENT = 65_536;
/** Room kept for the sentence after a cut list: how many errors were left out, and the link. */
const CLOSING_ROOM = 1_000;

/** Where the full error list of pull request `number` is shown on this site (app/pull-requests/[number]). */
export function pullRequestPageUrl(publicUrl: string, number: number): string {
  return `${publicUrl.replace(/\/$/, '')}/pull-requests/${number}`;
}

/**
 * The errors as file:line:col lines in a code block, whole errors only, up to MAX_ERROR_LIST
 * characters; past that it says how many errors (in how many files) were left out and where
 * the full list is (`fullList`, this site's page of the pull request).
 */
export function errorList(bad: ValidatedFile[], fullList: string | undefined, budget = MAX_ERROR_LIST): string {
  const shown: string[] = [];
  let length = 0;
  let left = 0;
  let filesLeft = 0;
  for (const f of bad) {
    let hidden = 0;
    for (const e of f.errors) {
      const line = fence(errorLine(f, e));
      if (left === 0 && length + line.length + 1 <= budget) {
        shown.push(line);
        length += line.length + 1;
      } else {
        hidden++;
        left++;
      }
    }
    if (hidden > 0) filesLeft++;
  }
  const block = `\`\`\`text\n${shown.join('\n')}\n\`\`\``;
  if (left === 0) return block;
  const where = fullList ? `the full list is at ${fullList}` : 'fix these and push again to see the rest';
  return `${block}\n\n**${plural(left, 'more error')} in ${plural(filesLeft, 'file')} not shown here** (GitHub limits the length of this text): ${where}.`;
}

/** `fullList`: this pull request's page on the site, linked when the errors do not all fit. */
export function checkRunResult(v: PullRequestValidation, fullList?: string): CheckRunResult {
  const bad = v.files.filter((f) => !f.valid);
  const errorCount = bad.reduce((n, f) => n + f.errors.length, 0);
  const annotations: CheckAnnotation[] = v.files
    .flatMap((f) => [
      ...f.errors.map((e) => ({ path: f.path, startLine: e.line, endLine: e.line, startColumn: e.col, endColumn: e.col, level: 'failure' as const, title: 'Invalid blueprint', message: e.hint ? `${e.message}\n${e.hint}` : e.message })),
      ...f.warnings.map((w) => ({ path: f.path, startLine: w.line, endLine: w.line, startColumn: w.col, endColumn: w.col, level: 'warning' as const, title: 'Blueprint warning', message: w.message })),
    ])
    .slice(0, MAX_ANNOTATIONS);
  if (v.files.length === 0) {
    return { conclusion: 'neutral', title: 'No blueprints changed', summary: 'This pull request changes no file under `blueprints/` or `models/`.', annotations: [] };
  }
  if (bad.length === 0) {
    return { conclusion: 'success', title: `${plural(v.files.length, 'file')} valid`, summary: v.files.map((f) => `- \`${f.path}\`: valid${f.kind === 'blueprint' ? `, ${plural(f.promptCount, 'prompt')}` : ''}`).join('\n'), annotations };
  }
  return {
    conclusion: 'failure',
    title: `${plural(errorCount, 'error')} in ${plural(bad.length, 'file')}`,
    summary: `Fix these and push again:\n\n${errorList(bad, fullList)}`,
    annotations,
  };
}

/** The check run of a validation that could not finish (GitHub unreachable, a bug): failed, saying what happened. */
export function stoppedCheckRun(e: unknown): CheckRunResult {
  const what = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return {
    conclusion: 'failure',
    title: 'Validation could not finish',
    summary: `Assay could not finish checking this pull request:\n\n\`\`\`text\n${fence(what.slice(0, 1000))}\n\`\`\`\n\nIt is retried automatically where a job queue is configured; otherwise push again to retry.`,
    annotations: [],
  };
}

/** Assay's comment when the validation could not finish and there is no check run to say so (token-only mode). */
export function stoppedComment(e: unknown, headSha: string): string {
  return [VALIDATION_MARKER, `### Assay: blueprint check at ${headSha.slice(0, 7)}`, stoppedCheckRun(e).summary].join('\n\n');
}

/** The file table's share of a validation comment; past it the rows stop and say how many more files there are. */
const MAX_FILE_TABLE = 15_000;

function fileTable(files: ValidatedFile[], fullList: string | undefined): string {
  const rows: string[] = ['| File | Result | Size |', '|---|---|---|'];
  let length = rows.join('\n').length;
  for (const f of files) {
    const row = `| \`${inline(f.path)}\` | ${f.valid ? '✅ valid' : `❌ ${plural(f.errors.length, 'error')}`} | ${f.kind === 'blueprint' ? plural(f.promptCount, 'prompt') : 'model collection'} |`;
    if (length + row.length + 1 > MAX_FILE_TABLE) {
      const left = files.length - (rows.length - 2);
      return `${rows.join('\n')}\n\n_${plural(left, 'more file')} not listed here${fullList ? `: the full list is at ${fullList}` : ''}._`;
    }
    rows.push(row);
    length += row.length + 1;
  }
  return rows.join('\n');
}

/** `fullList`: this pull request's page on the site, linked when the files or errors do not all fit. */
export function validationComment(v: PullRequestValidation, policy: PullRequestPolicy, headSha: string, fullList?: string): string {
  const bad = v.files.filter((f) => !f.valid);
  const parts = [VALIDATION_MARKER, `### Assay: blueprint check at ${headSha.slice(0, 7)}`];
  if (v.files.length === 0) {
    parts.push('This pull request changes no blueprint (`blueprints/**/*.yml`) or model collection (`models/*.json`); nothing to check.');
    return parts.join('\n\n');
  }
  parts.push(fileTable(v.files, fullList));
  if (bad.length > 0) {
    const intro = '**Errors** (file:line:col) — fix them and push again:\n\n';
    // the list gets what the marker, heading and table leave of GitHub's limit, less room for the closing sentence
    const used = parts.join('\n\n').length + 2 + intro.length;
    parts.push(`${intro}${errorList(bad, fullList, Math.min(MAX_ERROR_LIST, MAX_COMMENT - used - CLOSING_ROOM))}`);
  } else {
    const b = policy.budget;
    parts.push(
      `Every file is valid. Running these blueprints costs money, so it waits for a maintainer: add the label \`${inline(policy.approvalLabel)}\` or comment \`${policy.command}\` ` +
        `(write permission needed). A run uses at most ${plural(b.maxModels, 'model')}, ${plural(b.maxPrompts, 'prompt')}, ${plural(b.maxCalls, 'call')}, $${b.maxCostUsd.toFixed(2)} and ${b.maxSandboxSeconds} s of sandbox time per blueprint` +
        `, for at most ${plural(policy.maxBlueprints, 'blueprint')}. A new push needs a new approval.`,
    );
  }
  return parts.join('\n\n');
}

export interface StartedRun {
  blueprintId: string;
  runId: string;
  deduplicated: boolean;
}

export function approvalComment(approvedBy: string, runs: StartedRun[], skipped: string[], publicUrl: string): string {
  const lines = runs.map((r) => `- \`${inline(r.blueprintId)}\`: [run ${r.runId}](${publicUrl}/runs/${r.runId})${r.deduplicated ? ' (an identical run already exists)' : ''}`);
  const more = skipped.length ? `\n\nNot run (over the per-PR limit): ${skipped.map((s) => `\`${inline(s)}\``).join(', ')}.` : '';
  // `~admin` is the admin token, not a GitHub account to mention
  const who = approvedBy.startsWith('~') ? 'an Assay admin' : `@${approvedBy}`;
  return `▶️ Run approved by ${who}: ${plural(runs.length, 'blueprint')} queued; results will follow here.\n\n${lines.join('\n')}${more}`;
}

export function refusalComment(login: string, reason: 'permission' | 'invalid' | 'stale', command: string): string {
  if (reason === 'permission') return `@${login}: only collaborators with write permission can approve a run (\`${command}\`); a maintainer will take a look.`;
  if (reason === 'stale') return `@${login}: the pull request changed after the approval; approve the new commits again.`;
  return `@${login}: the blueprints in this pull request have errors; fix the errors Assay reported on it and approve again.`;
}

export interface ModelScoreRow {
  modelId: string;
  score: number | null;
  ciLow: number | null;
  ciHigh: number | null;
  errorCount: number;
  costUsd: number;
}

const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)}%`);

export function resultsComment(o: { blueprintId: string; title: string; runId: string; status: string; headSha: string | null; rows: ModelScoreRow[]; publicUrl: string }): string {
  const link = `${o.publicUrl}/runs/${o.runId}`;
  const sorted = [...o.rows].sort((a, b) => (b.score ?? -1) - (a.score ?? -1) || a.modelId.localeCompare(b.modelId));
  const table = sorted.length
    ? ['| Model | Score | 95% CI | Errors | Cost |', '|---|---:|---|---:|---:|', ...sorted.map((r) => `| \`${inline(r.modelId)}\` | ${pct(r.score)} | ${r.ciLow === null || r.ciHigh === null ? '—' : `${pct(r.ciLow)} – ${pct(r.ciHigh)}`} | ${r.errorCount} | $${r.costUsd.toFixed(4)} |`)].join('\n')
    : '_No model produced a score._';
  const status = o.status === 'completed' ? '' : `\n\n⚠️ The run ended as **${o.status}**; the scores cover what finished.`;
  return `### Assay results: ${inline(o.title)} (\`${inline(o.blueprintId)}\`)${o.headSha ? ` at ${o.headSha.slice(0, 7)}` : ''}\n\n${table}${status}\n\n[Open the drill-down](${link}): every prompt, reply and criterion.`;
}
