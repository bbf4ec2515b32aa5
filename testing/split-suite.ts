/**
 * A 40-case soev suite for the split tests: four categories with 8, 6, 4 and 2 lineages, each
 * lineage a root case and one case derived from it (20 lineages × 2 cases).
 */
export const STRATA = { billing: 8, privacy: 6, refunds: 4, smalltalk: 2 } as const;

export function suiteCase(id: string, category: string, extra: Record<string, string> = {}): string {
  const lines = [`  - id: ${id}`, `    lineage: ${extra.lineage ?? id}`, `    category: ${category}`];
  for (const [key, value] of Object.entries(extra)) if (key !== 'lineage') lines.push(`    ${key}: ${value}`);
  lines.push('    turns:', `      - prompt: "Question ${id}: what applies here?"`);
  return lines.join('\n');
}

/** The suite file: a comment, a name, then the 40 cases (root `<cat>-<n>`, derived `<cat>-<n>-b`). */
export function fortyCaseSuite(): string {
  const cases: string[] = [];
  for (const [category, count] of Object.entries(STRATA)) {
    for (let n = 1; n <= count; n++) {
      const root = `${category}-${n}`;
      cases.push(suiteCase(root, category));
      cases.push(suiteCase(`${root}-b`, category, { lineage: root, derived_from: root }));
    }
  }
  return `# Support questions (kept by the split)\nname: support\ncases:\n${cases.join('\n')}\n`;
}
