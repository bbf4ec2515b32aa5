/**
 * The editor's problems: `parseBlueprint` (the parser `assay validate` runs) over the text in
 * the editor, each issue placed as a range of the text. The issue's line:col is where the range
 * starts; it runs to the end of the token there (a key, a `$function`, a scalar), so the
 * underline covers what is wrong and not the whole line.
 */
import { parseBlueprint, type BlueprintIssue } from '@/lib/core';

export interface AuthorProblem {
  severity: BlueprintIssue['severity'];
  code: BlueprintIssue['code'];
  /** 1-based, as `assay validate` prints them. */
  line: number;
  col: number;
  /** Offsets into the text (UTF-16 code units, as the editor counts). */
  from: number;
  to: number;
  message: string;
  hint: string;
}

/** True for a draft with nothing written yet: not an error, only a start (see `problemsSummary`). */
export function isEmptyDraft(text: string): boolean {
  return text.trim() === '';
}

export function authorProblems(text: string, file: string): AuthorProblem[] {
  // the parser calls an empty file an error (a published blueprint must say something), but an
  // author opening the editor has simply not started: no red underline, no error in the list
  if (isEmptyDraft(text)) return [];
  const r = parseBlueprint(text, { file });
  const issues = r.ok ? r.warnings : [...r.errors, ...r.warnings];
  const starts = lineStarts(text);
  return issues
    .map((issue) => ({ ...rangeOf(text, starts, issue.line, issue.col), severity: issue.severity, code: issue.code, line: issue.line, col: issue.col, message: issue.message, hint: issue.hint }))
    .sort((a, b) => a.from - b.from || (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
}

/** The problems list's heading: "checking…", a neutral hint for an empty draft, "none…" or the counts. */
export function problemsSummary(problems: readonly AuthorProblem[], state: { checked: boolean; empty: boolean }): string {
  if (!state.checked) return 'checking…';
  if (state.empty) return 'none yet: write a blueprint here, or start from an example above';
  if (problems.length === 0) return 'none: the blueprint is valid';
  const errors = problems.filter((p) => p.severity === 'error').length;
  const warnings = problems.length - errors;
  return `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** A token: up to whitespace or YAML flow punctuation (`key:` stops before its colon). */
const TOKEN = /[^\s,[\]{}]+?(?=:\s|:$|[\s,[\]{}]|$)/y;

function rangeOf(text: string, starts: number[], line: number, col: number): { from: number; to: number } {
  const lineStart = starts[Math.min(line, starts.length) - 1] ?? 0;
  const lineEnd = line < starts.length ? starts[line]! - 1 : text.length;
  const from = Math.min(lineStart + col - 1, lineEnd);
  TOKEN.lastIndex = from;
  const token = TOKEN.exec(text);
  if (token && token.index === from && token[0].length > 0) return { from, to: from + token[0].length };
  // nothing to underline at the position (an empty value, the end of the file): one character, if any
  return from < lineEnd ? { from, to: lineEnd } : { from, to: from };
}
