/**
 * Writes the `split:` of the cases that had none into the file's text, as edits at the offsets
 * the Document API gave (split/cases.ts): everything else in the file stays byte for byte.
 * The result is read back and checked, so a file this writes wrongly is never saved.
 */
import { readSplitFile, type SplitCase, type SplitSide } from './cases';

export interface SplitWrite {
  text: string;
  /** How many cases got a `split:`. */
  written: number;
}

export function writeSplit(file: string, text: string, cases: readonly SplitCase[], sides: readonly (SplitSide | null)[], defaultSuite: string): SplitWrite {
  const edits = cases
    .map((c, i) => ({ c, side: sides[i] ?? null }))
    .filter((e): e is { c: SplitCase; side: SplitSide } => e.side !== null && e.c.split === null)
    // From the end, so an edit does not shift the offsets of the ones still to make.
    .sort((a, b) => b.c.edit.at - a.c.edit.at);
  let out = text;
  for (const { c, side } of edits) out = out.slice(0, c.edit.at) + rendered(c, side) + out.slice(c.edit.at + c.edit.remove);

  const check = readSplitFile(file, out, defaultSuite);
  const expected = cases.map((c, i) => c.split ?? sides[i] ?? null);
  const got = check.cases.map((c) => c.split);
  if (check.issues.some((i) => i.severity === 'error') || got.length !== expected.length || got.some((s, i) => s !== expected[i])) {
    throw new Error(`assay split: writing ${file} would not give the planned sides (${JSON.stringify(check.issues[0] ?? got)}); the file was left unchanged. Please report this layout.`);
  }
  return { text: out, written: edits.length };
}

function rendered(c: SplitCase, side: SplitSide): string {
  const { kind, style, indent, bare } = c.edit;
  const value = style === 'json' ? `"${side}"` : side;
  if (kind === 'value') return bare ? ` ${value}` : value;
  if (style === 'json') return `"split": ${value}, `;
  if (style === 'flow') return `split: ${value}, `;
  return `split: ${value}\n${' '.repeat(indent)}`;
}
