/**
 * A soev suite file (soev's `Suite` and `Case`; docs/soev.md) read unchanged into Assay's normalised
 * blueprint: one suite file is one blueprint, one case one prompt.
 *
 *   name                → title
 *   defaults            → points of every prompt, before its own (after the project's invariants)
 *   cases[].turns       → messages: user, (assistant generated), user, …
 *   cases[].criteria    → the prompt's points (the same points parser as `should`, so every
 *                         error keeps its file:line:col and `- kind:` entries are criteria)
 *   status, split, lineage, category, rule, derived_from, variants, expect, answerability,
 *   provenance          → the prompt's case fields
 *
 * Validated as soev validates: unknown fields are errors (soev's models are frozen and reject
 * them), two cases with one id, a case naming another suite, and `id_pattern` (one capture
 * group, matching each id in full, the group equal to the case's `rule`). The case mappings are
 * rewritten into prompt mappings of the same nodes, so the prompt parser sees soev's text at
 * its own positions. Pure: the caller reads the files.
 */
import type { Issues } from '../blueprint/errors';
import { checkWith, optionalString } from '../blueprint/case-fields';
import { normalizeHeader } from '../blueprint/header';
import { NO_DEFS, normalizeBlock, type PointsContext } from '../blueprint/points';
import { describe, entry, get, str, type YEntry, type YMap, type YNode, type YScalar } from '../blueprint/positions';
import { normalizePrompt, type DraftPrompt } from '../blueprint/prompts';
import type { Point, SourceLoc } from '../blueprint/schema';
import { z } from 'zod';
import { compileLinear, type LinearPattern } from '../untrusted';

export const SUITE_KEYS = ['name', 'id_pattern', 'defaults', 'cases'] as const;
export const SOEV_CASE_KEYS = [
  'id', 'suite', 'status', 'split', 'lineage', 'category', 'rule', 'derived_from', 'provenance', 'turns', 'variants', 'expect', 'answerability', 'criteria', 'setup',
] as const;
const EXPECT_KEYS = ['behaviour', 'message', 'answer', 'nuggets', 'sources'];
const SOURCES_KEYS = ['required', 'supporting', 'forbidden'];
const NUGGET_KEYS = ['text', 'importance', 'sources'];

/** A mapping is a soev suite when it has `cases:` and is not a Weval header (`prompts:`). */
export function looksLikeSoevSuite(root: YNode): root is YMap {
  return root.kind === 'map' && entry(root, 'cases') !== undefined && entry(root, 'prompts') === undefined;
}

/** What a project gives each of its suites; absent for a suite read on its own (a sync of one file). */
export interface SoevSuiteContext {
  /** The project's invariants, parsed once in the project file (their positions are there). */
  invariants: Point[];
  /** Header entries the project adds: the system under test as `models`, `citations`, `messages`, `corpus`, `concurrency`, and the suite's `title` and `description` when the project gives them. */
  header: YEntry[];
  /** `runs.k`: attempts of each case. */
  repeats: number;
  /** Every suite name of the project, so a case naming another suite says which. */
  suiteNames: readonly string[];
}

export interface SoevSuite {
  name: string;
  idPattern: string | null;
  /** The header mapping handed to `normalizeHeader`. */
  header: YMap;
  prompts: DraftPrompt[];
}

/**
 * Reads one suite document. Issues go to `ctx.issues` (the suite file's collector); the
 * prompts are drafts, given their ids by the blueprint parser's `assignIds`.
 */
export function soevSuite(root: YMap, ctx: PointsContext, project?: SoevSuiteContext): SoevSuite {
  const { issues } = ctx;
  unknownKeys(root, SUITE_KEYS, 'suite', 'A suite has name, id_pattern, defaults and cases.', issues);
  const nameNode = get(root, 'name');
  const name = str(nameNode)?.trim() ? str(nameNode)! : null;
  if (!name) issues.error((nameNode ?? root).loc, 'schema', nameNode ? `the suite \`name\` must be a non-empty string, not ${describe(nameNode)}` : 'a suite needs a `name`', 'Write `name: my-suite` (the project names its suites by this name).');
  const idPattern = idPatternOf(get(root, 'id_pattern'), issues);

  const defaultsNode = get(root, 'defaults');
  const defaults = defaultsNode && !(defaultsNode.kind === 'scalar' && defaultsNode.value === null) ? normalizeBlock(defaultsNode, 'should', 'defaults', { ...ctx, defs: NO_DEFS }) : [];
  const shared = [...(project?.invariants ?? []), ...defaults];

  const casesNode = get(root, 'cases')!;
  const cases = casesNode.kind === 'seq' ? casesNode.items : [];
  if (casesNode.kind !== 'seq' || cases.length === 0) {
    issues.error(casesNode.loc, 'schema', casesNode.kind === 'seq' ? 'a suite has at least one case' : `\`cases\` must be a list of cases, not ${describe(casesNode)}`, 'Write `cases:\n  - id: greet\n    lineage: greet\n    category: smalltalk\n    turns:\n      - prompt: "…"`.');
  }

  // the suite's name is its title, unless the project gives it one (`extensions.assay.suites`: suiteContext)
  const titled = project?.header.some((e) => e.key === 'title') ?? false;
  const header: YMap = { kind: 'map', loc: root.loc, entries: [...(nameNode && name && !titled ? [synthetic('title', nameNode)] : []), ...(project?.header ?? [])] };
  // The header is made here of the project's validated fields: its issues were reported in the project file.
  const headerFields = normalizeHeader(header, issues.silent());
  const firstAt = new Map<string, SourceLoc>();
  const prompts: DraftPrompt[] = [];
  for (const node of cases) {
    if (issues.full) break;
    if (node.kind !== 'map') {
      issues.error(node.loc, 'schema', `a case must be a mapping, not ${describe(node)}`, 'Write `- id: greet\n  lineage: greet\n  category: smalltalk\n  turns:\n    - prompt: "…"`.');
      continue;
    }
    checkCase(node, { name, idPattern, firstAt, suiteNames: project?.suiteNames ?? [] }, issues);
    const draft = normalizePrompt(promptNode(node, issues), headerFields, ctx);
    if (!draft) continue;
    draft.prompt.points = [...shared, ...draft.prompt.points];
    if (project) draft.prompt.repeats = project.repeats;
    prompts.push(draft);
  }
  return { name: name ?? '', idPattern: idPattern?.pattern ?? null, header, prompts };
}

