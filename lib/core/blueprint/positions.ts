/**
 * A small located-value tree built from the `yaml` package's document nodes.
 *
 * The normaliser works on this tree rather than on plain JS values so that every error can
 * name the line and column of the node it is about, and rather than on `yaml`'s own nodes so
 * that aliases and merge keys (`<<`) are resolved once, here, and the rest of the parser never
 * meets them. JSON files go through the same tree (JSON is YAML), so positions work there too.
 */
import { isAlias, isMap, isScalar, isSeq, Scalar, type Document, type LineCounter, type Node as YamlNode } from 'yaml';
import type { SourceLoc } from './schema';

export type YScalarValue = string | number | boolean | null;

export interface YScalar {
  kind: 'scalar';
  value: YScalarValue;
  /** Whether the author quoted it (`"…"`, `'…'`) or used a block scalar (`|`, `>`). */
  quoted: boolean;
  loc: SourceLoc;
}
export interface YEntry {
  /** The key as a string (YAML allows complex keys; they are rendered as JSON). */
  key: string;
  keyNode: YNode;
  value: YNode;
}
export interface YMap {
  kind: 'map';
  entries: YEntry[];
  loc: SourceLoc;
}
export interface YSeq {
  kind: 'seq';
  items: YNode[];
  loc: SourceLoc;
}
export type YNode = YScalar | YMap | YSeq;

/** Converts one parsed document's contents; null for an empty document. */
export function fromYaml(doc: Document.Parsed, lineCounter: LineCounter): YNode | null {
  if (doc.contents === null) return null;
  return convert(doc.contents as YamlNode, doc, lineCounter, new Set());
}

export function locAt(lineCounter: LineCounter, offset: number): SourceLoc {
  const { line, col } = lineCounter.linePos(offset);
  return { line, col };
}

function convert(node: YamlNode | null | undefined, doc: Document.Parsed, lc: LineCounter, seen: Set<YamlNode>): YNode {
  if (node == null) return { kind: 'scalar', value: null, quoted: false, loc: { line: 1, col: 1 } };
  const loc = locAt(lc, node.range?.[0] ?? 0);
  if (isAlias(node)) {
    const target = node.resolve(doc);
    if (!target || seen.has(target)) return { kind: 'scalar', value: null, quoted: false, loc };
    // An alias is reported at the alias, not at the anchor: that is where the author used it.
    return relocate(convert(target, doc, lc, new Set([...seen, target])), loc);
  }
  if (isScalar(node)) {
    const quoted = node.type !== Scalar.PLAIN && node.type !== undefined;
    return { kind: 'scalar', value: scalarValue(node.value), quoted, loc };
  }
  if (isSeq(node)) {
    return { kind: 'seq', items: node.items.map((item) => convert(item as YamlNode, doc, lc, seen)), loc };
  }
  if (isMap(node)) {
    const entries: YEntry[] = [];
    const merged: YEntry[] = [];
    for (const pair of node.items) {
      const keyNode = convert(pair.key as YamlNode, doc, lc, seen);
      const value = convert(pair.value as YamlNode, doc, lc, seen);
      if (isMergeKey(pair.key)) {
        // `<<: *base` / `<<: [*a, *b]`: the merged mappings' keys, where not written explicitly.
        for (const source of value.kind === 'seq' ? value.items : [value]) {
          if (source.kind === 'map') merged.push(...source.entries);
        }
        continue;
      }
      const key = keyString(keyNode);
      // JSON (parsed without the unique-keys check) keeps the last of duplicate keys, as JSON.parse does.
      const earlier = entries.findIndex((e) => e.key === key);
      if (earlier >= 0) entries.splice(earlier, 1);
      entries.push({ key, keyNode, value });
    }
    for (const entry of merged) {
      if (!entries.some((e) => e.key === entry.key)) entries.push(entry);
    }
    return { kind: 'map', entries, loc };
  }
  return { kind: 'scalar', value: null, quoted: false, loc };
}

function isMergeKey(key: unknown): boolean {
  return isScalar(key) && key.type === Scalar.PLAIN && (key.value === '<<' || key.source === '<<' || typeof key.value === 'symbol');
}

function scalarValue(value: unknown): YScalarValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return Number(value);
  // Dates, binary and other tagged scalars keep their written form.
  return String(value);
}

function keyString(node: YNode): string {
  if (node.kind === 'scalar') return node.value === null ? '' : String(node.value);
  return JSON.stringify(toJS(node));
}

function relocate(node: YNode, loc: SourceLoc): YNode {
  return { ...node, loc };
}

/** The plain JSON value of a node (for arguments, free-form header fields…). */
export function toJS(node: YNode): unknown {
  switch (node.kind) {
    case 'scalar':
      return node.value;
    case 'seq':
      return node.items.map(toJS);
    case 'map': {
      const out: Record<string, unknown> = {};
      for (const { key, value } of node.entries) out[key] = toJS(value);
      return out;
    }
  }
}

export function entry(map: YMap, key: string): YEntry | undefined {
  return map.entries.find((e) => e.key === key);
}

export function get(map: YMap, key: string): YNode | undefined {
  return entry(map, key)?.value;
}

/** The first of `keys` that is present (Weval's alias order), with the key actually used. */
export function getFirst(map: YMap, keys: readonly string[]): { key: string; node: YNode } | undefined {
  for (const key of keys) {
    const node = get(map, key);
    if (node) return { key, node };
  }
  return undefined;
}

export function isNull(node: YNode | undefined): boolean {
  return !node || (node.kind === 'scalar' && node.value === null);
}

/**
 * JavaScript truthiness of the node's value, for the places where Weval's behaviour depends
 * on it (`p.should || p.points`, `firstDoc.prompt || …`): collections are always truthy.
 */
export function truthy(node: YNode | undefined): boolean {
  if (!node) return false;
  if (node.kind !== 'scalar') return true;
  return Boolean(node.value);
}

export function str(node: YNode | undefined): string | undefined {
  return node?.kind === 'scalar' && typeof node.value === 'string' ? node.value : undefined;
}

/** A short description of a node's type for messages: "a list", "a number"… */
export function describe(node: YNode): string {
  if (node.kind === 'map') return 'a mapping';
  if (node.kind === 'seq') return 'a list';
  if (node.value === null) return 'empty (null)';
  if (typeof node.value === 'string') return 'a string';
  if (typeof node.value === 'number') return `the number ${node.value}`;
  return `the boolean ${node.value}`;
}

/** The deepest node along a path of keys/indices (e.g. a zod issue's path), for precise error positions. */
export function nodeAt(node: YNode, path: readonly PropertyKey[]): YNode {
  let current = node;
  for (const step of path) {
    if (current.kind === 'seq' && typeof step === 'number' && current.items[step]) current = current.items[step]!;
    else if (current.kind === 'map' && get(current, String(step))) current = get(current, String(step))!;
    else break;
  }
  return current;
}
