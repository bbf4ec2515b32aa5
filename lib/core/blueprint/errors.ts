/**
 * What the loader tells an author: every problem with the file, line and column of the
 * offending node and a hint that says how to fix it, not only what is wrong. Problems are collected,
 * not thrown, so one `assay validate` run shows all of them.
 */
import { z } from 'zod';
import type { SourceLoc } from './schema';

export const IssueCodeSchema = z.enum([
  /** The text is not YAML/JSON. */
  'syntax',
  /** The file has no content. */
  'empty',
  /** A document or field has the wrong shape or type. */
  'schema',
  /** A key that neither Weval nor Assay knows (a warning: Weval ignored such keys). */
  'unknown_field',
  /** `$fn` names no point function. */
  'unknown_function',
  /** A point function's argument has the wrong shape. */
  'invalid_args',
  /** A regular expression does not compile. */
  'invalid_regex',
  /** `$ref` names no `point_defs` entry. */
  'unknown_ref',
  /** Two prompts share an id (explicit or hashed). */
  'duplicate_id',
  /** A judge question is malformed (e.g. a `score` without an explicit worst-to-best list of levels). */
  'invalid_question',
  /** A `correct:` block is malformed. */
  'invalid_correct',
  /** Something legal but probably not what the author meant. */
  'suspicious',
  /** The file passes one of the size limits (lib/core/blueprint/limits.ts, docs/limits.md). */
  'limit',
  /** Text PostgreSQL cannot store (U+0000, an unpaired surrogate). */
  'unstorable_text',
]);
export type IssueCode = z.infer<typeof IssueCodeSchema>;

export const BlueprintIssueSchema = z.object({
  severity: z.enum(['error', 'warning']),
  code: IssueCodeSchema,
  file: z.string(),
  /** 1-based; 1 when the problem concerns the whole file. */
  line: z.number().int().positive(),
  col: z.number().int().positive(),
  message: z.string(),
  /** How to fix it, in one or two sentences, ideally with the corrected YAML. */
  hint: z.string(),
});
export type BlueprintIssue = z.infer<typeof BlueprintIssueSchema>;

/**
 * At most this many errors and this many warnings are listed per file; past them the loader
 * stops reading (a file with 20,000 broken definitions is rejected after the first 200, not
 * after checking all of them) and says how many more there were.
 */
export const MAX_LISTED_ISSUES = 200;

/** Collects issues for one file; `loc` null means "the file as a whole". */
export class Issues {
  readonly list: BlueprintIssue[] = [];
  /** Kept as issues are added: read once per definition, it must not rescan the list. */
  errorCount = 0;
  warningCount = 0;
  constructor(readonly file: string) {}

  /** Enough errors to reject the file: the caller may stop looking for more. */
  get full(): boolean {
    return this.errorCount >= MAX_LISTED_ISSUES;
  }

  /** Enough warnings listed: the caller may skip working out further ones' suggestions. */
  get warningsFull(): boolean {
    return this.warningCount >= MAX_LISTED_ISSUES;
  }

  /** Says that the list stopped (and how many more were found before reading stopped), at the end. */
  overflow(): BlueprintIssue[] {
    const more = (n: number, what: string, severity: BlueprintIssue['severity']): BlueprintIssue[] =>
      n >= MAX_LISTED_ISSUES
        ? [{ severity, code: 'limit', file: this.file, line: 1, col: 1, message: `at most ${MAX_LISTED_ISSUES} ${what} are listed${n > MAX_LISTED_ISSUES ? ` (${(n - MAX_LISTED_ISSUES).toLocaleString('en-US')} more found)` : ''}; the file may have more`, hint: 'Fix these and validate again to see any others.' }]
        : [];
    return [...more(this.errorCount, 'errors', 'error'), ...more(this.warningCount, 'warnings', 'warning')];
  }

  error(loc: SourceLoc | null, code: IssueCode, message: string, hint: string): void {
    this.add('error', loc, code, message, hint);
  }

  warn(loc: SourceLoc | null, code: IssueCode, message: string, hint: string): void {
    this.add('warning', loc, code, message, hint);
  }

  get errors(): BlueprintIssue[] {
    return this.list.filter((i) => i.severity === 'error');
  }

  get warnings(): BlueprintIssue[] {
    return this.list.filter((i) => i.severity === 'warning');
  }

  hasErrors(): boolean {
    return this.errorCount > 0;
  }

  /** A collector whose issues are discarded (for re-checking something already reported once). */
  silent(): Issues {
    return new Issues(this.file);
  }

  private add(severity: BlueprintIssue['severity'], loc: SourceLoc | null, code: IssueCode, message: string, hint: string): void {
    const count = severity === 'error' ? ++this.errorCount : ++this.warningCount;
    if (count > MAX_LISTED_ISSUES) return;
    this.list.push({ severity, code, file: this.file, line: loc?.line ?? 1, col: loc?.col ?? 1, message, hint });
  }
}

/** `file:line:col: message` (the form editors and CI annotate), then the hint on its own line. */
export function formatIssue(issue: BlueprintIssue): string {
  const head = `${issue.file}:${issue.line}:${issue.col}: ${issue.severity}: ${issue.message}`;
  return issue.hint ? `${head}\n  hint: ${issue.hint}` : head;
}

/** Sorts by position so an author reads issues top to bottom. */
export function byPosition(a: BlueprintIssue, b: BlueprintIssue): number {
  return a.line - b.line || a.col - b.col;
}