function unknownKeys(map: YMap, known: readonly string[], what: string, hint: string, issues: Issues): void {
  for (const e of map.entries) {
    if (!known.includes(e.key)) issues.error(e.keyNode.loc, 'unknown_field', `unknown ${what} field \`${e.key}\``, `${hint} soev rejects unknown fields, and so does Assay for a soev file.`);
  }
}

/**
 * `id_pattern`: a regular expression with exactly one capture group (the rule). It is tested
 * against every case id while the file is parsed, so it runs on RE2 (linear time): on V8,
 * `((?:a+)+)b` and a 28-character id blocked the thread for 17 s.
 */
function idPatternOf(node: YNode | undefined, issues: Issues): LinearPattern | null {
  if (!node || (node.kind === 'scalar' && node.value === null)) return null;
  const hint = 'Write e.g. `id_pattern: "(R\\d+)-\\d+"`: the group is the rule, so case `R2-01` must have `rule: R2`.';
  const source = str(node);
  if (source === undefined) {
    issues.error(node.loc, 'schema', `\`id_pattern\` must be a regular expression string, not ${describe(node)}`, hint);
    return null;
  }
  const compiled = compileLinear(source);
  if (!compiled.ok) {
    issues.error(node.loc, 'invalid_regex', `\`id_pattern\` is not a valid regular expression: ${compiled.message}`, hint);
    return null;
  }
  const groups = compiled.regex.groupCount;
  if (groups !== 1) {
    issues.error(node.loc, 'schema', `\`id_pattern\` must have exactly one capture group (the rule), not ${groups}`, hint);
    return null;
  }
  return compiled.regex;
}

interface SuiteFacts {
  name: string | null;
  idPattern: LinearPattern | null;
  firstAt: Map<string, SourceLoc>;
  suiteNames: readonly string[];
}

