/**
 * `parsePointSource(text, { file })`: one point as an author writes it in a `should:` list
 * (`$contains: foo`, `"Mentions the deadline"`, `{ noul: "…" }`, a nested list = an alternative
 * path), read exactly as the blueprint loader reads that list item. `assay check` uses it, so a
 * point behaves the same on the command line as in a blueprint; positions are in `text`.
 */
import { byPosition, Issues, type BlueprintIssue } from './errors';
import { readDocuments } from './documents';
import { defaultResolver, type ResolvePointFunction } from './functions';
import { NO_DEFS, normalizeBlock } from './points';
import type { Point } from './schema';

export type PointSourceResult =
  | { ok: true; points: Point[]; warnings: BlueprintIssue[] }
  | { ok: false; errors: BlueprintIssue[]; warnings: BlueprintIssue[] };

export function parsePointSource(text: string, options: { file: string; pointDefs?: ResolvePointFunction }): PointSourceResult {
  const issues = new Issues(options.file);
  const docs = readDocuments(text, 'yaml', issues);
  let points: Point[] = [];
  if (docs) {
    // readDocuments never returns an empty list.
    const node = docs[0]!;
    const second = docs[1];
    if (second) {
      issues.error(second.loc, 'schema', 'a point is one YAML value, but this text has several documents (`---`)', 'Give one point, e.g. `$contains: "deadline"` or `"Mentions the deadline"`.');
    } else {
      // The point is the single item of a `should:` list, so every point form and its checks apply unchanged.
      points = normalizeBlock({ kind: 'seq', items: [node], loc: node.loc }, 'should', 'should', { issues, resolve: options.pointDefs ?? defaultResolver, defs: NO_DEFS });
    }
  }
  const warnings = issues.warnings.sort(byPosition);
  if (issues.hasErrors()) return { ok: false, errors: issues.errors.sort(byPosition), warnings };
  return { ok: true, points, warnings };
}
