/**
 * The form view's model of a blueprint: its header, its prompts and each prompt's points, read
 * from the `yaml` package's Documents (`parseAllDocuments`), with a handle on the node behind
 * every field so that an edit (form-edits.ts) can splice exactly that node's source.
 *
 * The layout is the parser's own (documents.ts `planLayout`), the field spellings are the
 * parser's (vocabulary.ts), and the rest follows its reading (prompts.ts for the rubric,
 * points.ts for the point forms), so prompt number i and point number j
 * here are prompt i and point j of `parseBlueprint` whenever the blueprint parses, and the ids
 * are the parser's (a prompt without `id` gets its Weval hash id from the parser itself).
 */
import { isSoevProjectText } from '../soev/project';
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Document, type Node as YamlNode, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { formatFromFile, markedAsPrompt, planLayout, type BlueprintFormat, type DocumentShape, type LayoutKind } from '../blueprint/documents';
import { parseFnString } from '../blueprint/fn-strings';
import { parseBlueprint } from '../blueprint/parse';
import { QUESTION_KEYS, type QuestionKey } from '../blueprint/question-points';
import { HEADER_FIELDS, POINT_FIELDS, PROMPT_FIELDS } from '../blueprint/vocabulary';

export type FormLayout = LayoutKind;
export type PointBlock = 'should' | 'should_not' | 'correct';
export type FormPointKind = 'text' | 'function' | 'ref' | 'question' | 'criterion' | 'correct' | 'invalid';

export interface FormQuestion {
  type: QuestionKey;
  text: string;
  /** `score`: the levels as written, worst first. */
  levels: string[] | null;
  /** `choice`: each option's credit (0–1, or null for "does not apply"). */
  options: Record<string, number | null> | null;
}

export interface FormPoint {
  /** Position in the parser's flat list of the prompt's points. */
  index: number;
  block: PointBlock;
  /** Alternative path id as the parser numbers it (`should:0`…), or null for a required point. */
  path: string | null;
  kind: FormPointKind;
  /** Criterion text (text points), or the question's text. */
  text: string | null;
  /** Function name as written (without `$`), or the definition a `$ref` names. */
  fn: string | null;
  args: unknown;
  question: FormQuestion | null;
  /** `- kind: …` criterion entries (docs/criteria.md): the kind and the other keys. */
  criterion: { kind: string; params: Record<string, unknown> } | null;
  /** As written (null: not written, the parser's default 1). */
  weight: number | null;
  gate: boolean | null;
  citation: string | null;
  /** 1-based lines the point's source spans. */
  line: number;
  endLine: number;
  /** Written through an alias (`*name`): the form cannot edit it in place. */
  readOnly: boolean;
}

export interface FormMessage {
  role: string;
  content: string | null;
}

export interface FormPrompt {
  index: number;
  /** The parser's id (explicit, Weval hash, or renamed duplicate); null when the blueprint does not parse and the prompt has no `id`. */
  id: string | null;
  explicitId: boolean;
  /** `prompt`/`promptText`, when the prompt is one user turn. */
  prompt: string | null;
  messages: FormMessage[] | null;
  ideal: string | null;
  weight: number | null;
  citation: string | null;
  description: string | null;
  /** The key the rubric is written under (`should`, `points`, `expect`…), or null. */
  rubricKey: string | null;
  points: FormPoint[];
  line: number;
  endLine: number;
  readOnly: boolean;
}

export interface FormHeader {
  title: string | null;
  description: string | null;
  author: string | null;
  models: string[];
  tags: string[];
  /** Every key as written, in order (the form shows the ones it does not edit). */
  keys: string[];
}

export interface FormView {
  layout: FormLayout;
  /** Null when the file has no header (a bare list of prompts…). */
  header: FormHeader | null;
  prompts: FormPrompt[];
  /**
   * Whether `parseBlueprint` accepts the text, when it was asked (some prompt has no `id`, so the
   * parser's hash id is needed); null when every id is written and the parser was not run.
   */
  parses: boolean | null;
}

