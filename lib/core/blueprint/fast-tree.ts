/**
 * The loader's fast path: the same located-value tree as positions.ts, built from `js-yaml`
 * (what Weval parses with, ~4× faster than the `yaml` library's lexer alone) instead of
 * `yaml`'s position-keeping documents. js-yaml has no source positions, but its `listener`
 * reports where each node's parse opens and closes; a node's line and column are where its
 * content starts (after spaces, line breaks and comments), which is what `yaml` reports.
 *
 * It is only a shortcut: whenever the two libraries could disagree, it gives up (returns
 * null) and the caller takes the exact path (documents.ts), which then reports everything.
 * Given up on, rather than imitated:
 * - anything js-yaml rejects (syntax errors are `yaml`'s to word), JSON (it has its own
 *   syntax check), a BOM (js-yaml drops it, shifting offsets), `%` directives;
 * - anchors, aliases, tags and `<<` merge keys (the exact path expands and counts them
 *   against the alias-bomb limits), explicit `?` keys, collection keys, flow pairs;
 * - two keys of one mapping that are equal once resolved (`1` and `1.0`, `~` and `null`);
 * - a double-quoted string whose escapes make text PostgreSQL cannot store;
 * - anywhere near the depth, node or document limits.
 * Scalars are read with js-yaml's failsafe schema (every scalar a string) and plain ones are
 * then resolved by `yaml`'s own core-schema tags, so booleans (`yes` stays a string), octals,
 * floats, nulls and big integers come out exactly as on the exact path.
 *
 * An empty value (`key:` with nothing after it) has no content to place, so its location is
 * `UNPLACED` (line 0); parse.ts takes the exact path when such a location reaches a result.
 */
import jsyaml, { type LoaderState } from 'js-yaml';
import { Document, isScalar, type ScalarTag } from 'yaml';
import type { BlueprintLimits } from './limits';
import { keyString, scalarValue, type YEntry, type YNode, type YScalarValue } from './positions';
import type { SourceLoc } from './schema';
import { unstorableOffset } from './text';

/** The location of a node that has no content of its own to point at (see parse.ts). */
export const UNPLACED: SourceLoc = Object.freeze({ line: 0, col: 0 });

/** Thrown inside the listener to stop parsing at the first thing the fast path does not take. */
class GiveUp extends Error {}

/** Built while parsing: the node, js-yaml's value for it (to check the pairing) and where it ends. */
interface Built {
  node: YNode;
  raw: unknown;
  /** Offsets of the content's first character (-1 for an empty node) and of the end of the node. */
  start: number;
  end: number;
  /** A scalar followed by `:`: a mapping's key. */
  key: boolean;
}


const NONE: readonly Built[] = [];

// The same options as the exact path's Composer, so plain scalars resolve with the same tags.
const CORE = new Document(null, { merge: true, uniqueKeys: false });
const PLAIN_TAGS = CORE.schema.tags.filter((t): t is ScalarTag => t.default === true && !('collection' in t && t.collection) && Boolean((t as ScalarTag).test));

/** The tree of each non-empty document, or null when the exact path must decide. */
export function readYamlFast(text: string, limits: BlueprintLimits): YNode[] | null {
  if (text.charCodeAt(0) === 0xfeff || text.startsWith('%') || text.includes('\n%')) return null;
  const builder = new TreeBuilder(text, limits);
  let documents: unknown[];
  try {
    // js-yaml counts every node's nesting (scalars too), so at this depth the collections are within the limit.
    documents = jsyaml.loadAll(text, null, { schema: jsyaml.FAILSAFE_SCHEMA, maxDepth: limits.maxDepth, listener: (event, state) => builder.on(event, state) });
  } catch {
    return null; // a syntax error, a limit or something given up on: the exact path reports it
  }
  const roots = builder.roots;
  if (roots.length !== documents.length || documents.length * 2 > limits.maxDocuments) return null;
  const nodes: YNode[] = [];
  for (let i = 0; i < roots.length; i++) {
    const { node, raw } = roots[i]!;
    if ((raw ?? null) !== (documents[i] ?? null)) return null;
    if (!(node.kind === 'scalar' && node.value === null)) nodes.push(node);
  }
  return nodes.length > 0 ? nodes : null;
}

