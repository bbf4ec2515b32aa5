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

/**
 * The same 40 cases as an Assay blueprint (header + list), for the sealed-prompt tests: case
 * `case-<category>-<n>` and its rewording `case-<category>-<n>-v2` share a lineage, and each
 * prompt starts with its own marker word (`kestrel-<category>-<n>[-v2]`), which the fake LLM's
 * default reply echoes, so a leaked reply shows too.
 */
export function fortyCaseBlueprint(models: readonly string[]): string {
  const prompts: string[] = [];
  for (const [category, count] of Object.entries(STRATA)) {
    for (let n = 1; n <= count; n++) {
      for (const suffix of ['', '-v2']) {
        prompts.push(
          [
            `- id: case-${category}-${n}${suffix}`,
            `  lineage: case-${category}-${n}`,
            `  category: ${category}`,
            `  prompt: "kestrel-${category}-${n}${suffix}: what does the policy say here?"`,
            '  should:',
            '    - $icontains: policy',
          ].join('\n'),
        );
      }
    }
  }
  return `# A 40-case support blueprint, split by lineage with \`assay split\`\ntitle: Support questions (split)\nmodels: [${models.join(', ')}]\n---\n${prompts.join('\n')}\n`;
}

/** A sealed prompt's id and marker word as whole tokens (so `case-x-1` does not match `case-x-10`). */
export function sealedPattern(ids: readonly string[]): RegExp {
  const words = ids.flatMap((id) => [id, id.replace(/^case-/, 'kestrel-')]);
  return new RegExp(`(?<![\\w-])(${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?![\\w-])`);
}