/** Where a point's node sits, for the edits. */
export interface PointHandle {
  node: YamlNode;
  /** The list holding it (the rubric, or an alternative path). */
  seq: YAMLSeq;
  /** The alternative path's own item in the rubric, when the point is in a path. */
  pathNode: YAMLSeq | null;
}

export interface PromptHandle {
  node: YAMLMap;
  /** The list holding the prompt, or null when the prompt is a document of its own. */
  seq: YAMLSeq | null;
  doc: Document.Parsed;
  points: PointHandle[];
}

export interface FormModel {
  text: string;
  view: FormView;
  docs: Document.Parsed[];
  header: YAMLMap | null;
  /** The list `prompts:` or a bare list's document, where a new prompt goes; null for one prompt per document. */
  promptList: YAMLSeq | null;
  prompts: PromptHandle[];
}

export type FormReading =
  | { ok: true; model: FormModel }
  | { ok: false; message: string; line: number; col: number }
  /** A file the form does not edit: a soev suite or project (its cases and criteria are edited in the YAML). */
  | { ok: false; unsupported: string };

/** A soev suite (`cases:` at the top) or project (`system:` + `suites:`), which the form leaves to the YAML. */
function soevKindOf(text: string, docs: readonly { contents: unknown }[]): 'suite' | 'project' | null {
  if (docs.length !== 1 || !isMap(docs[0]!.contents)) return null;
  const root = docs[0]!.contents;
  if (root.has('cases') && !root.has('prompts')) return 'suite';
  return isSoevProjectText(text, 'draft.yml') ? 'project' : null;
}

export function readForm(text: string, file = 'draft.yml'): FormReading {
  const lineCounter = new LineCounter();
  const all = parseAllDocuments(text, { merge: true, uniqueKeys: false, prettyErrors: false, lineCounter });
  // a binary search per position (the text is not scanned once per point)
  const lineAt = (offset: number) => lineCounter.linePos(offset).line;
  const docs = Array.isArray(all) ? all : [all];
  for (const doc of docs) {
    const error = doc.errors[0];
    if (error) {
      const at = lineCounter.linePos(error.pos[0]);
      return { ok: false, message: error.message.split('\n')[0]!, line: at.line, col: at.col };
    }
  }
  const filled = docs.filter((d) => d.contents !== null && !(isScalar(d.contents) && d.contents.value === null));
  const soev = soevKindOf(text, filled);
  if (soev) return { ok: false, unsupported: `This is a soev ${soev}: the form view edits Assay and Weval blueprints; edit its ${soev === 'suite' ? 'cases and criteria' : 'settings'} in the YAML (the editor checks it as you type).` };
  const { layout, header, promptList, promptNodes } = splitDocuments(filled, formatFromFile(file));

  // Only a prompt without an explicit `id` needs the parser (its Weval hash id hashes the normalised prompt).
  // A repeated id is renamed by the parser (`a-2`) too.
  const written = promptNodes.map(({ node }) => (isMap(node) ? stringOf(node.get('id', true)) : 'not a prompt'));
  const needsIds = written.some((id) => !id) || new Set(written).size < written.length;
  const parsed = needsIds ? parseBlueprint(text, { file }) : null;
  const prompts: PromptHandle[] = [];
  const promptViews: FormPrompt[] = [];
  for (const { node, seq, doc } of promptNodes) {
    if (!isMap(node)) continue; // the parser reports it and reads no prompt from it
    const handle: PromptHandle = { node, seq, doc, points: [] };
    const index = prompts.length;
    const parsedPrompt = parsed?.ok ? parsed.blueprint.prompts[index] : undefined;
    promptViews.push(promptView(lineAt, handle, index, parsedPrompt?.id ?? null));
    prompts.push(handle);
  }
  const view: FormView = { layout, header: header ? headerView(header) : null, prompts: promptViews, parses: parsed ? parsed.ok : null };
  return { ok: true, model: { text, view, docs, header, promptList, prompts } };
}

interface PromptNode {
  node: YamlNode;
  seq: YAMLSeq | null;
  doc: Document.Parsed;
}

