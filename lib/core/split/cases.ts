/**
 * The cases of one file as `assay split` sees them: their lineage facts (id, lineage,
 * derived_from, category, rule, expected behaviour, suite), their current `split:` and where a
 * `split:` would be written. Read with the `yaml` Document API straight from the text, so the
 * command works on both layouts (an Assay/Weval blueprint's prompts, a soev suite's `cases:`)
 * and on a file the blueprint loader would reject for reasons unrelated to the split.
 *
 * The write-back is a text edit at an offset the Document API gives (split/write.ts): comments,
 * quoting, block scalars and blank lines stay byte for byte, which re-stringifying the
 * document would not guarantee (it reflows folded scalars and respaces comments).
 */
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Document, type Node as YamlNode, type Pair, type YAMLMap } from 'yaml';
import { z } from 'zod';
import { markedAsPrompt, planLayout } from '../blueprint/documents';
import type { BlueprintIssue } from '../blueprint/errors';
import type { SourceLoc } from '../blueprint/schema';
import { SplitSettingsSchema, type SplitSettings } from './settings';

export type SplitSide = 'dev' | 'test';

/** How `split: <side>` gets into the text: `remove` characters at `at` are replaced. */
export interface SplitEdit {
  at: number;
  remove: number;
  /** `pair`: a new `split:` entry; `value`: the value of an empty `split:`. */
  kind: 'pair' | 'value';
  style: 'block' | 'flow' | 'json';
  /** The column of the entry the new one goes before (block style). */
  indent: number;
  /** The `split:` key has no value at all (`split:`): a space goes before the side. */
  bare?: boolean;
}

/** What the split algorithm needs of a case (no text edit, no YAML node). */
export interface SplitCaseFacts {
  file: string;
  id: string | null;
  suite: string;
  lineage: string | null;
  category: string | null;
  rule: string | null;
  derivedFrom: string | null;
  behaviour: string;
  split: SplitSide | null;
  loc: SourceLoc;
}

export interface SplitCase extends SplitCaseFacts {
  edit: SplitEdit;
}

export type SplitFileKind = 'suite' | 'blueprint' | 'project';

export interface SplitFile {
  file: string;
  kind: SplitFileKind;
  cases: SplitCase[];
  /** A soev project file's `split:` settings (null for other files, or when it has none). */
  settings: SplitSettings | null;
  issues: BlueprintIssue[];
}

/**
 * Reads one file. `defaultSuite` names the suite of a blueprint without a header `id` (the
 * caller derives it from the path, as a blueprint's id is).
 */
