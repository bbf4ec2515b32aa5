/**
 * A soev project file (soev's `Project`; docs/soev.md) read unchanged: the system under test, the
 * judge settings, `runs.k`, `concurrency`, the invariants (criteria of every case of every suite,
 * before the suite defaults), the fixed messages, the citation mapping, the corpus lookup, the
 * split settings (kept for `assay split`) and the suites by glob. Unknown fields are errors, as in
 * soev. Pure: the caller reads the project file, expands the globs and reads the suites.
 *
 * What Assay makes of it (`suiteContext`): each suite is a blueprint whose `models` is the
 * project's system as an HTTP system (the custom HTTP mapping of lib/server/providers), and
 * whose header carries `citations`, `messages` and `corpus` as a blueprint would write them.
 */
import { z } from 'zod';
import { checkWith } from '../blueprint/case-fields';
import { readDocuments } from '../blueprint/documents';
import { byPosition, Issues, type BlueprintIssue } from '../blueprint/errors';
import { defaultResolver, type ResolvePointFunction } from '../blueprint/functions';
import { NO_DEFS, normalizeBlock } from '../blueprint/points';
import { get, type YEntry, type YMap, type YNode } from '../blueprint/positions';
import type { Point } from '../blueprint/schema';
import { synthetic, type SoevSuiteContext } from './suite';
import { compileLinear } from '../untrusted';

/** soev's `CitationMapping.regex`: the id is its first group, or the whole match without one. */
function compiles(source: string, ctx: z.RefinementCtx): void {
  // Run on reply text: RE2 only (linear time), like every pattern read from a file.
  const compiled = compileLinear(source);
  if (!compiled.ok) ctx.addIssue({ code: 'custom', message: `not a valid regular expression: ${compiled.message}` });
}

const EnvName = z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'must be an environment variable name such as SOEV_URL');

export const SoevSystemSchema = z.strictObject({
  arm: z.literal('soev_thread').default('soev_thread'),
  url_env: EnvName,
  credential_env: EnvName,
  subject_env: EnvName,
  agent: z.string().min(1),
  model: z.string().nullable().default(null),
  knowledge: z.array(z.string()).default([]),
  timeout_s: z.number().positive().default(120),
});

export const SoevStratifyKeySchema = z.enum(['category', 'suite', 'rule', 'rule_direction']);

/**
 * What Assay reads from the project's `extensions.assay`: a suite's title and one-line
 * description, shown on the blueprint list and page. They live here because a soev suite file
 * takes no field beyond name, id_pattern, defaults and cases, while the project's `extensions`
 * is a free mapping its format accepts; without one a suite is titled by its `name`.
 */
export const SoevAssayExtensionSchema = z.strictObject({
  suites: z.record(z.string(), z.strictObject({ title: z.string().trim().min(1).optional(), description: z.string().trim().min(1).optional() })).default({}),
});

/** The project file as soev's models define it (criteria lists are points, read by the points parser). */
export const SoevProjectSchema = z.strictObject({
  name: z.string().min(1),
  language: z.string().min(1),
  system: SoevSystemSchema,
  judge: z.strictObject({ endpoint: z.string().min(1), context: z.enum(['units', 'corpus']).default('units') }),
  runs: z.strictObject({ k: z.number().int().min(1).default(1) }).default({ k: 1 }),
  concurrency: z.number().int().min(1).default(1),
  invariants: z.array(z.unknown()).default([]),
  messages: z.record(z.string(), z.string()).default({}),
  citations: z.strictObject({ field: z.string().min(1), regex: z.string().superRefine(compiles).nullable().default(null) }),
  hooks: z.string().nullable().default(null),
  split: z
    .strictObject({
      test_share: z.number().min(0).max(1).default(0.2),
      seed: z.number().int().default(0),
      stratify: z.record(z.string(), SoevStratifyKeySchema).default({}),
      min_per_side: z.number().int().min(0).default(2),
    })
    .default({ test_share: 0.2, seed: 0, stratify: {}, min_per_side: 2 }),
  suites: z.record(z.string(), z.string().min(1)).default({}),
  runtime: z.string().nullable().default(null),
  corpus: z
    .strictObject({ path: z.string().min(1).default('corpus/units.jsonl'), law_names: z.record(z.string(), z.array(z.string())).default({}) })
    .default({ path: 'corpus/units.jsonl', law_names: {} }),
  extensions: z.object({ assay: SoevAssayExtensionSchema.optional() }).catchall(z.unknown()).default({}),
});
export type SoevProjectFields = z.infer<typeof SoevProjectSchema>;

