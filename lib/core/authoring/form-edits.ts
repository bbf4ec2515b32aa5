/**
 * The form's edits: each takes the model read from the text (form-model.ts) and returns the new
 * text. An edit touches only the source of the node it changes (source-text.ts): setting a
 * point's weight rewrites that point's lines and nothing else, so the author's comments and
 * layout elsewhere stay byte for byte. A point written in a short form (`- "…"`, `- "$fn: arg"`,
 * `- "criterion": "citation"`) becomes a mapping (`- point: "…"` + `weight: 2`) when it gains a
 * field only a mapping can hold.
 */
import { isMap, isScalar, isSeq, type Node as YamlNode, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { parseFnString } from '../blueprint/fn-strings';
import { QUESTION_KEYS } from '../blueprint/question-points';
import { HEADER_FIELDS, POINT_FIELDS, PROMPT_FIELDS, writtenSpelling, type FieldWord } from '../blueprint/vocabulary';
import type { FormModel, PointHandle } from './form-model';
import { rubricKeyOf, scalarOf } from './form-model';
import { applySplices, columnOf, lineEndAfter, lineStartOf, onlyIndentBefore, renderFlow, renderScalar, styleOfType, type Splice } from './source-text';

export type HeaderField = 'title' | 'description' | 'author' | 'models' | 'tags';
export type PromptField = 'id' | 'prompt' | 'ideal' | 'weight' | 'citation' | 'description';
export type PointField = 'text' | 'weight' | 'gate' | 'citation' | 'args' | 'levels' | 'options';

export type FormEdit =
  | { op: 'header'; field: HeaderField; value: string | string[] | null }
  | { op: 'prompt'; prompt: number; field: PromptField; value: string | number | null }
  | { op: 'message'; prompt: number; message: number; value: string }
  | { op: 'point'; prompt: number; point: number; field: PointField; value: unknown }
  | { op: 'add-point'; prompt: number; block: 'should' | 'should_not'; text: string }
  | { op: 'remove-point'; prompt: number; point: number }
  | { op: 'add-prompt'; id: string; prompt: string }
  | { op: 'remove-prompt'; prompt: number };

/** An edit the form cannot make here (an alias, a form it does not write); says what to do instead. */
export class FormEditError extends Error {
  override name = 'FormEditError';
}

export function editForm(model: FormModel, edit: FormEdit): string {
  return applySplices(model.text, splicesOf(model, edit));
}

function splicesOf(model: FormModel, edit: FormEdit): Splice[] {
  const text = model.text;
  switch (edit.op) {
    case 'header':
      return headerEdit(model, edit.field, edit.value);
    case 'prompt': {
      const map = promptAt(model, edit.prompt).node;
      const aliased = ALIASED_PROMPT_FIELDS[edit.field];
      const key = aliased ? spellingToEdit(aliased, (k) => map.has(k)) : edit.field;
      const current = map.get(key, true);
      if (edit.field === 'citation' && isMap(current)) return setKey(text, current, current.has('name') && !current.has('title') ? 'name' : 'title', edit.value);
      return setKey(text, map, key, edit.value);
    }
    case 'message': {
      const messages = promptAt(model, edit.prompt).node.get('messages', true);
      const message = isSeq(messages) ? messages.items[edit.message] : undefined;
      if (!isMap(message)) throw new FormEditError(`prompt ${edit.prompt + 1} has no message ${edit.message + 1}`);
      const pair = message.has('content') ? message.items.find((p) => scalarOf(p.key) === 'content')! : message.items[0]!;
      return setPairValue(text, message, pair, edit.value);
    }
    case 'point':
      return pointEdit(text, pointAt(model, edit.prompt, edit.point), edit.field, edit.value);
    case 'add-point':
      return addPoint(model, edit.prompt, edit.block, edit.text);
    case 'remove-point': {
      const handle = pointAt(model, edit.prompt, edit.point);
      if (handle.pathNode && handle.pathNode.items.length === 1) {
        const rubric = rubricOf(model, edit.prompt, handle);
        return [removeItem(text, rubric, handle.pathNode)];
      }
      return [removeItem(text, handle.seq, handle.node)];
    }
    case 'add-prompt':
      return addPrompt(model, edit.id, edit.prompt);
    case 'remove-prompt': {
      const p = promptAt(model, edit.prompt);
      if (p.seq) return [removeItem(text, p.seq, p.node)];
      const docIndex = model.docs.indexOf(p.doc);
      const from = p.doc.range[0];
      const to = model.docs[docIndex + 1]?.range[0] ?? text.length;
      return [{ from, to, insert: '' }];
    }
  }
}

/** Prompt fields the form edits under the spelling the author wrote (the others: under their own name). */
const ALIASED_PROMPT_FIELDS: Partial<Record<PromptField, FieldWord>> = { weight: PROMPT_FIELDS.weight, prompt: PROMPT_FIELDS.prompt, citation: PROMPT_FIELDS.citation };

/** The spelling the author wrote (the one the parser reads), else the canonical name. */
function spellingToEdit(field: FieldWord, has: (key: string) => boolean): string {
  return writtenSpelling(field, has) ?? field.name;
}

function promptAt(model: FormModel, index: number) {
  const p = model.prompts[index];
  if (!p) throw new FormEditError(`there is no prompt ${index + 1} (the blueprint has ${model.prompts.length})`);
  return p;
}

function pointAt(model: FormModel, prompt: number, index: number): PointHandle {
  const h = promptAt(model, prompt).points[index];
  if (!h) throw new FormEditError(`prompt ${prompt + 1} has no point ${index + 1}`);
  const view = model.view.prompts[prompt]!.points[index]!;
  if (view.readOnly) throw new FormEditError(`point ${index + 1} of prompt ${prompt + 1} is written through an alias or as a \`correct:\` block; edit it in the YAML`);
  return h;
}

function rubricOf(model: FormModel, prompt: number, handle: PointHandle): YAMLSeq {
  const map = promptAt(model, prompt).node;
  for (const key of [rubricKeyOf(map), 'should_not']) {
    const seq = key ? map.get(key, true) : undefined;
    if (isSeq(seq) && seq.items.includes(handle.pathNode as never)) return seq;
  }
  throw new FormEditError('the alternative path is not in a rubric list');
}

/** Indentation of a block collection's entries: the column its first entry starts at. */
function indentOf(text: string, node: YAMLMap | YAMLSeq): number {
  return columnOf(text, node.range![0]);
}

/** A value already rendered (in the style of the value it came from). */
class Raw {
  constructor(readonly source: string) {}
}

type Value = string | number | boolean | null | readonly unknown[] | Record<string, unknown>;

/** The source of a new value placed after `key:` in a block mapping indented `indent`: ` value` or a block list. */
function valueSource(value: Value | Raw, indent: number, inFlow: boolean, style?: ReturnType<typeof styleOfType>): string {
  if (value instanceof Raw) return ' ' + value.source.replace(/\n$/, '');
  if (Array.isArray(value) || (value !== null && typeof value === 'object')) return ' ' + renderFlow(value, inFlow);
  return ' ' + renderScalar(value as string | number | boolean | null, { indent: indent + 2, inFlow, style });
}

/** Sets (or adds, or with null removes) `key` of a mapping. */
export function setKey(text: string, map: YAMLMap, key: string, value: Value | undefined): Splice[] {
  const pair = map.items.find((p) => scalarOf(p.key) === key) as Pair<YamlNode, YamlNode | null> | undefined;
  if (pair) {
    if (value === null || value === undefined) return [removePair(text, map, pair)];
    return setPairValue(text, map, pair, value);
  }
  if (value === null || value === undefined) return [];
  if (map.flow) {
    const close = map.range![1] - 1;
    let at = close;
    while (at > map.range![0] && /\s/.test(text[at - 1]!)) at--;
    const sep = map.items.length > 0 ? ', ' : '';
    return [{ from: at, to: at, insert: `${sep}${key}:${valueSource(value, 0, true)}` }];
  }
  if (map.items.length === 0) throw new FormEditError(`cannot add \`${key}\` to an empty mapping here; write it in the YAML`);
  const indent = indentOf(text, map);
  const last = map.items[map.items.length - 1]!;
  const end = lineEndAfter(text, nodeEnd(last));
  const newline = end === text.length && !text.endsWith('\n') ? '\n' : '';
  return [{ from: end, to: end, insert: `${newline}${' '.repeat(indent)}${key}:${valueSource(value, indent, false)}\n` }];
}

function nodeEnd(pair: Pair): number {
  const v = pair.value as YamlNode | null;
  return v?.range?.[1] ?? (pair.key as YamlNode).range![1];
}

function setPairValue(text: string, map: YAMLMap, pair: Pair, value: Value): Splice[] {
  const old = pair.value as YamlNode | null;
  const keyNode = pair.key as YamlNode;
  const inFlow = map.flow ?? false;
  const indent = map.flow ? 0 : indentOf(text, map);
  if (!old || !old.range || (isScalar(old) && old.value === null && old.range[0] === old.range[1])) {
    // `key:` with nothing after it
    const at = keyNode.range![1];
    const colon = text.indexOf(':', at);
    return [{ from: colon + 1, to: colon + 1, insert: valueSource(value, indent, inFlow) }];
  }
  if (isScalar(old) && (value === null || typeof value !== 'object')) {
    if (old.value === value) return [];
    const style = styleOfType(old.type);
    const contentIndent = style === 'block' ? blockIndent(text, old) : indent + 2;
    let insert = renderScalar(value as string | number | boolean | null, { style, indent: contentIndent, inFlow });
    // a block scalar's range ends after its last line: the new value must end that line too
    if (text[old.range[1] - 1] === '\n' && !insert.endsWith('\n')) insert += '\n';
    const to = old.range[1];
    return [{ from: old.range[0], to, insert }];
  }
  // a collection, or a collection replacing a scalar: on one line, in flow style
  const rendered = renderFlow(value, inFlow);
  const blockCollection = !isScalar(old) && !(old as YAMLMap | YAMLSeq).flow;
  if (blockCollection) {
    const colon = text.indexOf(':', keyNode.range![1]);
    const end = lineEndAfter(text, old.range[1]);
    return [{ from: colon + 1, to: end, insert: ` ${rendered}\n` }];
  }
  return [{ from: old.range[0], to: old.range[1], insert: rendered }];
}

function blockIndent(text: string, node: YamlNode): number {
  const firstNl = text.indexOf('\n', node.range![0]);
  const line = text.slice(firstNl + 1, text.indexOf('\n', firstNl + 1) >>> 0);
  return line.length - line.trimStart().length;
}

function removePair(text: string, map: YAMLMap, pair: Pair): Splice {
  const keyNode = pair.key as YamlNode;
  const start = keyNode.range![0];
  const end = nodeEnd(pair);
  if (map.flow) {
    const index = map.items.indexOf(pair);
    const next = map.items[index + 1];
    if (next) return { from: start, to: (next.key as YamlNode).range![0], insert: '' };
    const prev = map.items[index - 1];
    return { from: prev ? nodeEnd(prev) : start, to: end, insert: '' };
  }
  if (!onlyIndentBefore(text, start, true)) {
    // the first key of a list item (`- weight: 2`): keep the dash, start the item at the next key
    const next = map.items[map.items.indexOf(pair) + 1];
    if (!next) throw new FormEditError('cannot remove the only key of this mapping');
    return { from: start, to: (next.key as YamlNode).range![0], insert: '' };
  }
  return { from: lineStartOf(text, start), to: lineEndAfter(text, end), insert: '' };
}

function pointEdit(text: string, h: PointHandle, field: PointField, value: unknown): Splice[] {
  const node = h.node;
  if (isScalar(node)) return scalarPointEdit(text, h, field, value);
  if (!isMap(node)) throw new FormEditError('this point is not a string or a mapping; edit it in the YAML');
  const keys = node.items.map((p) => String(scalarOf(p.key)));
  if (isPairForm(node) && (field === 'weight' || field === 'gate' || field === 'citation')) return convertPair(text, node, { [field]: field === 'gate' ? (value ? true : null) : value });
  switch (field) {
    case 'weight':
      return setKey(text, node, spellingToEdit(POINT_FIELDS.weight, (k) => keys.includes(k)), value as number | null);
    case 'gate':
      return setKey(text, node, 'gate', value ? true : null);
    case 'citation':
      return setKey(text, node, 'citation', value as string | null);
    case 'text': {
      const key = [...QUESTION_KEYS, ...POINT_FIELDS.text.spellings].find((k) => keys.includes(k));
      if (key) return setKey(text, node, key, value as string);
      if (isPairForm(node)) {
        const pair = node.items[0]!;
        const k = pair.key as YamlNode;
        if (scalarOf(k) === value) return [];
        return [{ from: k.range![0], to: k.range![1], insert: renderScalar(String(value), { indent: 0, style: isScalar(k) ? styleOfType(k.type) : 'double', implicitKey: true, inFlow: node.flow }) }];
      }
      throw new FormEditError('this point has no text to edit (a function point has arguments)');
    }
    case 'args': {
      const dollar = keys.find((k) => k.startsWith('$'));
      if (dollar) return setKey(text, node, dollar, value as Value);
      if (keys.includes('fn')) return setKey(text, node, spellingToEdit(POINT_FIELDS.args, (k) => keys.includes(k)), value as Value);
      throw new FormEditError('this point is not a function; it has no arguments');
    }
    case 'levels':
    case 'options':
      return setKey(text, node, field, value as Value);
  }
}

function isPairForm(map: YAMLMap): boolean {
  const only = map.items.length === 1 ? map.items[0]! : undefined;
  const key = String(scalarOf(only?.key));
  return Boolean(only) && ![...POINT_FIELDS.text.spellings, 'fn', ...POINT_FIELDS.weight.spellings, 'citation', 'gate', 'kind', ...QUESTION_KEYS].includes(key) && !key.startsWith('$') && isScalar(only!.value) && typeof (only!.value as { value: unknown }).value === 'string';
}

/** `- "criterion": "citation"` → `- point: criterion` + `citation:` (+ the new fields). */
function convertPair(text: string, map: YAMLMap, fields: Record<string, unknown>): Splice[] {
  const pair = map.items[0]!;
  const entries: [string, unknown][] = [['point', String(scalarOf(pair.key))], ['citation', scalarOf(pair.value)]];
  for (const [k, v] of Object.entries(fields)) {
    const at = entries.findIndex(([key]) => key === k);
    if (at >= 0) entries.splice(at, 1);
    if (v !== null && v !== undefined && v !== false) entries.push([k, v]);
  }
  return [{ from: map.range![0], to: (pair.value as YamlNode).range![1], insert: mappingSource(text, map.range![0], entries, map.flow ?? false) }];
}

/** The mapping written where a short-form point was: the first key on the dash's line, the others below it. */
function mappingSource(text: string, at: number, entries: [string, unknown][], inFlow: boolean): string {
  const indent = columnOf(text, at);
  if (inFlow) return `{${entries.map(([k, v]) => `${k}:${valueSource(v as Value | Raw, 0, true)}`).join(', ')}}`;
  return entries.map(([k, v], i) => `${i === 0 ? '' : ' '.repeat(indent)}${k}:${valueSource(v as Value | Raw, indent, false)}`).join('\n');
}

function scalarPointEdit(text: string, h: PointHandle, field: PointField, value: unknown): Splice[] {
  const node = h.node as YamlNode & { value: unknown; type?: Parameters<typeof styleOfType>[0] };
  const written = typeof node.value === 'string' ? node.value : String(node.value);
  const fn = parseFnString(written);
  const inFlow = h.seq.flow ?? false;
  // a block scalar's range ends after its last line: the new source must end that line too
  const replace = (insert: string): Splice[] => [{ from: node.range![0], to: node.range![1], insert: text[node.range![1] - 1] === '\n' && !insert.endsWith('\n') ? `${insert}\n` : insert }];
  if (field === 'text') {
    if (written === value) return [];
    if (fn.kind !== 'text') throw new FormEditError('this point is a function; edit its arguments');
    return replace(renderScalar(String(value), { style: styleOfType(node.type), indent: columnOf(text, node.range![0]), inFlow }));
  }
  // the mapping this short form stands for
  const entries: [string, unknown][] = fn.kind === 'function' ? (fn.hasArgs ? [[`$${fn.name}`, fn.args]] : [['fn', fn.name]]) : [['point', new Raw(renderScalar(written, { style: styleOfType(node.type), indent: columnOf(text, node.range![0]) + 2, inFlow }))]];
  if (field === 'args') {
    if (fn.kind !== 'function') throw new FormEditError('this point is not a function; it has no arguments');
    entries[0] = [`$${fn.name}`, value];
  } else if (field === 'weight' || field === 'citation' || field === 'gate') {
    const v = field === 'gate' ? (value ? true : null) : value;
    if (v === null || v === undefined) return [];
    entries.push([field, v]);
  } else throw new FormEditError(`a ${fn.kind === 'function' ? 'function' : 'text'} point has no ${field}`);
  return replace(mappingSource(text, node.range![0], entries, inFlow));
}

function addPoint(model: FormModel, prompt: number, block: 'should' | 'should_not', pointText: string): Splice[] {
  const text = model.text;
  const map = promptAt(model, prompt).node;
  const key = block === 'should' ? (rubricKeyOf(map) ?? 'should') : 'should_not';
  const seq = map.get(key, true);
  const item = renderScalar(pointText, { indent: 0, style: 'double' });
  if (isSeq(seq)) return [appendItem(text, seq, item)];
  if (map.flow) return setKey(text, map, key, [pointText]);
  if (seq !== undefined && !(isScalar(seq) && seq.value === null)) throw new FormEditError(`\`${key}\` is not a list; fix it in the YAML first`);
  const indent = indentOf(text, map);
  const source = `\n${' '.repeat(indent + 2)}- ${item}`;
  if (seq !== undefined) {
    const pair = map.items.find((p) => scalarOf(p.key) === key)!;
    return [{ from: (pair.key as YamlNode).range![1] + 1, to: lineEndAfter(text, nodeEnd(pair)) - 1, insert: source }];
  }
  const last = map.items[map.items.length - 1]!;
  const end = lineEndAfter(text, nodeEnd(last));
  const newline = end === text.length && !text.endsWith('\n') ? '\n' : '';
  return [{ from: end, to: end, insert: `${newline}${' '.repeat(indent)}${key}:${source}\n` }];
}

/** A new last item of a list, in its style (`- item` lines at the list's indent, or `, item` inside `[…]`). */
function appendItem(text: string, seq: YAMLSeq, item: string): Splice {
  if (seq.flow) {
    let at = seq.range![1] - 1;
    while (at > seq.range![0] + 1 && /\s/.test(text[at - 1]!)) at--;
    return { from: at, to: at, insert: `${seq.items.length > 0 ? ', ' : ''}${item}` };
  }
  const last = seq.items[seq.items.length - 1] as YamlNode;
  const dash = dashBefore(text, last.range![0]);
  const indent = columnOf(text, dash);
  const end = lineEndAfter(text, last.range![1]);
  const newline = end === text.length && !text.endsWith('\n') ? '\n' : '';
  const lines = item.split('\n');
  return { from: end, to: end, insert: `${newline}${' '.repeat(indent)}- ${lines.map((l, i) => (i === 0 ? l : ' '.repeat(indent + 2) + l)).join('\n')}\n` };
}

function dashBefore(text: string, at: number): number {
  let i = at - 1;
  while (i >= 0 && text[i] === ' ') i--;
  if (text[i] !== '-') throw new FormEditError('this list item is not written as `- item`; edit it in the YAML');
  return i;
}

/** Removes one item of a list: its lines, or in `[…]` the item and a comma. */
function removeItem(text: string, seq: YAMLSeq, node: YamlNode): Splice {
  const index = seq.items.indexOf(node as never);
  const next = seq.items[index + 1] as YamlNode | undefined;
  if (seq.flow) {
    if (next) return { from: node.range![0], to: next.range![0], insert: '' };
    const prev = seq.items[index - 1] as YamlNode | undefined;
    return { from: prev ? prev.range![1] : node.range![0], to: node.range![1], insert: '' };
  }
  const dash = dashBefore(text, node.range![0]);
  if (onlyIndentBefore(text, dash)) return { from: lineStartOf(text, dash), to: lineEndAfter(text, node.range![1]), insert: '' };
  // the first item on its parent's dash line (`- - a`): the next item moves up in its place
  if (!next) throw new FormEditError('cannot remove the only item of this nested list; remove the list');
  return { from: dash, to: dashBefore(text, next.range![0]), insert: '' };
}

function addPrompt(model: FormModel, id: string, promptText: string): Splice[] {
  const text = model.text;
  const body: [string, unknown][] = [['id', id], ['prompt', promptText], ['should', null]];
  const render = (indent: number) =>
    body.map(([k, v], i) => `${i === 0 ? '' : ' '.repeat(indent)}${k}:${v === null ? `\n${' '.repeat(indent + 2)}- ${renderScalar('The reply …', { indent: 0, style: 'double' })}` : valueSource(v as Value | Raw, indent, false)}`).join('\n');
  if (model.promptList && model.promptList.items.length > 0 && !model.promptList.flow) {
    const first = model.promptList.items[0] as YamlNode;
    const indent = columnOf(text, first.range![0]);
    const last = model.promptList.items[model.promptList.items.length - 1] as YamlNode;
    const end = lineEndAfter(text, last.range![1]);
    const newline = end === text.length && !text.endsWith('\n') ? '\n' : '';
    return [{ from: end, to: end, insert: `${newline}${' '.repeat(indent - 2)}- ${render(indent)}\n` }];
  }
  if (model.promptList?.flow) throw new FormEditError('the prompts are a flow list (`[…]`); write the new prompt in the YAML, or turn the list into `- prompt: "…"` items');
  if (model.view.layout === 'header-only' && model.header && !model.header.has('prompts')) {
    const end = text.length;
    return [{ from: end, to: end, insert: `${text.endsWith('\n') || text === '' ? '' : '\n'}prompts:\n  - ${render(4)}\n` }];
  }
  if (model.view.layout === 'header-only' || (model.view.layout === 'prompts-key' && !model.promptList)) {
    throw new FormEditError('the header\'s `prompts:` is not a list; write `prompts:` followed by `- prompt: "…"` items in the YAML');
  }
  // one prompt per document: a new document
  const end = text.length;
  return [{ from: end, to: end, insert: `${text.endsWith('\n') ? '' : '\n'}---\n${render(0)}\n` }];
}

function headerEdit(model: FormModel, field: HeaderField, value: string | string[] | null): Splice[] {
  const text = model.text;
  const header = model.header;
  if (!header) {
    if (value === null || (Array.isArray(value) && value.length === 0)) return [];
    // a file without a header gets one: a first document, before the prompts
    const line = `${field}:${valueSource(value, 0, false)}\n`;
    return [{ from: 0, to: 0, insert: /^---/.test(text) ? line : `${line}---\n` }];
  }
  if (field === 'title') {
    const key = spellingToEdit(HEADER_FIELDS.title, (k) => header.has(k));
    if (key !== HEADER_FIELDS.title.name) return setKey(text, header, key, value);
  }
  if (field === 'author') {
    const author = header.get('author', true);
    if (isMap(author)) return setKey(text, author, 'name', value);
  }
  if (Array.isArray(value)) {
    const current = header.get(field, true);
    if (isSeq(current) && !current.flow && current.items.length > 0 && value.length > 0) return replaceBlockList(text, current, value);
    return setKey(text, header, field, value.length === 0 ? null : value);
  }
  return setKey(text, header, field, value);
}

/** A block list given new items: the items whose text is unchanged keep their lines. */
function replaceBlockList(text: string, seq: YAMLSeq, values: string[]): Splice[] {
  const items = seq.items as YamlNode[];
  const splices: Splice[] = [];
  const common = Math.min(items.length, values.length);
  for (let i = 0; i < common; i++) {
    const item = items[i]!;
    if (isScalar(item) && String(item.value) === values[i]) continue;
    splices.push({ from: item.range![0], to: item.range![1], insert: renderScalar(values[i]!, { indent: 0, style: isScalar(item) ? styleOfType(item.type) : 'plain' }) });
  }
  for (let i = values.length; i < items.length; i++) {
    const item = items[i]!;
    splices.push({ from: lineStartOf(text, dashBefore(text, item.range![0])), to: lineEndAfter(text, item.range![1]), insert: '' });
  }
  if (values.length > items.length) {
    const extra = values.slice(items.length).map((v) => renderScalar(v, { indent: 0 }));
    const last = items[items.length - 1]!;
    const indent = columnOf(text, dashBefore(text, last.range![0]));
    const end = lineEndAfter(text, last.range![1]);
    splices.push({ from: end, to: end, insert: extra.map((e) => `${' '.repeat(indent)}- ${e}\n`).join('') });
  }
  return splices;
}