export function readSplitFile(file: string, text: string, defaultSuite: string): SplitFile {
  const lineCounter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter, prettyErrors: false });
  const issues: BlueprintIssue[] = [];
  const at = (offset: number): SourceLoc => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, col };
  };
  const issue = (severity: BlueprintIssue['severity'], offset: number, message: string, hint: string) => {
    const { line, col } = at(offset);
    issues.push({ severity, code: 'schema', file, line, col, message, hint });
  };
  const result = (kind: SplitFileKind, cases: SplitCase[] = [], settings: SplitSettings | null = null): SplitFile => ({ file, kind, cases, settings, issues });

  const list = Array.isArray(docs) ? docs : [docs];
  for (const doc of list) {
    for (const error of doc.errors) {
      const { line, col } = at(error.pos[0]);
      issues.push({ severity: 'error', code: 'syntax', file, line, col, message: `YAML syntax error: ${error.message.split('\n')[0]}`, hint: 'Fix the YAML here first: `assay validate` explains most syntax errors.' });
    }
  }
  if (issues.length > 0) return result('blueprint');
  const json = /\.json$/i.test(file);
  const filled = list.filter((d) => d.contents !== null && !(isScalar(d.contents) && d.contents.value === null));
  if (filled.length === 0) return result('blueprint');

  const reader = new CaseReader(file, json, issue, at);
  const first = filled[0]!;
  const top = first.contents;
  if (filled.length === 1 && isMap(top)) {
    const cases = valueOf(first, top, 'cases');
    if (cases !== undefined) {
      const name = stringOf(first, valueOf(first, top, 'name'));
      if (!name) issue('error', top.range?.[0] ?? 0, 'a soev suite file needs a `name` (the suite its cases belong to)', 'Write `name: my-suite` above `cases:`.');
      if (!isSeq(cases)) {
        issue('error', rangeStart(cases, top), '`cases` must be a list of cases', 'Write each case as a list item: `cases:\\n  - id: c1\\n    lineage: c1\\n    …`.');
        return result('suite');
      }
      return result('suite', reader.items(first, cases.items, name ?? defaultSuite, true));
    }
    const suites = valueOf(first, top, 'suites');
    if (isMap(suites) && valueOf(first, top, 'prompts') === undefined) return result('project', [], projectSettings(first, top, issue));
  }

  // An Assay/Weval blueprint: the layout the parser chooses (planLayout, blueprint/documents.ts),
  // read off this file's `yaml` documents.
  const prompts = isMap(top) ? valueOf(first, top, 'prompts') : undefined;
  const plan = planLayout(
    {
      kind: isMap(top) ? 'map' : isSeq(top) ? 'seq' : 'scalar',
      prompt: isMap(top) && looksLikePrompt(first, top),
      prompts: prompts === undefined ? 'absent' : isSeq(prompts) ? 'seq' : isScalar(prompts) && prompts.value === null ? 'null' : 'other',
    },
    filled.length,
    json ? 'json' : 'yaml',
  );
  const headerDoc = plan.header === null ? null : filled[plan.header]!.contents;
  const header: YAMLMap | null = isMap(headerDoc) ? headerDoc : null;
  const promptNodes: { doc: Document; node: unknown }[] = [];
  for (const i of plan.promptDocs) {
    const doc = filled[i]!;
    const contents = doc.contents;
    if (plan.kind === 'prompts-key') {
      // the header's `prompts:` list (anything else there holds no prompt)
      if (isSeq(prompts)) promptNodes.push(...prompts.items.map((node) => ({ doc, node })));
    } else if (isSeq(contents)) promptNodes.push(...contents.items.map((node) => ({ doc, node })));
    else promptNodes.push({ doc, node: contents });
  }
  const suite = (header && stringOf(first, valueOf(first, header, 'id'))) || defaultSuite;
  const cases = promptNodes.flatMap(({ doc, node }) => reader.items(doc, [node], suite, false));
  return result('blueprint', cases);
}

type Report = (severity: BlueprintIssue['severity'], offset: number, message: string, hint: string) => void;

class CaseReader {
  constructor(
    private readonly file: string,
    private readonly json: boolean,
    private readonly issue: Report,
    private readonly at: (offset: number) => SourceLoc,
  ) {}

  items(doc: Document, nodes: unknown[], suite: string, soev: boolean): SplitCase[] {
    const out: SplitCase[] = [];
    for (const node of nodes) {
      if (!isMap(node)) {
        this.issue('error', (node as YamlNode | null)?.range?.[0] ?? 0, soev ? 'a case must be a mapping (id, lineage, turns, …)' : 'a prompt must be a mapping (id, prompt, …)', 'Write each as a list item of `key: value` lines.');
        continue;
      }
      out.push(this.caseOf(doc, node, suite));
    }
    return out;
  }

  private caseOf(doc: Document, map: YAMLMap, suite: string): SplitCase {
    const text = (key: string) => {
      const node = valueOf(doc, map, key);
      if (node === undefined || (isScalar(node) && node.value === null)) return null;
      const value = stringOf(doc, node);
      if (value === null) this.issue('error', rangeStart(node, map), `\`${key}\` must be a string`, `Write \`${key}: "…"\`.`);
      return value;
    };
    const expect = valueOf(doc, map, 'expect');
    const behaviour = isMap(expect) ? stringOf(doc, valueOf(doc, expect, 'behaviour') ?? valueOf(doc, expect, 'behavior')) : null;
    return {
      file: this.file,
      id: text('id'),
      suite: text('suite') ?? suite,
      lineage: text('lineage'),
      category: text('category'),
      rule: text('rule'),
      derivedFrom: text('derived_from'),
      behaviour: behaviour ?? 'answer',
      split: this.sideOf(doc, map),
      loc: this.at(map.range?.[0] ?? 0),
      edit: this.editFor(map),
    };
  }