/** The parser's layout (documents.ts `planLayout`), resolved to the library's nodes. */
function splitDocuments(docs: Document.Parsed[], format: BlueprintFormat): { layout: FormLayout; header: YAMLMap | null; promptList: YAMLSeq | null; promptNodes: PromptNode[] } {
  if (docs.length === 0) return { layout: 'header-only', header: null, promptList: null, promptNodes: [] };
  const plan = planLayout(shapeOf(docs[0]!.contents as YamlNode), docs.length, format);
  const header = plan.header === null ? null : (docs[plan.header]!.contents as YAMLMap);
  const promptNodes: PromptNode[] = [];
  let promptList: YAMLSeq | null = null;
  for (const i of plan.promptDocs) {
    const doc = docs[i]!;
    const contents = doc.contents as YamlNode;
    // with `prompts-key`, the header's `prompts:` list; otherwise the document is a list of prompts or one prompt
    const list = plan.kind === 'prompts-key' ? (header!.get('prompts', true) as YamlNode | undefined) : contents;
    if (isSeq(list)) promptNodes.push(...list.items.map((node) => ({ node: node as YamlNode, seq: list, doc })));
    else if (plan.kind !== 'prompts-key' && isMap(list)) promptNodes.push({ node: list, seq: null, doc });
    // a new prompt goes at the end of the last list of prompts (none when the last document is one prompt)
    promptList = isSeq(list) ? list : null;
  }
  return { layout: plan.kind, header, promptList, promptNodes };
}

/** documents.ts `DocumentShape` of a document's contents. */
function shapeOf(node: YamlNode): DocumentShape {
  if (isSeq(node)) return { kind: 'seq', prompt: false, prompts: 'absent' };
  if (!isMap(node)) return { kind: 'scalar', prompt: false, prompts: 'absent' };
  const prompts = node.get('prompts', true) as YamlNode | null | undefined;
  return {
    kind: 'map',
    prompt: markedAsPrompt((key) => {
      const value = node.get(key, true) as YamlNode | null | undefined;
      return value === undefined || value === null ? null : { truthy: truthy(value), map: isMap(value) };
    }),
    prompts: prompts === undefined ? 'absent' : prompts === null || (isScalar(prompts) && prompts.value === null) ? 'null' : isSeq(prompts) ? 'seq' : 'other',
  };
}

/** JavaScript truthiness of a node's value, as positions.ts `truthy` (collections are truthy). */
export function truthy(node: YamlNode | null | undefined): boolean {
  if (node === undefined || node === null) return false;
  if (isScalar(node)) return Boolean(node.value);
  return true;
}

export function scalarOf(node: unknown): string | number | boolean | null | undefined {
  if (!isScalar(node)) return undefined;
  const v = node.value;
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === null ? v : String(v);
}

function stringOf(node: unknown): string | null {
  const v = scalarOf(node);
  return typeof v === 'string' ? v : v === undefined || v === null ? null : String(v);
}

function numberOf(node: unknown): number | null {
  const v = scalarOf(node);
  return typeof v === 'number' ? v : null;
}

/** `read(a) ?? read(b) ?? …` over a field's spellings (vocabulary.ts), in the parser's order. */
function firstOf<T>(keys: readonly [string, ...string[]], read: (key: string) => T): T {
  let value = read(keys[0]);
  for (const key of keys.slice(1)) {
    if (value !== undefined && value !== null) return value;
    value = read(key);
  }
  return value;
}

function jsOf(node: unknown): unknown {
  if (node === null || node === undefined) return null;
  return (node as YamlNode).toJSON();
}

function headerView(map: YAMLMap): FormHeader {
  const author = map.get('author', true);
  const listOf = (node: unknown): string[] => (isSeq(node) ? node.items.map((i) => (isScalar(i) ? String(i.value) : JSON.stringify(jsOf(i)))) : []);
  return {
    title: firstOf(HEADER_FIELDS.title.spellings, (key) => stringOf(map.get(key, true))),
    description: stringOf(map.get('description', true)),
    author: isMap(author) ? stringOf(author.get('name', true)) : stringOf(author),
    models: listOf(map.get('models', true)),
    tags: listOf(map.get('tags', true)),
    keys: map.items.map((pair) => String(scalarOf(pair.key) ?? '')),
  };
}