export interface SoevProject extends SoevProjectFields {
  file: string;
  /** The invariants, parsed as points at their positions in the project file. */
  invariantPoints: Point[];
}

export type SoevProjectResult = { ok: true; project: SoevProject; warnings: BlueprintIssue[] } | { ok: false; errors: BlueprintIssue[]; warnings: BlueprintIssue[] };

/** A mapping is a soev project when it names a system and its suites (and is no Weval header). */
export function looksLikeSoevProject(root: YNode | null): root is YMap {
  return root?.kind === 'map' && get(root, 'system')?.kind === 'map' && get(root, 'prompts') === undefined && get(root, 'cases') === undefined && (get(root, 'suites') !== undefined || get(root, 'invariants') !== undefined);
}

/** Whether a file's text is a soev project (for the sync and the CLI, which must not read it as a blueprint). */
export function isSoevProjectText(text: string, file: string): boolean {
  // Cheap first: every file of a folder is asked, and a project has a top-level `system:` mapping.
  if (!/^system:/m.test(text)) return false;
  const docs = readDocuments(text, 'yaml', new Issues(file));
  return docs?.length === 1 && looksLikeSoevProject(docs[0]!);
}

export function parseSoevProject(text: string, options: { file: string; pointDefs?: ResolvePointFunction }): SoevProjectResult {
  const issues = new Issues(options.file);
  const docs = readDocuments(text, 'yaml', issues);
  const root = docs?.[0];
  if (docs && (docs.length !== 1 || root?.kind !== 'map')) issues.error(root?.loc ?? null, 'schema', 'a soev project file is one YAML mapping', 'Write `name:`, `language:`, `system:`, `judge:`, `citations:` and `suites:` at the top level.');
  if (!root || root.kind !== 'map' || issues.hasErrors()) return done(issues, null);

  const fields = checkWith(SoevProjectSchema, root, 'project', 'See docs/soev.md for the fields of a project file.', issues);
  const invariantsNode = get(root, 'invariants');
  const invariantPoints = invariantsNode?.kind === 'seq' ? normalizeBlock(invariantsNode, 'should', 'invariants', { issues, resolve: options.pointDefs ?? defaultResolver, defs: NO_DEFS }) : [];
  if (fields) {
    for (const [suite, stratify] of Object.entries(fields.split.stratify)) {
      if (!(suite in fields.suites)) issues.warn(get(get(get(root, 'split') as YMap, 'stratify') as YMap, suite)!.loc, 'suspicious', `\`split.stratify\` names the suite "${suite}" (${stratify}), which the project does not list under \`suites\``, `Suites of this project: ${Object.keys(fields.suites).join(', ') || 'none'}.`);
    }
    for (const suite of Object.keys(fields.extensions.assay?.suites ?? {})) {
      const at = get(get(get(get(root, 'extensions') as YMap, 'assay') as YMap, 'suites') as YMap, suite)!;
      if (!(suite in fields.suites)) issues.warn(at.loc, 'suspicious', `\`extensions.assay.suites\` titles the suite "${suite}", which the project does not list under \`suites\``, `Suites of this project: ${Object.keys(fields.suites).join(', ') || 'none'}.`);
    }
  }
  return done(issues, fields ? { ...fields, file: options.file, invariantPoints } : null);
}

