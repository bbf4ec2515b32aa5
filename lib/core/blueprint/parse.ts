/**
 * `parseBlueprint(text, { file })`: a blueprint's text → the normalised `Blueprint`, or every
 * problem with its file, line, column and a hint. Pure: the caller reads the file.
 *
 *   text ─ documents.ts ─→ header node + prompt nodes
 *        ─ header.ts ────→ header fields, point_defs
 *        ─ prompts.ts ───→ prompts (points.ts, functions.ts, question-points.ts, correct-block.ts, case-fields.ts)
 *        ─ assignIds ────→ explicit ids, Weval hash ids, duplicates reported and renamed
 *        ─ contract.ts ──→ checked against BlueprintSchema (compiled), a failure is a parser bug
 */
import { checkBlueprint } from './contract';
import { byPosition, Issues, type BlueprintIssue } from './errors';
import { readDocuments, splitLayout, formatFromFile, type BlueprintFormat } from './documents';
import { UNPLACED } from './fast-tree';
import { defaultResolver, type ResolvePointFunction } from './functions';
import { normalizeHeader, type Header } from './header';
import { promptHashId } from './ids';
import { BLUEPRINT_LIMITS, limitHint, type BlueprintLimits } from './limits';
import { definitionPoint, NO_DEFS, normalizeBlock, type PointDefs, type PointsContext } from './points';
import { normalizePrompt, type DraftPrompt } from './prompts';
import { type Blueprint, type Prompt } from './schema';
import { wevalPrompt } from './weval';
import { looksLikeSoevSuite, soevSuite, type SoevSuiteContext } from '../soev/suite';

export interface ParseOptions {
  /** The file's path or name, used in every issue and for the format and title fallbacks. */
  file: string;
  /** Default: from the extension (`.json` → JSON, anything else → YAML). */
  format?: BlueprintFormat;
  /** The point-function lookup; default: the registry's `resolvePointFunction`. */
  pointDefs?: ResolvePointFunction;
  /** Default: `BLUEPRINT_LIMITS` (tests pass smaller ones). */
  limits?: BlueprintLimits;
  /** The soev project a suite file belongs to (its invariants, system, citations…); see lib/core/soev. */
  soev?: SoevSuiteContext;
}

export type ParseResult =
  | { ok: true; blueprint: Blueprint; warnings: BlueprintIssue[] }
  | { ok: false; errors: BlueprintIssue[]; warnings: BlueprintIssue[] };

export function parseBlueprint(text: string, options: ParseOptions): ParseResult {
  const fast = parseWith(text, options, true);
  return placed(fast) ? fast : parseWith(text, options, false);
}

/** The exact path alone (the `yaml` library's documents), for tests and benchmarks that compare the two. */
export function parseBlueprintExact(text: string, options: ParseOptions): ParseResult {
  return parseWith(text, options, false);
}

/**
 * The fast path (fast-tree.ts) places every node that has content exactly where the exact
 * path does, but not an empty value (`key:` and nothing): when one of those is what a result
 * points at (an issue, a prompt's or a point's location), the exact path decides.
 */
function placed(result: ParseResult): boolean {
  const issues = result.ok ? result.warnings : [...result.errors, ...result.warnings];
  for (const i of issues) if (i.line === UNPLACED.line || /\b0:0\b|\bline 0\b/.test(i.message)) return false;
  if (!result.ok) return true;
  for (const p of result.blueprint.prompts) {
    if (p.loc?.line === UNPLACED.line) return false;
    for (const point of p.points) if (point.loc?.line === UNPLACED.line) return false;
  }
  return true;
}

function parseWith(text: string, options: ParseOptions, fast: boolean): ParseResult {
  const issues = new Issues(options.file);
  const format = options.format ?? formatFromFile(options.file);
  const limits = options.limits ?? BLUEPRINT_LIMITS;
  const docs = readDocuments(text, format, issues, limits, fast);
  if (!docs) return result(issues, null);
  if (docs.length === 1 && looksLikeSoevSuite(docs[0]!)) return soevResult(docs[0], issues, options, limits);

  const layout = splitLayout(docs, format, issues);
  if (layout.prompts.length > limits.maxPrompts) {
    const first = layout.prompts[limits.maxPrompts]!;
    issues.error(first.loc, 'limit', `the blueprint has ${layout.prompts.length.toLocaleString('en-US')} prompts, over the limit of ${limits.maxPrompts.toLocaleString('en-US')}; this is prompt ${(limits.maxPrompts + 1).toLocaleString('en-US')}`, limitHint('prompts', limits.maxPrompts, 'Split the prompts over several blueprint files.'));
    return result(issues, null);
  }
  const header = normalizeHeader(layout.header, issues);
  const ctx: PointsContext = { issues, resolve: options.pointDefs ?? defaultResolver, defs: checkDefinitions(header, issues, options.pointDefs ?? defaultResolver), maxPoints: limits.maxPointsPerPrompt };
  const drafts: DraftPrompt[] = [];
  for (const node of layout.prompts) {
    if (issues.full) break; // rejected already; the rest would only add unlisted errors
    const draft = normalizePrompt(node, header, ctx);
    if (draft) drafts.push(draft);
  }
  // soev's `defaults:` come before each prompt's own points; added after the ids, so a prompt's hash id does not change with them.
  const defaults = header.defaultsNode ? normalizeBlock(header.defaultsNode, 'should', 'defaults', ctx) : [];
  const prompts = assignIds(drafts, issues).map((p) => (defaults.length > 0 ? { ...p, points: [...defaults, ...p.points] } : p));
  if (header.retrieval && prompts.length > 0) {
    // One blueprint is one kind of run: replies graded per prompt, or a corpus ranked per
    // embedding model. Mixing them would give one leaderboard entry two meanings.
    const first = prompts[0]!;
    issues.error(first.loc, 'schema', `a blueprint with a \`retrieval\` block scores embedding models over a corpus and has no prompts; this file also has ${prompts.length.toLocaleString('en-US')} prompt${prompts.length === 1 ? '' : 's'}`, 'Move the prompts into a blueprint of their own, or remove the `retrieval` block.');
  }

  const { defNodes: _defNodes, defaultsNode: _defaultsNode, title, ...fields } = header;
  const blueprint = { ...fields, title: title ?? header.id ?? titleFromFile(options.file), prompts };
  return result(issues, blueprint);
}