/** The rubric key the parser reads (prompts.ts `pointsOf`): the first spelling of `should` with a truthy value. */
export function rubricKeyOf(map: YAMLMap): string | null {
  for (const key of PROMPT_FIELDS.should.spellings) {
    const value = map.get(key, true) as YamlNode | undefined;
    if (truthy(value) && !(key === 'expect' && isMap(value))) return key;
  }
  return null;
}

function promptView(lineOf: LineOf, handle: PromptHandle, index: number, parsedId: string | null): FormPrompt {
  const map = handle.node;
  const explicit = stringOf(map.get('id', true));
  const messagesNode = map.get('messages', true);
  const messages = isSeq(messagesNode)
    ? messagesNode.items.map((m): FormMessage => {
        if (!isMap(m)) return { role: '?', content: stringOf(m) };
        const role = m.get('role', true);
        if (role !== undefined) return { role: String(scalarOf(role)), content: stringOf(m.get('content', true)) };
        const first = m.items[0] as Pair | undefined;
        return { role: String(scalarOf(first?.key) ?? '?'), content: stringOf(first?.value) };
      })
    : null;
  const citation = firstOf(PROMPT_FIELDS.citation.spellings, (key) => map.get(key, true));
  const rubricKey = rubricKeyOf(map);
  const points = pointsOf(lineOf, handle, rubricKey);
  return {
    index,
    id: parsedId ?? (explicit || null),
    explicitId: Boolean(explicit),
    prompt: firstOf(PROMPT_FIELDS.prompt.spellings, (key) => stringOf(map.get(key, true))),
    messages,
    ideal: firstOf(PROMPT_FIELDS.ideal.spellings, (key) => stringOf(map.get(key, true))),
    weight: numberOf(firstOf(PROMPT_FIELDS.weight.spellings, (key) => map.get(key, true))),
    citation: isMap(citation) ? stringOf(citation.get('title', true)) ?? stringOf(citation.get('name', true)) : stringOf(citation),
    description: stringOf(map.get('description', true)),
    rubricKey,
    points,
    line: lineOf(map.range?.[0] ?? 0),
    endLine: lineOf(Math.max(0, (map.range?.[1] ?? 1) - 1)),
    readOnly: false,
  };
}

/** points.ts `normalizeBlock` order: the rubric (paths numbered per block), then `should_not`, then `correct`. */
function pointsOf(lineOf: LineOf, handle: PromptHandle, rubricKey: string | null): FormPoint[] {
  const map = handle.node;
  const out: FormPoint[] = [];
  const block = (node: unknown, which: 'should' | 'should_not') => {
    if (!isSeq(node)) return;
    let pathCount = 0;
    for (const raw of node.items) {
      const item = raw as YamlNode;
      if (!isSeq(item)) {
        add(item, which, null, { node: item, seq: node, pathNode: null });
        continue;
      }
      const members = item.items.filter((m) => !(isScalar(m) && m.value === null));
      if (members.length === 0) continue;
      const path = `${which}:${pathCount++}`;
      for (const member of members) if (!isSeq(member)) add(member as YamlNode, which, path, { node: member as YamlNode, seq: item, pathNode: item });
    }
  };
  const add = (node: YamlNode, which: PointBlock, path: string | null, h: PointHandle) => {
    out.push({ ...pointView(lineOf, node), index: out.length, block: which, path });
    handle.points.push(h);
  };
  if (rubricKey) block(map.get(rubricKey, true), 'should');
  const shouldNot = map.get('should_not', true) as YamlNode | undefined;
  if (truthy(shouldNot)) block(shouldNot, 'should_not');
  const correct = map.get('correct', true) as YamlNode | undefined;
  if (correct !== undefined && !(isScalar(correct) && correct.value === null)) {
    out.push({ ...emptyPoint(lineOf, correct), kind: 'correct', args: jsOf(correct), readOnly: true, index: out.length, block: 'correct', path: null });
    handle.points.push({ node: correct, seq: null as unknown as YAMLSeq, pathNode: null });
  }
  return out;
}

