/**
 * A small located-value tree built from the `yaml` package's document nodes.
 *
 * The normaliser works on this tree rather than on plain JS values so that every error can
 * name the line and column of the node it is about, and rather than on `yaml`'s own nodes so
 * that aliases and merge keys (`<<`) are resolved once, here, and the rest of the parser never
 * meets them. JSON files go through the same tree (JSON is YAML), so positions work there too.
 */
import { isAlias, isMap, isScalar, isSeq, Scalar, type Alias, type Document, type LineCounter, type Node as YamlNode } from 'yaml';
import { BLUEPRINT_LIMITS, LimitExceeded, limitHint, type BlueprintLimits } from './limits';
import type { SourceLoc } from './schema';
import { describeUnstorable, storableText, unstorableOffset } from './text';

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

/**
 * The running count of one file's expansion, shared by its documents. Aliases and merge keys
 * are expanded here, so this is where an alias bomb (each anchor a list of ten aliases of the
 * previous one: 469 bytes, 10⁹ nodes) is stopped: at the first alias use past a limit,
 * before the rest is built.
 */
export class Expansion {
  nodes = 0;
  aliases = 0;
  /** Strings PostgreSQL cannot store (a `"\0"` or `"\u0000"` escape…), once per written scalar. */
  readonly unstorable: { loc: SourceLoc; message: string }[] = [];
  private readonly reported = new Set<YamlNode>();
  /** `Alias.resolve` searches the whole document for the anchor; once per alias is enough. */
  private readonly targets = new Map<YamlNode, YamlNode | undefined>();
  constructor(readonly limits: BlueprintLimits) {}

  reportUnstorable(node: YamlNode, loc: SourceLoc, value: string): void {
    if (this.reported.has(node)) return;
    this.reported.add(node);
    this.unstorable.push({ loc, message: `this value contains ${describeUnstorable(value, unstorableOffset(value))}, which cannot be stored` });
  }

  resolve(alias: Alias, doc: Document.Parsed): YamlNode | undefined {
    if (!this.targets.has(alias)) this.targets.set(alias, alias.resolve(doc) as YamlNode | undefined);
    return this.targets.get(alias);
  }
}

/** Where the conversion is: its depth, and the outermost alias being expanded (where an author is sent). */
interface At {
  depth: number;
  alias: { loc: SourceLoc; name: string } | null;
}

/** Converts one parsed document's contents; null for an empty document. Throws `LimitExceeded` past a limit. */
export function fromYaml(doc: Document.Parsed, lineCounter: LineCounter, expansion: Expansion = new Expansion(BLUEPRINT_LIMITS)): YNode | null {
  if (doc.contents === null) return null;
  return convert(doc.contents as YamlNode, doc, lineCounter, new Set(), expansion, { depth: 0, alias: null });
}

export function locAt(lineCounter: LineCounter, offset: number): SourceLoc {
  const { line, col } = lineCounter.linePos(offset);
  return { line, col };
}