  private sideOf(doc: Document, map: YAMLMap): SplitSide | null {
    const node = valueOf(doc, map, 'split');
    if (node === undefined || (isScalar(node) && node.value === null)) return null;
    const value = stringOf(doc, node);
    if (value === 'dev' || value === 'test') return value;
    this.issue('error', rangeStart(node, map), `\`split\` must be dev or test, not ${JSON.stringify(isScalar(node) ? node.value : 'a collection')}`, '`assay split` writes `split:` for the cases that have none; fix or delete this one and run it again.');
    return null;
  }

  /** An empty `split:` gets its value; otherwise a new entry goes after `id` (or first). */
  private editFor(map: YAMLMap): SplitEdit {
    const style: SplitEdit['style'] = this.json ? 'json' : map.flow ? 'flow' : 'block';
    const existing = pairNamed(map, 'split');
    if (existing) {
      const value = existing.value as YamlNode | null;
      const range = value?.range;
      if (range && range[1] > range[0]) return { at: range[0], remove: range[1] - range[0], kind: 'value', style, indent: 0 };
      const keyEnd = (existing.key as YamlNode).range?.[1] ?? 0;
      return { at: keyEnd + 1, remove: 0, kind: 'value', style, indent: 0, bare: true };
    }
    const idIndex = map.items.findIndex((pair) => keyName(pair) === 'id');
    const before = map.items[idIndex + 1] ?? map.items[0];
    const offset = (before?.key as YamlNode | undefined)?.range?.[0] ?? map.range?.[0] ?? 0;
    return { at: offset, remove: 0, kind: 'pair', style, indent: this.at(offset).col - 1 };
  }
}

/** The parser's test (markedAsPrompt, blueprint/documents.ts): a mapping with a prompt key holding a truthy value. */
function looksLikePrompt(doc: Document, map: YAMLMap): boolean {
  return markedAsPrompt((key) => {
    const node = valueOf(doc, map, key);
    if (node === undefined) return null;
    return { truthy: isScalar(node) ? Boolean(node.value) : true, map: isMap(node) };
  });
}

const ProjectSplitSchema = SplitSettingsSchema;

function projectSettings(doc: Document, top: YAMLMap, issue: Report): SplitSettings | null {
  const node = valueOf(doc, top, 'split');
  if (node === undefined) return null;
  const parsed = ProjectSplitSchema.safeParse((node as YamlNode).toJSON?.() ?? null);
  if (parsed.success) return parsed.data;
  const problem = parsed.error.issues[0]!;
  const path = problem.path.map(String);
  const target = path.reduce<unknown>((at, key) => (isMap(at) ? valueOf(doc, at, key) ?? at : at), node);
  issue('error', rangeStart(target, top), `\`split${path.map((p) => `.${p}`).join('')}\`: ${z.prettifyError(new z.ZodError([problem])).replace(/^✖ /, '').split('\n')[0]}`, 'soev split settings: `split: { test_share: 0.2, seed: 0, min_per_side: 2, stratify: { my-suite: rule_direction } }` (stratify keys: category, suite, rule, rule_direction).');
  return null;
}

function keyName(pair: Pair): string | null {
  return isScalar(pair.key) ? String(pair.key.value) : null;
}

function pairNamed(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((pair) => keyName(pair) === key);
}

function valueOf(doc: Document, map: YAMLMap, key: string): unknown {
  const pair = pairNamed(map, key);
  if (!pair) return undefined;
  return isAlias(pair.value) ? pair.value.resolve(doc) : pair.value;
}

function stringOf(doc: Document, node: unknown): string | null {
  const value = isAlias(node) ? node.resolve(doc) : node;
  if (!isScalar(value)) return null;
  return typeof value.value === 'string' || typeof value.value === 'number' ? String(value.value) : null;
}

function rangeStart(node: unknown, fallback: YamlNode): number {
  return (node as YamlNode | undefined)?.range?.[0] ?? fallback.range?.[0] ?? 0;
}
