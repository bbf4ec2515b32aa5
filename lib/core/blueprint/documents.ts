/**
 * From text to "a header and a list of prompt nodes", accepting every layout Weval accepts:
 *
 *   1. a header document followed by documents holding prompts (`---` separated);
 *   2. a stream of prompt documents (each a prompt mapping or a list of prompts);
 *   3. one document that is a list of prompts;
 *   4. one document with a `prompts:` key (and JSON, which is always this form);
 *   plus a lone prompt mapping, and a header with no prompts at all.
 *
 * Which document is the header follows Weval: in a multi-document file the first document is
 * the header unless it looks like a prompt (has `prompt`, `messages`, `should`, `ideal`,
 * `points`, or another prompt-only key such as `expect`); a single mapping is a prompt if it looks like one, otherwise a header.
 */
import { Composer, isScalar, LineCounter, Parser, visit, YAMLParseError, type Document } from 'yaml';
import type { Issues } from './errors';
import { findJsonSyntaxError } from './json-syntax';
import { BLUEPRINT_LIMITS, LimitExceeded, type BlueprintLimits } from './limits';
import { describe, Expansion, fromYaml, get, locAt, truthy, type YMap, type YNode } from './positions';
import type { SourceLoc } from './schema';
import { PROMPT_FIELDS } from './vocabulary';
import { readYamlFast } from './fast-tree';
import { describeUnstorable, unstorableOffset } from './text';
import { fileSizeProblem, jsonDepthProblem, readTokens } from './written-limits';

export type BlueprintFormat = 'yaml' | 'json';

export interface Layout {
  header: YMap | null;
  prompts: YNode[];
}

/** Weval's test for "this mapping is a prompt": any of these keys with a truthy value. */
export const WEVAL_PROMPT_KEYS = ['prompt', 'messages', 'should', 'ideal', 'points'] as const;
/**
 * Keys that only ever belong to a prompt (the other spellings of its text, ideal and rubric in
 * vocabulary.ts, `should_not`, `correct`); a mapping with any of them is never a header. Weval
 * reads `expect` as a prompt's rubric (an alias of `should`), so a first document holding only
 * `expect:` is a prompt: read as a header, its points were dropped with an "unknown header field".
 */
export const OTHER_PROMPT_KEYS: readonly string[] = [...PROMPT_FIELDS.prompt.spellings, ...PROMPT_FIELDS.ideal.spellings, ...PROMPT_FIELDS.should.spellings, 'should_not', 'correct'].filter(
  (key) => !(WEVAL_PROMPT_KEYS as readonly string[]).includes(key),
);

/** Every key that marks a mapping as a prompt (also read by `assay split`, lib/core/split). */
export const PROMPT_MARKER_KEYS: readonly string[] = [...WEVAL_PROMPT_KEYS, ...OTHER_PROMPT_KEYS];

export function looksLikePrompt(map: YMap): boolean {
  return markedAsPrompt((key) => {
    const value = get(map, key);
    return value ? { truthy: truthy(value), map: value.kind === 'map' } : null;
  });
}

/**
 * `looksLikePrompt` over any tree (the form editor reads the `yaml` library's nodes): `valueOf`
 * says whether a key's value is truthy and whether it is a mapping, or null when it is absent.
 */
export function markedAsPrompt(valueOf: (key: string) => { truthy: boolean; map: boolean } | null): boolean {
  return PROMPT_MARKER_KEYS.some((key) => {
    const value = valueOf(key);
    // `messages:` as a mapping (key → fixed text) is the header's soev messages; a prompt's is a list.
    return value !== null && value.truthy && !(key === 'messages' && value.map);
  });
}

/** Which layout a file has (the numbered list at the top of this file). */
export type LayoutKind = 'documents' | 'prompts-key' | 'list' | 'single-prompt' | 'header-only';

