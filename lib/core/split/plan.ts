/**
 * `assay split` as one pure step: the files' texts in, the sides and the new texts out. The
 * split settings come from a soev project file among the inputs (its `split:`), then the
 * caller's overrides (the command's flags), then soev's defaults.
 */
import type { BlueprintIssue } from '../blueprint/errors';
import { assignSplit, type SplitOutcome } from './assign';
import { readSplitFile, type SplitCase, type SplitFileKind, type SplitSide } from './cases';
import { DEFAULT_SPLIT_SETTINGS, type SplitSettings } from './settings';
import { writeSplit } from './write';

export interface SplitInput {
  file: string;
  text: string;
  /** The suite of a blueprint without a header `id` (its path-derived id). */
  defaultSuite: string;
}

export interface SplitFilePlan {
  file: string;
  kind: SplitFileKind;
  before: string;
  after: string;
  /** Cases that get a `split:` written. */
  written: number;
}

export interface SplitPlan {
  settings: SplitSettings;
  cases: (Omit<SplitCase, 'edit'> & { side: SplitSide | null; was: SplitSide | null })[];
  outcome: SplitOutcome;
  files: SplitFilePlan[];
  /** Reading and assignment problems; with any error, `files` is empty (nothing may be written). */
  issues: BlueprintIssue[];
}

export function planSplit(inputs: readonly SplitInput[], overrides: Partial<SplitSettings> = {}): SplitPlan {
  const read = inputs.map((input) => ({ input, file: readSplitFile(input.file, input.text, input.defaultSuite) }));
  const project = read.find((r) => r.file.kind === 'project' && r.file.settings)?.file.settings;
  const settings: SplitSettings = { ...DEFAULT_SPLIT_SETTINGS, ...project, ...overrides, stratify: { ...project?.stratify, ...overrides.stratify } };
  const all = read.flatMap((r) => r.file.cases);
  const readIssues = read.flatMap((r) => r.file.issues);
  const outcome = assignSplit(all, settings);
  const issues = [...readIssues, ...outcome.issues];
  const cases = all.map(({ edit: _edit, ...c }, i) => ({ ...c, side: outcome.sides[i] ?? null, was: c.split }));
  if (issues.some((i) => i.severity === 'error')) return { settings, cases, outcome, files: [], issues };

  let offset = 0;
  const files = read.map(({ input, file }) => {
    const sides = outcome.sides.slice(offset, offset + file.cases.length);
    offset += file.cases.length;
    const { text, written } = writeSplit(input.file, input.text, file.cases, sides, input.defaultSuite);
    return { file: input.file, kind: file.kind, before: input.text, after: text, written };
  });
  return { settings, cases, outcome, files, issues };
}
