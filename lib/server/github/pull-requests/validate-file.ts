/**
 * One pull-request file's text → its validation record. No I/O. `validateFile` parses in
 * process (the fuzz run drives it directly); validate-in-worker.ts parses in the untrusted-work
 * pool and builds the same record with `blueprintRecord` / `collectionRecord`.
 */
import { BLUEPRINT_LIMITS, parseBlueprint, type BlueprintIssue, type ParseResult } from '@/lib/core';
import { blueprintIdOf, isCollectionPath } from '../paths';
import type { PullRequestPolicy } from '../config';
import { sandboxBudgetIssue } from './sandbox-budget';
import { checkCollection, type FileIssue, type ValidatedFile } from './validation';

export interface FileToValidate {
  path: string;
  blobSha: string;
  text: string;
  /** Plain data (it crosses to the worker): with it, a blueprint is also held to the PR sandbox budget. */
  policy?: PullRequestPolicy;
}

export function validateFile(f: FileToValidate): ValidatedFile {
  if (isCollectionPath(f.path)) return collectionRecord(f, f.text.length > BLUEPRINT_LIMITS.maxFileBytes ? [tooBig(f.text)] : checkCollection(f.text));
  return blueprintRecord(f, parseBlueprint(f.text, { file: f.path }));
}

/** A model collection's record from its issues. */
export function collectionRecord(f: Omit<FileToValidate, 'text'>, errors: FileIssue[]): ValidatedFile {
  return { path: f.path, kind: 'collection', blueprintId: null, blobSha: f.blobSha, valid: errors.length === 0, promptCount: 0, errors, warnings: [] };
}

/** A blueprint's record from its parse (made here or in the untrusted-work pool), held to the PR sandbox budget when a policy is given. */
export function blueprintRecord(f: Omit<FileToValidate, 'text'>, parsed: ParseResult): ValidatedFile {
  const overBudget = parsed.ok && f.policy ? sandboxBudgetIssue(parsed.blueprint, f.policy) : null;
  return {
    path: f.path,
    kind: 'blueprint',
    blueprintId: blueprintIdOf(f.path),
    blobSha: f.blobSha,
    valid: parsed.ok && !overBudget,
    promptCount: parsed.ok ? parsed.blueprint.prompts.length : 0,
    errors: parsed.ok ? (overBudget ? [overBudget] : []) : parsed.errors.map(issue),
    warnings: parsed.warnings.map(issue),
  };
}

/** A file whose check did not finish (the worker timed out or crashed): invalid, saying why. */
export function stoppedFile(f: Omit<FileToValidate, 'text'>, message: string, hint: string): ValidatedFile {
  const kind = isCollectionPath(f.path) ? 'collection' : 'blueprint';
  return { path: f.path, kind, blueprintId: kind === 'blueprint' ? blueprintIdOf(f.path) : null, blobSha: f.blobSha, valid: false, promptCount: 0, errors: [{ line: 1, col: 1, message, hint }], warnings: [] };
}

function issue(i: BlueprintIssue): FileIssue {
  return { line: i.line, col: i.col, message: i.message, hint: i.hint };
}

function tooBig(text: string): FileIssue {
  return { line: 1, col: 1, message: `the file is over the limit of ${BLUEPRINT_LIMITS.maxFileBytes.toLocaleString('en-US')} bytes (${text.length.toLocaleString('en-US')} characters)`, hint: 'A model collection is a short JSON list of model ids (docs/limits.md).' };
}