/** What choosing the layout needs to know of the first non-empty document. */
export interface DocumentShape {
  kind: 'map' | 'seq' | 'scalar';
  /** A mapping that looks like a prompt (`markedAsPrompt`). */
  prompt: boolean;
  /** A mapping's `prompts:` value: absent, null, a list or anything else. */
  prompts: 'absent' | 'null' | 'seq' | 'other';
}

export interface LayoutPlan {
  kind: LayoutKind;
  /** The header document's index, or null. */
  header: number | null;
  /**
   * The documents that hold prompts, in order: each is a list of prompts or one prompt mapping
   * (anything else is reported by the parser). With `prompts-key`, the header, whose
   * `prompts:` list holds them when it is a list.
   */
  promptDocs: number[];
}

/**
 * The layout of a file's `count` non-empty documents (at least one), decided by the first, once
 * for the parser (`splitLayout`) and for the form editor (lib/core/authoring/form-model.ts),
 * which reads the same text with the `yaml` library's nodes so that it can edit them in place.
 */
export function planLayout(first: DocumentShape, count: number, format: BlueprintFormat): LayoutPlan {
  if (count > 1) {
    const header = first.kind === 'map' && !first.prompt ? 0 : null;
    return { kind: 'documents', header, promptDocs: Array.from({ length: count }, (_, i) => i).filter((i) => i !== header) };
  }
  if (first.kind === 'seq') return { kind: 'list', header: null, promptDocs: [0] };
  if (first.kind === 'scalar') return { kind: 'header-only', header: null, promptDocs: [] };
  if (first.prompts !== 'absent') return { kind: 'prompts-key', header: 0, promptDocs: [0] };
  if (format === 'yaml' && first.prompt) return { kind: 'single-prompt', header: null, promptDocs: [0] };
  return { kind: 'header-only', header: 0, promptDocs: [] };
}

function shapeOf(node: YNode): DocumentShape {
  if (node.kind !== 'map') return { kind: node.kind, prompt: false, prompts: 'absent' };
  const prompts = get(node, 'prompts');
  return {
    kind: 'map',
    prompt: looksLikePrompt(node),
    prompts: prompts === undefined ? 'absent' : prompts.kind === 'seq' ? 'seq' : prompts.kind === 'scalar' && prompts.value === null ? 'null' : 'other',
  };
}

export function formatFromFile(file: string): BlueprintFormat {
  // Weval's rule (fetch-and-schedule-evals): `.yml`/`.yaml` are YAML, anything else is JSON.
  // Assay is kinder to names without an extension: only `.json` is JSON.
  return /\.json$/i.test(file) ? 'json' : 'yaml';
}

/**
 * Parses the text into documents; null (with issues recorded) when it is not YAML/JSON, is
 * empty, or passes a limit (limits.ts). The limits are checked in the order of the work they
 * bound: size before parsing, documents and depth before building documents, nodes and
 * aliases while expanding aliases and merges.
 *
 * With `fast`, YAML that the fast path takes (fast-tree.ts) skips the `yaml` documents; its
 * empty values are `UNPLACED`, which the caller must check (parse.ts).
 */