class TreeBuilder {
  readonly roots: Built[] = [];
  /**
   * The open nodes, as two parallel stacks (no object per node): where each one's parse
   * opened, and its children so far (an array allocated at the first child: most nodes are
   * scalars, which have none).
   */
  private readonly opens: number[] = [];
  private readonly kids: (Built[] | null)[] = [];
  private readonly lineStarts: number[] = [0];
  private count = 0;
  /** Only the escapes `\0`, `\x`, `\u` and `\U` can make a NUL or a lone surrogate (the text itself has none). */
  private readonly escapes: boolean;
  /** The line of the last location asked for: nodes close roughly in text order, so the next is usually on it or just after. */
  private line = 0;

  constructor(
    private readonly text: string,
    private readonly limits: BlueprintLimits,
  ) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.lineStarts.push(i + 1);
    this.escapes = text.includes('\\') && /\\[0xuU]/.test(text);
  }

  on(event: 'open' | 'close', state: LoaderState): void {
    if (event === 'open') {
      this.opens.push(state.position);
      this.kids.push(null);
      return;
    }
    const built = this.close(this.opens.pop()!, this.kids.pop() ?? NONE, state);
    // Every node closes at least once here; the exact path also counts an empty value js-yaml
    // may not compose (one per key at most), so it counts at most twice this: within half the
    // limit, it is within the limit there too.
    if (++this.count * 2 > this.limits.maxNodes) throw new GiveUp();
    const depth = this.kids.length;
    if (depth > 0) {
      const siblings = this.kids[depth - 1];
      if (siblings) siblings.push(built);
      else this.kids[depth - 1] = [built];
    } else if (this.roots.push(built) * 2 > this.limits.maxDocuments) {
      // Each document closes one root: past the margin, stop before parsing the rest (200,000 `---`).
      throw new GiveUp();
    }
  }

  private close(open: number, children: readonly Built[], state: LoaderState): Built {
    if (state.anchor !== null || (state.tag !== null && state.tag !== '?')) throw new GiveUp();
    const raw = state.result;
    const end = state.position;
    // `"x"#c`, `[x]#c`: js-yaml takes a comment right after a token, `yaml` wants a space before it.
    if (this.text.charCodeAt(end) === 0x23 && !isBreakOrSpace(this.text.charCodeAt(end - 1))) throw new GiveUp();
    // js-yaml reads a value as a candidate key first, and keeps it when no `:` follows: the same node, one level in.
    if (children.length === 1 && raw !== null && children[0]!.raw === raw && (typeof raw === 'object' || state.kind === 'scalar')) {
      const inner = children[0]!;
      if (inner.start < 0 || this.contentStart(open) !== inner.start) throw new GiveUp();
      inner.end = end;
      inner.key = state.kind === 'scalar' && this.followedByColon(end);
      return inner;
    }
    if (state.kind === null) {
      if (raw !== null || !allEmpty(children)) throw new GiveUp();
      return { node: { kind: 'scalar', value: null, quoted: false, loc: UNPLACED }, raw, start: -1, end, key: false };
    }
    const start = this.contentStart(open);
    const loc = this.locAt(start);
    if (state.kind === 'scalar') {
      if (typeof raw !== 'string' || !allEmpty(children)) throw new GiveUp();
      const key = this.followedByColon(end);
      return { node: this.scalar(raw, start, loc, key), raw, start, end, key };
    }
    if (state.kind === 'sequence') {
      if (!Array.isArray(raw) || raw.length !== children.length) throw new GiveUp();
      const items: YNode[] = new Array<YNode>(children.length);
      for (let i = 0; i < children.length; i++) {
        if (children[i]!.raw !== raw[i]) throw new GiveUp();
        items[i] = children[i]!.node;
      }
      if (this.isBlock(start)) this.checkContinuations(children, start);
      return { node: { kind: 'seq', items, loc }, raw, start, end, key: false };
    }
    if (state.kind === 'mapping') {
      const entries = this.entries(children, raw);
      if (this.isBlock(start)) this.checkContinuations(children, start);
      return { node: { kind: 'map', entries, loc }, raw, start, end, key: false };
    }
    throw new GiveUp();
  }

  /**
   * Pairs a mapping's children: a key is a scalar followed by `:`; a key with no value node
   * (`key:` then the next key) gets an empty one; an empty node where no value is due is
   * js-yaml's attempt at a further key. The pairing is then checked against
   * js-yaml's own object, key by key.
   */
  private entries(children: readonly Built[], raw: unknown): YEntry[] {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new GiveUp();
    const pairs: { key: Built; value: Built | null }[] = [];
    for (const child of children) {
      if (child.key) pairs.push({ key: child, value: null });
      else if (pairs.length > 0 && pairs.at(-1)!.value === null) pairs.at(-1)!.value = child;
      else if (child.start >= 0) throw new GiveUp();
      // else: js-yaml's look for another key found none (at a `---`, or the end): nothing was written there
    }
    const object = raw as Record<string, unknown>;
    if (Object.keys(object).length !== pairs.length) throw new GiveUp();
    const entries: YEntry[] = new Array<YEntry>(pairs.length);
    // js-yaml's keys are distinct as written; only a key resolved to a number, boolean or null can equal another.
    let resolved = false;
    for (let i = 0; i < pairs.length; i++) {
      const { key, value } = pairs[i]!;
      const written = key.raw as string;
      const valueNode: YNode = value?.node ?? { kind: 'scalar', value: null, quoted: false, loc: UNPLACED };
      if (!Object.prototype.hasOwnProperty.call(object, written) || object[written] !== (value ? value.raw : null)) throw new GiveUp();
      const k = keyString(key.node);
      if (k !== written) resolved = true;
      entries[i] = { key: k, keyNode: key.node, value: valueNode };
    }
    if (resolved && new Set(entries.map((e) => e.key)).size !== entries.length) throw new GiveUp();
    return entries;
  }

  private scalar(raw: string, start: number, loc: SourceLoc, atKey: boolean): YNode {
    const first = this.text.charCodeAt(start);
    // `"…"`, `'…'`, `|`, `>`: as written; only a plain scalar is resolved (to a number, boolean, null…).
    const quoted = first === 0x22 || first === 0x27 || first === 0x7c || first === 0x3e;
    if (first === 0x22 && this.escapes && unstorableOffset(raw) >= 0) throw new GiveUp();
    return { kind: 'scalar', value: quoted ? raw : resolvePlain(raw, atKey), quoted, loc };
  }

  /**
   * The first character of a node's content: past spaces, line breaks and comments. A
   * property (`&anchor`, `!tag`), an alias (`*name`) or an explicit key (`? `, `: `) there
   * is left to the exact path.
   */
  private contentStart(from: number): number {
    const t = this.text;
    let i = from;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
      else if (c === 0x23) {
        const eol = t.indexOf('\n', i);
        i = eol < 0 ? t.length : eol;
      } else break;
    }
    const c = t.charCodeAt(i);
    if (c === 0x26 || c === 0x21 || c === 0x2a) throw new GiveUp();
    if ((c === 0x3f || c === 0x3a) && isBreakOrSpace(t.charCodeAt(i + 1))) throw new GiveUp();
    return i;
  }

  private followedByColon(end: number): boolean {
    const t = this.text;
    let i = end;
    while (t.charCodeAt(i) === 0x20 || t.charCodeAt(i) === 0x09) i++;
    return t.charCodeAt(i) === 0x3a;
  }

  private isBlock(start: number): boolean {
    const c = this.text.charCodeAt(start);
    return c !== 0x5b && c !== 0x7b;
  }

  /**
   * js-yaml lets a quoted or plain scalar, or a flow collection, continue on lines indented no
   * more than the block collection it is in; `yaml` ends it there ("Missing closing quote"…).
   * A continuation line must be blank or indented past the collection's column (`yaml`'s
   * `indentNext`, counting spaces only), as `yaml` requires, or the exact path decides.
   */
  private checkContinuations(children: readonly Built[], blockStart: number): void {
    const column = blockStart - this.lineStarts[this.locAt(blockStart).line - 1]!;
    for (const child of children) {
      if (child.start < 0) continue;
      const first = this.text.charCodeAt(child.start);
      if (child.node.kind === 'scalar' ? first === 0x7c || first === 0x3e : this.isBlock(child.start)) continue;
      const t = this.text;
      let last = child.end - 1;
      while (last > child.start && (t.charCodeAt(last) === 0x20 || t.charCodeAt(last) === 0x09 || t.charCodeAt(last) === 0x0a || t.charCodeAt(last) === 0x0d)) last--;
      const newline = t.indexOf('\n', child.start);
      if (newline < 0 || newline > last) continue; // on one line
      const lastLine = this.locAt(last).line;
      for (let line = child.node.loc.line; line < lastLine; line++) {
        let i = this.lineStarts[line]!;
        while (t.charCodeAt(i) === 0x20) i++;
        const c = t.charCodeAt(i);
        const blank = c === 0x0a || (c === 0x0d && t.charCodeAt(i + 1) === 0x0a);
        const indent = i - this.lineStarts[line]!;
        // `yaml` lets the outermost closing bracket alone on the last line sit at the collection's column
        const closing = child.node.kind !== 'scalar' && indent === column && i === last;
        if (!blank && indent <= column && !closing) throw new GiveUp();
      }
    }
  }

  /** Line and column as the `yaml` LineCounter gives them (lines end at `\n`). */
  private locAt(offset: number): SourceLoc {
    const starts = this.lineStarts;
    let line = this.line;
    if (starts[line]! <= offset) {
      while (line + 1 < starts.length && starts[line + 1]! <= offset && line - this.line < 8) line++;
      if (line + 1 >= starts.length || starts[line + 1]! > offset) {
        this.line = line;
        return { line: line + 1, col: offset - starts[line]! + 1 };
      }
    }
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    this.line = lo;
    return { line: lo + 1, col: offset - starts[lo]! + 1 };
  }
}