type LineOf = (offset: number) => number;

type PointFields = Omit<FormPoint, 'index' | 'block' | 'path'>;

function emptyPoint(lineOf: LineOf, node: YamlNode): PointFields {
  const range = node.range ?? [0, 0, 0];
  return {
    kind: 'invalid', text: null, fn: null, args: undefined, question: null, criterion: null, weight: null, gate: null, citation: null,
    line: lineOf(range[0]), endLine: lineOf(Math.max(range[0], range[1] - 1)), readOnly: isAlias(node),
  };
}

/** points.ts `normalizePoint`'s forms, in its order of precedence. */
function pointView(lineOf: LineOf, node: YamlNode): PointFields {
  const base = emptyPoint(lineOf, node);
  if (isAlias(node)) return base;
  if (isScalar(node)) {
    if (typeof node.value !== 'string') return base;
    const fn = parseFnString(node.value);
    if (fn.kind === 'invalid') return base;
    if (fn.kind === 'function') {
      const args = fn.hasArgs ? fn.args : undefined;
      return fn.name === 'ref' ? { ...base, kind: 'ref', fn: typeof args === 'string' ? args : null, args } : { ...base, kind: 'function', fn: fn.name, args };
    }
    return { ...base, kind: 'text', text: node.value };
  }
  if (!isMap(node)) return base;
  const common = { ...base, weight: numberOf(firstOf(POINT_FIELDS.weight.spellings, (key) => node.get(key, true))), gate: boolOf(node.get('gate', true)), citation: stringOf(node.get('citation', true)) };
  const keys = node.items.map((p) => String(scalarOf(p.key) ?? ''));
  const dollar = keys.find((k) => k.startsWith('$'));
  if (dollar) {
    const args = jsOf(node.get(dollar, true));
    if (dollar === '$ref') return { ...common, kind: 'ref', fn: typeof args === 'string' ? args : null, args };
    return { ...common, kind: 'function', fn: dollar.slice(1), args };
  }
  const question = QUESTION_KEYS.find((k) => node.has(k));
  if (question) {
    const levels = node.get('levels', true);
    const options = node.get('options', true);
    return {
      ...common,
      kind: 'question',
      text: stringOf(node.get(question, true)),
      question: {
        type: question,
        text: stringOf(node.get(question, true)) ?? '',
        levels: isSeq(levels) ? levels.items.map((i) => stringOf(i) ?? '') : null,
        options: isMap(options) ? Object.fromEntries(options.items.map((p) => [String(scalarOf(p.key)), numberOf(p.value)])) : null,
      },
    };
  }
  const textNode = firstOf(POINT_FIELDS.text.spellings, (key) => node.get(key, true));
  const fnNode = node.get('fn', true);
  if (textNode !== undefined || fnNode !== undefined) {
    if (fnNode !== undefined && truthy(fnNode as YamlNode)) {
      const name = (stringOf(fnNode) ?? '').trim().replace(/^\$/, '');
      const args = jsOf(firstOf(POINT_FIELDS.args.spellings, (key) => node.get(key, true)));
      return name === 'ref' ? { ...common, kind: 'ref', fn: typeof args === 'string' ? args : null, args } : { ...common, kind: 'function', fn: name, args };
    }
    return { ...common, kind: 'text', text: stringOf(textNode) };
  }
  if (node.has('kind')) {
    const params = Object.fromEntries(node.items.map((p) => [String(scalarOf(p.key)), jsOf(p.value)]).filter(([k]) => !['kind', ...POINT_FIELDS.weight.spellings, 'gate', 'citation'].includes(k as string)));
    return { ...common, kind: 'criterion', criterion: { kind: stringOf(node.get('kind', true)) ?? '', params } };
  }
  const only = node.items.length === 1 ? node.items[0]! : undefined;
  if (only && isScalar(only.value) && typeof only.value.value === 'string') {
    return { ...base, kind: 'text', text: String(scalarOf(only.key)), citation: only.value.value };
  }
  return base;
}

function boolOf(node: unknown): boolean | null {
  const v = scalarOf(node);
  return typeof v === 'boolean' ? v : null;
}