function done(issues: Issues, project: SoevProject | null): SoevProjectResult {
  const warnings = issues.warnings.sort(byPosition);
  if (issues.hasErrors() || !project) return { ok: false, errors: issues.errors.sort(byPosition), warnings };
  return { ok: true, project, warnings };
}

/** The Assay id of a project's system under test, as it appears on the pages. */
export function soevSystemId(project: SoevProject): string {
  return `soev:${project.system.agent}`;
}

/**
 * The soev thread arm as Assay's custom HTTP mapping: each turn is one POST of the whole
 * conversation to the server's threads endpoint, with the bearer token and the subject read from
 * the environment variables the project names (never a value in the file). `baseUrl` is the
 * value of `system.url_env`, read by the caller.
 */
export function soevSystemSpec(project: SoevProject, baseUrl: string): Record<string, unknown> {
  const { system } = project;
  return {
    id: soevSystemId(project),
    format: 'custom',
    url: `${baseUrl.replace(/\/+$/, '')}/api/v1/threads/runs`,
    headers: { Authorization: { env: system.credential_env, prefix: 'Bearer ' }, 'X-Soev-Subject': { env: system.subject_env } },
    timeoutMs: Math.round(system.timeout_s * 1000),
    body: { agent: system.agent, ...(system.model ? { model: system.model } : {}), knowledge: system.knowledge, messages: '{{messages}}' },
    response: { content: '$.reply.text', model: '$.reply.model' },
  };
}

/**
 * What each suite of the project gets: the invariants, `runs.k`, and the header entries a
 * blueprint would write (`models`, `concurrency`, `citations`, `messages`, `corpus`).
 * `corpusPath` is the corpus file relative to the suite file (the caller knows both paths).
 */
export function suiteContext(project: SoevProject, options: { systemSpec: Record<string, unknown> | null; corpusPath: string; suite?: string }): SoevSuiteContext {
  const at = { line: 1, col: 1 };
  // the suite's title and description from `extensions.assay.suites` (in place of its name as title)
  const shown = options.suite === undefined ? undefined : project.extensions.assay?.suites[options.suite];
  const header: YEntry[] = [
    ...(shown?.title ? [synthetic('title', jsonNode(shown.title, at))] : []),
    ...(shown?.description ? [synthetic('description', jsonNode(shown.description, at))] : []),
    ...(options.systemSpec ? [synthetic('models', jsonNode([options.systemSpec], at))] : []),
    synthetic('concurrency', jsonNode(project.concurrency, at)),
    synthetic('citations', jsonNode({ mapping: { path: `reply.citations.${project.citations.field}`, ...(project.citations.regex ? { regex: project.citations.regex } : {}) }, match: 'hierarchical' }, at)),
    synthetic('messages', jsonNode(project.messages, at)),
    synthetic('corpus', jsonNode({ path: options.corpusPath, law_names: project.corpus.law_names }, at)),
    // Kept verbatim in the blueprint's `extensions`: what the project said, for reports and `assay split`.
    synthetic('soev', jsonNode({ project: project.name, file: project.file, language: project.language, judge: project.judge, split: project.split }, at)),
  ];
  return { invariants: project.invariantPoints, header, repeats: project.runs.k, suiteNames: Object.keys(project.suites) };
}

/** A located node of a JSON value made here (every part placed at `loc`). */
function jsonNode(value: unknown, loc: { line: number; col: number }): YNode {
  if (Array.isArray(value)) return { kind: 'seq', loc, items: value.map((v) => jsonNode(v, loc)) };
  if (value && typeof value === 'object') return { kind: 'map', loc, entries: Object.entries(value).map(([k, v]) => synthetic(k, jsonNode(v, loc))) };
  return { kind: 'scalar', value: value === undefined ? null : (value as string | number | boolean | null), quoted: false, loc };
}