/** soev's own checks of a case: its fields, its id (unique, matching `id_pattern`), its suite. */
function checkCase(node: YMap, suite: SuiteFacts, issues: Issues): void {
  unknownKeys(node, SOEV_CASE_KEYS, 'case', `Case fields: ${SOEV_CASE_KEYS.join(', ')}.`, issues);
  for (const key of ['id', 'lineage', 'category'] as const) {
    const value = get(node, key);
    if (!value || !(str(value) ?? '').trim()) issues.error((value ?? node).loc, 'schema', value ? `the case \`${key}\` must be a non-empty string, not ${describe(value)}` : `a case needs \`${key}\``, key === 'lineage' ? 'Write `lineage: <id of the root case>` (a split keeps a lineage on one side).' : `Write \`${key}: …\`.`);
  }
  const idNode = get(node, 'id');
  const id = str(idNode);
  if (id && idNode) {
    const first = suite.firstAt.get(id);
    if (first) issues.error(idNode.loc, 'duplicate_id', `the case id "${id}" is already used by the case at line ${first.line}:${first.col}`, 'Give every case a unique `id` (results are stored by case id).');
    else suite.firstAt.set(id, idNode.loc);
  }
  const suiteNode = get(node, 'suite');
  if (suiteNode && suite.name && str(suiteNode) !== suite.name) {
    const known = suite.suiteNames.includes(str(suiteNode) ?? '') ? ` (a suite of this project: move the case to that suite's files)` : '';
    issues.error(suiteNode.loc, 'schema', `the case names the suite "${str(suiteNode) ?? describe(suiteNode)}"${known}, but it is in the suite "${suite.name}"`, 'Drop `suite:` (the file fills it in), or move the case into a file of that suite.');
  }
  const rule = optionalString(get(node, 'rule'), 'rule', issues.silent());
  if (suite.idPattern && id && idNode) {
    const match = suite.idPattern.matchWhole(id);
    if (!match) issues.error(idNode.loc, 'schema', `the case id "${id}" does not match the suite's \`id_pattern\` ${suite.idPattern.pattern}`, 'Rename the case so that its id matches the pattern in full.');
    else if (match[1] !== rule) {
      const at = get(node, 'rule') ?? idNode;
      issues.error(at.loc, 'schema', `the case id "${id}" names the rule "${match[1] ?? ''}" (the group of \`id_pattern\`), but the case has ${rule === null ? 'no `rule`' : `\`rule: ${rule}\``}`, `Write \`rule: ${match[1] ?? '…'}\`, or rename the case.`);
    }
  }
  const expectNode = get(node, 'expect');
  if (expectNode?.kind === 'map') checkExpect(expectNode, issues);
  const turns = get(node, 'turns');
  if (!turns || turns.kind !== 'seq' || turns.items.length === 0) {
    issues.error((turns ?? idNode ?? node).loc, 'schema', turns ? `\`turns\` must be a non-empty list of turns, not ${describe(turns)}` : 'a case needs `turns` (at least one)', 'Write `turns:\n  - prompt: "…"`.');
  }
  const variants = get(node, 'variants');
  if (variants && variants.kind !== 'map' && !(variants.kind === 'scalar' && variants.value === null)) {
    issues.error(variants.loc, 'schema', `soev \`variants\` is a mapping from a name to a list of turns, not ${describe(variants)}`, 'Write `variants:\n  informal:\n    - prompt: "…"`.');
  }
  for (const list of [turns, ...(variants?.kind === 'map' ? variants.entries.map((e) => e.value) : [])]) {
    if (list?.kind !== 'seq') continue;
    for (const turn of list.items) checkWith(TurnSchema, turn, 'turn', 'A turn is `- prompt: "…"` (a non-empty string).', issues);
  }
}

const TurnSchema = z.strictObject({ prompt: z.string().trim().min(1, 'must be a non-empty string') });

/** soev's `Expect`, `SourceRoles` and `Nugget` reject unknown fields (the prompt parser only warns). */
function checkExpect(map: YMap, issues: Issues): void {
  const hint = 'Keys of expect: behaviour, message, answer, nuggets, sources (required, supporting, forbidden).';
  unknownKeys(map, EXPECT_KEYS, '`expect`', hint, issues);
  const sources = get(map, 'sources');
  if (sources?.kind === 'map') unknownKeys(sources, SOURCES_KEYS, '`expect.sources`', hint, issues);
  const nuggets = get(map, 'nuggets');
  if (nuggets?.kind === 'seq') for (const n of nuggets.items) if (n.kind === 'map') unknownKeys(n, NUGGET_KEYS, 'nugget', 'A nugget is `{ text, importance?, sources? }`.', issues);
}

/**
 * The case as a prompt mapping of its own nodes: `turns` become `messages` (each later turn
 * after a generated assistant turn), `criteria` becomes `should`. Fields the prompt parser does
 * not know are left out (checked above); `setup` has no use in Assay (no project hooks) and is
 * dropped with a warning.
 */
function promptNode(node: YMap, issues: Issues): YMap {
  const entries: YEntry[] = [];
  for (const e of node.entries) {
    if (e.key === 'turns') entries.push({ ...e, key: 'messages', value: messagesOf(e.value) });
    else if (e.key === 'criteria') entries.push({ ...e, key: 'should' });
    else if (e.key === 'setup') issues.warn(e.keyNode.loc, 'unknown_field', '`setup` is kept in the file but not used: Assay runs no project hooks (CaseSetup)', 'Remove it, or keep it for soev itself.');
    else if (['id', 'status', 'split', 'lineage', 'category', 'rule', 'derived_from', 'provenance', 'variants', 'expect', 'answerability'].includes(e.key)) entries.push(e);
  }
  return { kind: 'map', loc: node.loc, entries };
}

function messagesOf(turns: YNode): YNode {
  if (turns.kind !== 'seq') return turns;
  const items: YNode[] = [];
  turns.items.forEach((turn, i) => {
    if (i > 0) items.push({ kind: 'map', loc: turn.loc, entries: [synthetic('assistant', { kind: 'scalar', value: null, quoted: false, loc: turn.loc })] });
    const prompt = turn.kind === 'map' ? get(turn, 'prompt') : undefined;
    items.push({ kind: 'map', loc: turn.loc, entries: [synthetic('user', prompt ?? turn)] });
  });
  return { kind: 'seq', loc: turns.loc, items };
}

/** An entry made here, its key placed at its value (so an issue about it points at the text the author wrote). */
export function synthetic(key: string, value: YNode): YEntry {
  const keyNode: YScalar = { kind: 'scalar', value: key, quoted: false, loc: value.loc };
  return { key, keyNode, value };
}