/** A scalar's or an empty node's frame may hold js-yaml's empty attempts at a key (before a block scalar, at a `---`). */
function allEmpty(children: readonly Built[]): boolean {
  return children.every((c) => c.start < 0);
}

function isBreakOrSpace(c: number): boolean {
  return Number.isNaN(c) || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * The first characters a core-schema null, boolean, integer or float can start with (the tags'
 * patterns are checked in fast-tree.test.ts): any other plain scalar is a string, without
 * trying eleven patterns on it.
 */
const MAY_RESOLVE = /^[-+.~0-9nNtTfF]/;

/** A plain scalar's value by `yaml`'s core schema, as the exact path's Composer resolves it. */
function resolvePlain(source: string, atKey: boolean): YScalarValue {
  if (atKey && source === '<<') throw new GiveUp(); // a merge key
  if (source !== '' && !MAY_RESOLVE.test(source)) return source;
  const tag = PLAIN_TAGS.find((t) => t.test!.test(source));
  if (!tag) return source;
  let failed = false;
  const resolved = tag.resolve(source, () => (failed = true), CORE.options);
  if (failed) throw new GiveUp();
  const value = isScalar(resolved) ? resolved.value : resolved;
  if (typeof value === 'symbol') throw new GiveUp();
  return scalarValue(value);
}