export function readDocuments(text: string, format: BlueprintFormat, issues: Issues, limits: BlueprintLimits = BLUEPRINT_LIMITS, fast = false): YNode[] | null {
  const tooBig = fileSizeProblem(text, limits);
  if (tooBig) {
    issues.error(null, 'limit', tooBig.message, tooBig.hint);
    return null;
  }
  const bad = unstorableOffset(text);
  if (bad >= 0) {
    issues.error(locOfOffset(text, bad), 'unstorable_text', `the file contains ${describeUnstorable(text, bad)}, which cannot be stored`, 'Remove it (an editor that shows invisible characters helps), or write it as an escape if it is meant to be there.');
    return null;
  }
  if (format === 'json') {
    const deep = jsonDepthProblem(text, limits);
    if (deep) {
      issues.error(locOfOffset(text, deep.offset), 'limit', deep.message, deep.hint);
      return null;
    }
  }
  if (fast && format === 'yaml') {
    const nodes = readYamlFast(text, limits);
    if (nodes) return nodes;
  }
  const lineCounter = new LineCounter();
  const { tokens, problem: overLimit } = readTokens(new Parser(lineCounter.addNewLine).parse(text), limits);
  if (format === 'json') {
    const bad = findJsonSyntaxError(text);
    if (bad) {
      issues.error(
        locAt(lineCounter, bad.offset),
        'syntax',
        `JSON syntax error: ${bad.message}`,
        'Fix the JSON at this position (a missing comma, quote or bracket is the usual cause), or write the blueprint in YAML.',
      );
      return null;
    }
  }
  if (overLimit) {
    issues.error(locAt(lineCounter, overLimit.offset), 'limit', overLimit.message, overLimit.hint);
    return null;
  }
  const composer = new Composer({
    prettyErrors: false,
    // js-yaml (Weval) applies `<<` merge keys by default.
    merge: true,
    // YAML forbids duplicate keys (JSON.parse keeps the last), but the library's check compares
    // each key with every earlier one: 40,000 keys took minutes. duplicateKeyErrors does it in one pass.
    uniqueKeys: false,
  });
  const docs = Array.from(composer.compose(tokens));
  if (format === 'yaml') for (const doc of docs) duplicateKeyErrors(doc);
  let syntaxErrors = 0;
  for (const doc of docs) {
    for (const error of doc.errors) {
      if (isUnspacedComment(error)) {
        // `prompts: []# note`: YAML wants a space before `#`, js-yaml (Weval's parser) reads a comment
        // all the same, and so does `yaml` after reporting it, so the document is the one Weval had.
        issues.warn(locAt(lineCounter, error.pos[0]), 'syntax', 'a comment must be separated from the value before it by a space; read as a comment, as Weval (js-yaml) reads it', 'Put a space before `#` (`[]  # note`), or quote the value if the `#` belongs to it.');
        continue;
      }
      syntaxErrors++;
      issues.error(locAt(lineCounter, error.pos[0]), 'syntax', `YAML syntax error: ${firstLine(error.message)}`, yamlHint(error.code, error.message));
    }
  }
  if (syntaxErrors > 0) return null;

  const expansion = new Expansion(limits);
  const nodes: YNode[] = [];
  try {
    for (const doc of docs) {
      const node = fromYaml(doc, lineCounter, expansion);
      if (node !== null && !(node.kind === 'scalar' && node.value === null)) nodes.push(node);
    }
  } catch (e) {
    if (!(e instanceof LimitExceeded)) throw e;
    issues.error(e.loc, 'limit', e.message, e.hint);
    return null;
  }
  for (const p of expansion.unstorable) issues.error(p.loc, 'unstorable_text', p.message, 'Remove the `\\0` or `\\u0000` escape (or the unpaired `\\uD800`-style surrogate): PostgreSQL cannot store it.');
  if (expansion.unstorable.length > 0) return null;
  if (nodes.length === 0) {
    issues.error(null, 'empty', 'the blueprint is empty (no document with content)', 'Add a header (title, models…) and at least one prompt, e.g. `- prompt: "…"`.');
    return null;
  }
  return nodes;
}

/**
 * The library's DUPLICATE_KEY errors (same code, message and position: the second key), found
 * with one lookup per key. Keys are equal as the library compares them: scalars by value.
 */
function duplicateKeyErrors(doc: Document.Parsed): void {
  visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        if (!isScalar(pair.key) || Number.isNaN(pair.key.value)) continue;
        if (seen.has(pair.key.value)) doc.errors.push(new YAMLParseError([pair.key.range?.[0] ?? 0, (pair.key.range?.[0] ?? 0) + 1], 'DUPLICATE_KEY', 'Map keys must be unique'));
        else seen.add(pair.key.value);
      }
    },
  });
}