/** A soev suite file (lib/core/soev/suite.ts): one suite, one blueprint, one case per prompt. */
function soevResult(root: Parameters<typeof soevSuite>[0], issues: Issues, options: ParseOptions, limits: BlueprintLimits): ParseResult {
  const ctx: PointsContext = { issues, resolve: options.pointDefs ?? defaultResolver, defs: NO_DEFS, maxPoints: limits.maxPointsPerPrompt };
  const suite = soevSuite(root, ctx, options.soev);
  const header = normalizeHeader(suite.header, issues.silent());
  const { defNodes: _defNodes, title, ...fields } = header;
  return result(issues, { ...fields, title: title ?? titleFromFile(options.file), prompts: assignIds(suite.prompts, issues) });
}

function result(issues: Issues, blueprint: Blueprint | null): ParseResult {
  const [moreErrors, moreWarnings] = [issues.overflow().filter((i) => i.severity === 'error'), issues.overflow().filter((i) => i.severity === 'warning')];
  const warnings = [...issues.warnings.sort(byPosition), ...moreWarnings];
  if (issues.hasErrors() || !blueprint) return { ok: false, errors: [...issues.errors.sort(byPosition), ...moreErrors], warnings };
  // The schema is the contract: a blueprint that fails it is a parser bug, reported rather than passed on.
  const checked = checkBlueprint(blueprint);
  if (!checked.success) {
    issues.error(null, 'schema', `internal error: the normalised blueprint does not match its schema (${checked.path}: ${checked.message})`, 'Please report this with the blueprint attached.');
    return { ok: false, errors: issues.errors, warnings };
  }
  return { ok: true, blueprint: checked.data, warnings };
}

/** Each definition is checked once, where it is written, so a broken one is reported once. */
function checkDefinitions(header: Header, issues: Issues, resolve: ResolvePointFunction): PointDefs {
  const broken = new Set<string>();
  for (const [name, node] of header.defNodes) {
    if (issues.full) break;
    const before = issues.errorCount;
    definitionPoint(node, { block: 'should', path: null }, { issues, resolve, defs: { nodes: header.defNodes, broken } });
    if (issues.errorCount > before) broken.add(name);
  }
  return { nodes: header.defNodes, broken };
}

/**
 * Explicit ids are kept; a missing id is Weval's hash of the prompt. Two prompts with one id
 * (explicit or hashed) would overwrite each other's results (Weval did not notice: defect 7):
 * the later one is reported and renamed `<id>-2`, `-3`…, so the blueprint still loads.
 */
function assignIds(drafts: DraftPrompt[], issues: Issues): Prompt[] {
  const withIds = drafts.map((d) => {
    const id = d.explicitId ?? promptHashId(wevalPrompt(d.prompt, false));
    return { draft: d, id, idSource: d.explicitId ? ('explicit' as const) : ('hash' as const) };
  });
  const taken = new Set(withIds.map((p) => p.id));
  const firstAt = new Map<string, DraftPrompt>();
  return withIds.map(({ draft, id, idSource }) => {
    const first = firstAt.get(id);
    if (!first) {
      firstAt.set(id, draft);
      return withId(draft, id, idSource);
    }
    let n = 2;
    while (taken.has(`${id}-${n}`)) n++;
    const renamed = `${id}-${n}`;
    taken.add(renamed);
    const what = idSource === 'explicit' ? `the prompt id "${id}"` : `this prompt has no id and is identical to the prompt at line ${first.prompt.loc?.line}, so its hash id "${id}"`;
    issues.warn(
      draft.idLoc,
      'duplicate_id',
      `${what} is already used by the prompt at line ${first.prompt.loc?.line}:${first.prompt.loc?.col}; this one is renamed "${renamed}"`,
      idSource === 'explicit' ? 'Give every prompt a unique `id` (results are stored by prompt id).' : 'Remove the duplicate prompt, or give both an explicit, unique `id`.',
    );
    return withId(draft, renamed, 'renamed');
  });
}

/** The draft itself, given its id (not copied: drafts are the parser's own, and a copy per prompt showed in profiles). */
function withId(draft: DraftPrompt, id: string, idSource: Prompt['idSource']): Prompt {
  const prompt = draft.prompt as Prompt;
  prompt.id = id;
  prompt.idSource = idSource;
  return prompt;
}

function titleFromFile(file: string): string {
  const base = file.replace(/\\/g, '/').split('/').pop() ?? file;
  return base.replace(/(\.(civic|weval))?\.(ya?ml|json)$/i, '') || 'Untitled blueprint';
}