function convert(node: YamlNode | null | undefined, doc: Document.Parsed, lc: LineCounter, seen: Set<YamlNode>, ex: Expansion, at: At): YNode {
  if (node == null) return { kind: 'scalar', value: null, quoted: false, loc: { line: 1, col: 1 } };
  const loc = locAt(lc, node.range?.[0] ?? 0);
  if (++ex.nodes > ex.limits.maxNodes) throw nodesExceeded(ex.limits, loc, at);
  if (isAlias(node)) {
    const alias = at.alias ?? { loc, name: node.source };
    if (++ex.aliases > ex.limits.maxAliases) throw aliasesExceeded(ex.limits, loc, alias);
    const target = ex.resolve(node, doc);
    if (!target || seen.has(target)) return { kind: 'scalar', value: null, quoted: false, loc };
    // An alias is reported at the alias, not at the anchor: that is where the author used it.
    return relocate(convert(target, doc, lc, new Set([...seen, target]), ex, { depth: at.depth, alias }), loc);
  }
  if (isScalar(node)) {
    const quoted = node.type !== Scalar.PLAIN && node.type !== undefined;
    let value = scalarValue(node.value);
    if (typeof value === 'string' && unstorableOffset(value) >= 0) {
      ex.reportUnstorable(node, loc, value);
      value = storableText(value);
    }
    return { kind: 'scalar', value, quoted, loc };
  }
  const inner: At = { depth: at.depth + 1, alias: at.alias };
  if ((isSeq(node) || isMap(node)) && inner.depth > ex.limits.maxDepth) throw depthExceeded(ex.limits, loc, at);
  if (isSeq(node)) {
    const items: YNode[] = [];
    for (const item of node.items) items.push(convert(item as YamlNode, doc, lc, seen, ex, inner));
    return { kind: 'seq', items, loc };
  }
  if (isMap(node)) {
    // Keyed by the key's string, in order: a later duplicate (JSON) moves to the end, as
    // JSON.parse keeps the last; a lookup per key keeps a 100,000-key mapping linear.
    const entries = new Map<string, YEntry>();
    const merged: YEntry[] = [];
    for (const pair of node.items) {
      const keyNode = convert(pair.key as YamlNode, doc, lc, seen, ex, inner);
      const value = convert(pair.value as YamlNode, doc, lc, seen, ex, inner);
      if (isMergeKey(pair.key)) {
        // `<<: *base` / `<<: [*a, *b]`: the merged mappings' keys, where not written explicitly.
        for (const source of value.kind === 'seq' ? value.items : [value]) {
          if (source.kind === 'map') for (const e of source.entries) merged.push(e);
        }
        continue;
      }
      const key = keyString(keyNode);
      entries.delete(key);
      entries.set(key, { key, keyNode, value });
    }
    for (const e of merged) {
      if (!entries.has(e.key)) entries.set(e.key, e);
    }
    return { kind: 'map', entries: [...entries.values()], loc };
  }
  return { kind: 'scalar', value: null, quoted: false, loc };
}

const where = (at: At, loc: SourceLoc) => (at.alias ? ` while expanding the alias \`*${at.alias.name}\` (line ${at.alias.loc.line}:${at.alias.loc.col})` : ` (at ${loc.line}:${loc.col})`);

function nodesExceeded(limits: BlueprintLimits, loc: SourceLoc, at: At): LimitExceeded {
  return new LimitExceeded(
    at.alias?.loc ?? loc,
    `the file expands to more than ${limits.maxNodes.toLocaleString('en-US')} values (lists, mappings and scalars)${where(at, loc)}`,
    limitHint('values after aliases are expanded', limits.maxNodes, at.alias ? 'Aliases of anchors that themselves hold aliases multiply; write the values out, or use fewer levels of aliases.' : 'Split the blueprint into several files.'),
  );
}

function aliasesExceeded(limits: BlueprintLimits, loc: SourceLoc, alias: { loc: SourceLoc; name: string }): LimitExceeded {
  return new LimitExceeded(
    alias.loc,
    `more than ${limits.maxAliases.toLocaleString('en-US')} alias uses are expanded${alias.loc === loc ? ` (at the alias \`*${alias.name}\`)` : ` while expanding the alias \`*${alias.name}\` (line ${alias.loc.line}:${alias.loc.col})`}`,
    limitHint('alias uses (counted after expansion)', limits.maxAliases, 'Aliases of anchors that themselves hold aliases multiply; write the values out, or use fewer levels of aliases.'),
  );
}

function depthExceeded(limits: BlueprintLimits, loc: SourceLoc, at: At): LimitExceeded {
  return new LimitExceeded(
    at.alias?.loc ?? loc,
    `lists and mappings are nested more than ${limits.maxDepth} deep${where(at, loc)}`,
    limitHint('levels of nesting', limits.maxDepth, at.alias ? 'An alias inside the anchor it refers to, or chains of aliases, nest deeper with each use; flatten the structure.' : 'Flatten the structure.'),
  );
}

function isMergeKey(key: unknown): boolean {
  return isScalar(key) && key.type === Scalar.PLAIN && (key.value === '<<' || key.source === '<<' || typeof key.value === 'symbol');
}

export function scalarValue(value: unknown): YScalarValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return Number(value);
  // Dates, binary and other tagged scalars keep their written form.
  return String(value);
}

export function keyString(node: YNode): string {
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
  // A loop, not `find`: the normaliser asks this dozens of times per prompt.
  const entries = map.entries;
  for (let i = 0; i < entries.length; i++) if (entries[i]!.key === key) return entries[i];
  return undefined;
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