/** 1-based line and column of a character offset (as the `yaml` LineCounter gives them), without parsing. */
export function locOfOffset(text: string, offset: number): SourceLoc {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, col: offset - lineStart + 1 };
}

export function splitLayout(docs: YNode[], format: BlueprintFormat, issues: Issues): Layout {
  const plan = planLayout(shapeOf(docs[0]!), docs.length, format);
  if (plan.kind !== 'documents') return splitSingle(docs[0]!, plan, issues);

  const header = plan.header === null ? null : (docs[plan.header] as YMap);
  if (header && get(header, 'prompts')) {
    issues.error(
      get(header, 'prompts')!.loc,
      'schema',
      'prompts are given both under the header\'s `prompts:` key and as later documents',
      'Keep one: either move these prompts into the documents after `---`, or drop the `---` documents and list every prompt under `prompts:`.',
    );
  }
  return { header, prompts: plan.promptDocs.flatMap((i) => promptsOfDocument(docs[i]!, issues)) };
}

function splitSingle(doc: YNode, plan: LayoutPlan, issues: Issues): Layout {
  if (doc.kind === 'seq') return { header: null, prompts: doc.items };
  if (doc.kind === 'scalar') {
    issues.error(doc.loc, 'schema', `a blueprint document must be a mapping (the header) or a list of prompts, not ${describe(doc)}`, 'Start with a header such as `title: My blueprint`, then `---`, then a list of prompts (`- prompt: "…"`).');
    return { header: null, prompts: [] };
  }
  if (plan.kind === 'prompts-key') {
    const prompts = get(doc, 'prompts')!;
    if (prompts.kind === 'seq') return { header: doc, prompts: prompts.items };
    if (!(prompts.kind === 'scalar' && prompts.value === null)) {
      issues.error(prompts.loc, 'schema', `\`prompts\` must be a list of prompts, not ${describe(prompts)}`, 'Write each prompt as a list item: `prompts:\\n  - id: p1\\n    prompt: "…"`.');
    }
    return { header: doc, prompts: [] };
  }
  if (plan.kind === 'single-prompt') return { header: null, prompts: [doc] };
  return { header: doc, prompts: [] };
}

function promptsOfDocument(doc: YNode, issues: Issues): YNode[] {
  if (doc.kind === 'seq') return doc.items;
  if (doc.kind === 'map') return [doc];
  issues.error(doc.loc, 'schema', `a prompt document must be a prompt mapping or a list of prompts, not ${describe(doc)}`, 'Write prompts as `- prompt: "…"` items (one list), or one prompt mapping per `---` document.');
  return [];
}

/** `yaml`'s error for a `#` right after a token (`]#`, `"#`): one js-yaml accepts as a comment. */
function isUnspacedComment(error: YAMLParseError): boolean {
  return error.code === 'MISSING_CHAR' && /^Comments must be separated from other tokens by white space characters/.test(error.message);
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}

function yamlHint(code: string, message: string): string {
  if (code === 'BLOCK_AS_IMPLICIT_KEY' || /compact mappings|implicit keys/.test(message)) {
    return 'A plain value cannot contain ": " (colon and space). Quote the whole value, e.g. `title: "Maternal Benefits: Uttar Pradesh"`, or use a block scalar (`description: |`).';
  }
  if (code === 'DUPLICATE_KEY') return 'Each key may appear once per mapping; remove or rename the repeated key.';
  if (code === 'BAD_INDENT' || code === 'MISSING_CHAR') return 'Check the indentation and the closing quote or bracket of the value that starts here.';
  if (code === 'TAB_AS_INDENT') return 'YAML indentation must use spaces, not tabs.';
  return 'Fix the YAML at this position; quoting values that contain `:`, `#`, `[`, `{` or a leading `*`/`&`/`!` avoids most problems.';
}
