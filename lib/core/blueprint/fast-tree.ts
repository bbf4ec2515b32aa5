/**
 * The loader's fast path: the same located-value tree as positions.ts, read straight from the
 * text by a small reader of the YAML that blueprints are written in (block mappings and lists,
 * plain, quoted and block scalars, flow lists and mappings, comments, `---` documents). It
 * builds no token stream, no document and no intermediate JS value: each node is made once,
 * where it is read, with its line and column. That is what makes the loader as fast as a plain
 * `js-yaml` parse, which keeps no positions at all (bench/loader.bench.ts).
 *
 * It is only a shortcut, and a conservative one: whenever the text is not plainly in its
 * subset, it gives up (returns null) and the caller takes the exact path (documents.ts, the
 * `yaml` library), which then decides and reports everything. Given up on:
 * - anything that could be a syntax error (its wording and positions are `yaml`'s), JSON (it
 *   has its own syntax check), a BOM, `%` directives, `...` document ends, tabs and carriage
 *   returns anywhere (`yaml` treats them by rules of their own);
 * - anchors, aliases, tags and `<<` merge keys (the exact path expands and counts them
 *   against the alias-bomb limits), explicit `?` keys, collection keys, flow pairs, empty
 *   values inside flow collections, keys over 1,024 characters;
 * - a plain scalar over several lines, a block scalar with an indentation indicator, with a
 *   more-indented line in folded style, or with spaces-only lines deeper than its indentation;
 * - a line indented deeper than the structure allows (a continuation, or an error);
 * - two keys of one mapping that are equal once resolved (`1` and `1.0`, `~` and `null`);
 * - a double-quoted string whose escapes make text PostgreSQL cannot store;
 * - anywhere near the depth, node or document limits.
 * Plain scalars are resolved by `yaml`'s own core-schema tags, so booleans (`yes` stays a
 * string), octals, floats, nulls and big integers come out exactly as on the exact path.
 * fast-tree.test.ts checks both paths give the same result on the corpus, the examples, the
 * hostile inputs and generated, mutated blueprints.
 *
 * An empty value (`key:` with nothing after it) has no content to place, so its location is
 * `UNPLACED` (line 0); parse.ts takes the exact path when such a location reaches a result.
 */
import { Document, isScalar, type ScalarTag } from 'yaml';
import type { BlueprintLimits } from './limits';
import { keyString, scalarValue, type YEntry, type YNode, type YScalarValue } from './positions';
import type { SourceLoc } from './schema';
import { unstorableOffset } from './text';

/** The location of a node that has no content of its own to point at (see parse.ts). */
export const UNPLACED: SourceLoc = Object.freeze({ line: 0, col: 0 });

/** Thrown anywhere in the reader at the first thing it does not take. */
class GiveUp extends Error {}

// The same options as the exact path's Composer, so plain scalars resolve with the same tags.
const CORE = new Document(null, { merge: true, uniqueKeys: false });
const PLAIN_TAGS = CORE.schema.tags.filter((t): t is ScalarTag => t.default === true && !('collection' in t && t.collection) && Boolean((t as ScalarTag).test));

const NL = 0x0a;
const SPACE = 0x20;
const HASH = 0x23;
const COLON = 0x3a;
const DASH = 0x2d;
const DQUOTE = 0x22;
const SQUOTE = 0x27;
const DOT = 0x2e;

/** A node and the offset just past it. */
interface Read {
  node: YNode;
  end: number;
}

/** The tree of each non-empty document, or null when the exact path must decide. */
export function readYamlFast(text: string, limits: BlueprintLimits): YNode[] | null {
  if (text.charCodeAt(0) === 0xfeff || text.startsWith('%') || text.includes('\n%') || text.includes('\t') || text.includes('\r')) return null;
  try {
    return new Reader(text, limits).documents();
  } catch (e) {
    if (e instanceof GiveUp) return null;
    throw e;
  }
}

class Reader {
  private readonly lineStarts: number[] = [0];
  private readonly backslashes: Finder;
  private readonly colons: Finder;
  private readonly comments: Finder;
  /** The line of the last offset asked about (lineOf). */
  private line = 0;
  private nodes = 0;
  private depth = 0;
  /** Only the escapes `\0`, `\x`, `\u` and `\U` can make a NUL or a lone surrogate (the text itself has none). */
  private readonly escapes: boolean;

  constructor(
    private readonly text: string,
    private readonly limits: BlueprintLimits,
  ) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.lineStarts.push(i + 1);
    this.escapes = text.includes('\\') && /\\[0xuU]/.test(text);
    this.backslashes = new Finder(text, '\\');
    this.colons = new Finder(text, ':');
    this.comments = new Finder(text, ' #');
  }

  documents(): YNode[] | null {
    const roots: YNode[] = [];
    let documents = 1;
    let at = this.contentLine(0);
    while (at >= 0) {
      if (this.isMarker(at, DASH)) {
        // `---` starts a document; only a comment may follow it on its line. Each counts
        // (an empty one too): within half the limit, the exact path is within it.
        if (++documents * 2 > this.limits.maxDocuments) throw new GiveUp();
        this.restOfLine(at + 3);
        at = this.contentLine(this.nextLine(at));
        continue;
      }
      if (this.isMarker(at, DOT)) throw new GiveUp(); // `...` with no document before it
      const indent = this.indent(at);
      const { node, end } = this.block(at + indent, indent, -1);
      roots.push(node);
      at = this.contentLine(end);
      if (at >= 0 && this.isMarker(at, DOT)) {
        // `...` ends the document; the next one (if any) must start with `---`.
        this.restOfLine(at + 3);
        at = this.contentLine(this.nextLine(at));
        if (at >= 0 && !this.isMarker(at, DASH)) throw new GiveUp();
      }
      if (at >= 0 && !this.isMarker(at, DASH)) throw new GiveUp(); // more content after the document's node
    }
    const nodes = roots.filter((n) => !(n.kind === 'scalar' && n.value === null));
    return nodes.length > 0 ? nodes : null;
  }

  // ── Block structure ────────────────────────────────────────────────────────────────────

  /**
   * The node whose content starts at `at` (column `column`), inside a block collection
   * indented `parent`. `end` is a line start (or the text's end) from which the next content
   * line is looked for.
   */
  private block(at: number, column: number, parent: number): Read {
    if (this.isDashItem(at)) return this.sequence(at, column);
    const key = this.key(at);
    if (key) return this.mapping(at, column, key);
    return this.inline(at, parent);
  }

  private sequence(first: number, column: number): Read {
    const t = this.text;
    this.enter();
    const items: YNode[] = [];
    const loc = this.loc(first);
    let at = first;
    for (;;) {
      let p = at + 1;
      while (t.charCodeAt(p) === SPACE) p++;
      let item: Read;
      if (this.endsLine(p)) {
        item = this.valueBelow(this.nextLine(p), column, false);
      } else {
        const col = p - this.lineStart(p);
        if (this.isDashItem(p)) item = this.sequence(p, col);
        else {
          const key = this.key(p);
          item = key ? this.mapping(p, col, key) : this.inline(p, column);
        }
      }
      items.push(item.node);
      const next = this.contentLine(item.end);
      if (next < 0 || this.isBoundary(next)) return this.leave({ node: { kind: 'seq', items, loc }, end: item.end });
      const indent = this.indent(next);
      if (indent > column) throw new GiveUp();
      if (indent < column || !this.isDashItem(next + indent)) {
        return this.leave({ node: { kind: 'seq', items, loc }, end: item.end });
      }
      at = next + indent;
    }
  }

  private mapping(first: number, column: number, firstKey: Key): Read {
    const t = this.text;
    this.enter();
    const entries: YEntry[] = [];
    const loc = this.loc(first);
    let key: Key | null = firstKey;
    let end: number;
    for (;;) {
      let p = key.valueAt;
      while (p >= 0 && t.charCodeAt(p) === SPACE) p++;
      const value = p < 0 ? this.nothing(key.end!) : this.endsLine(p) ? this.valueBelow(this.nextLine(p), column, true) : this.inline(p, column);
      entries.push({ key: keyString(key.node), keyNode: key.node, value: value.node });
      end = value.end;
      const next = this.contentLine(end);
      if (next < 0 || this.isBoundary(next)) break;
      const indent = this.indent(next);
      if (indent > column) throw new GiveUp();
      if (indent < column) break;
      key = this.key(next + indent);
      if (!key) throw new GiveUp(); // a list item or a scalar among a mapping's keys
    }
    if (entries.length > 1) distinctKeys(entries);
    return this.leave({ node: { kind: 'map', entries, loc }, end });
  }

  /**
   * A value written on the lines below its key or dash (`from` is the next line's start): a
   * deeper node; for a mapping's key, a list at the key's own column; or nothing (null).
   */
  private valueBelow(from: number, column: number, ofKey: boolean): Read {
    const next = this.contentLine(from);
    if (next >= 0 && !this.isBoundary(next)) {
      const indent = this.indent(next);
      if (indent > column) return this.block(next + indent, indent, column);
      if (ofKey && indent === column && this.isDashItem(next + indent)) return this.sequence(next + indent, indent);
    }
    return this.nothing(from);
  }

  /** An empty value: null, with nothing to place it at. */
  private nothing(end: number): Read {
    this.count();
    return { node: { kind: 'scalar', value: null, quoted: false, loc: UNPLACED }, end };
  }

  /** A value that starts on its key's or dash's line, inside a block collection indented `parent`. */
  private inline(p: number, parent: number): Read {
    const t = this.text;
    const c = t.charCodeAt(p);
    // a scalar counts here, a collection where it opens (enter)
    if (c !== 0x5b && c !== 0x7b) this.count();
    if (c === 0x7c || c === 0x3e) return this.blockScalar(p, parent);
    let end: number;
    let node: YNode;
    if (c === DQUOTE || c === SQUOTE) {
      const q = this.quoted(p, parent);
      node = q.node;
      end = q.end;
    } else if (c === 0x5b || c === 0x7b) {
      const f = this.flow(p, parent, true);
      node = f.node;
      end = f.end;
    } else {
      let e = this.plainEnd(p, false);
      if (t.charCodeAt(e) === COLON) throw new GiveUp(); // `key: a: b`, a nested mapping in a compact one: yaml's error
      const first = t.slice(p, trimEnd(t, p, e));
      const more = t.charCodeAt(e) === NL ? this.plainLines(e, parent) : null;
      if (more) e = more.end;
      node = { kind: 'scalar', value: more ? first + more.text : resolvePlain(first, false), quoted: false, loc: this.loc(p) };
      end = e;
    }
    return { node, end: this.restOfLine(end) };
  }

  // ── Keys ───────────────────────────────────────────────────────────────────────────────

  /**
   * A key at `p`, or null: an implicit one (a one-line scalar followed by `:` and a space or
   * the line's end) or an explicit one (`? ` and a scalar, then `: ` at the same column).
   */
  private key(p: number): Key | null {
    const t = this.text;
    const c = t.charCodeAt(p);
    if (c === 0x3f && isBreakOrSpace(t.charCodeAt(p + 1))) return this.explicitKey(p);
    let node: YNode;
    let end: number;
    if (c === DQUOTE || c === SQUOTE) {
      const q = this.quotedLine(p);
      if (!q) return null;
      end = q.end;
      while (t.charCodeAt(end) === SPACE) end++;
      if (t.charCodeAt(end) !== COLON || !isBreakOrSpace(t.charCodeAt(end + 1))) return null;
      node = { kind: 'scalar', value: q.value, quoted: true, loc: this.loc(p) };
    } else {
      if (!plainStart(c, t.charCodeAt(p + 1))) return null;
      end = this.plainEnd(p, false);
      if (t.charCodeAt(end) !== COLON) return null;
      node = { kind: 'scalar', value: resolvePlain(t.slice(p, trimEnd(t, p, end)), true), quoted: false, loc: this.loc(p) };
    }
    if (end - p > 1024) throw new GiveUp(); // yaml's limit on an implicit key
    this.count();
    return { node, valueAt: end + 1 };
  }

  /** `? key` (a scalar on its line), then its value after a `:` at the same column, if any. */
  private explicitKey(p: number): Key {
    const t = this.text;
    const column = p - this.lineStart(p);
    let q = p + 1;
    while (t.charCodeAt(q) === SPACE) q++;
    if (this.endsLine(q)) throw new GiveUp(); // a key on the lines below
    const key = this.inline(q, column);
    if (key.node.kind !== 'scalar') throw new GiveUp(); // a collection key
    if (!key.node.quoted && key.node.value === '<<') throw new GiveUp(); // `? <<`: a merge key
    const next = this.contentLine(key.end);
    if (next >= 0 && this.indent(next) === column && t.charCodeAt(next + column) === COLON && isBreakOrSpace(t.charCodeAt(next + column + 1))) {
      return { node: key.node, valueAt: next + column + 1 };
    }
    return { node: key.node, valueAt: -1, end: key.end };
  }

  // ── Scalars ────────────────────────────────────────────────────────────────────────────

  /**
   * Where a plain scalar starting at `p` ends on its line: before ` #`, before a `:` followed
   * by a space or the line's end (also `,` `[` `]` `{` `}` in a flow collection), or at the
   * line's end. A scalar that cannot start here is given up on.
   */
  private plainEnd(p: number, inFlow: boolean, continued = false): number {
    const t = this.text;
    // A continuation line may start with any character (`- x`, `'x`…): it is text there.
    if (!continued && !plainStart(t.charCodeAt(p), t.charCodeAt(p + 1))) throw new GiveUp();
    if (!inFlow) {
      // In a block, only `: `, `:` at the line's end and ` #` end it before the line does: found natively.
      const eol = this.lineEnd(p);
      let colon = this.colons.next(p);
      while (colon < eol && !isBreakOrSpace(t.charCodeAt(colon + 1))) colon = this.colons.next(colon + 1);
      const hash = this.comments.next(p);
      const end = colon < eol ? colon : eol;
      return hash + 1 < end ? hash + 1 : end;
    }
    let i = p;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === NL || Number.isNaN(c) || isFlowIndicator(c)) return i;
      if (c === HASH && t.charCodeAt(i - 1) === SPACE) return i;
      if (c === COLON) {
        const n = t.charCodeAt(i + 1);
        if (isBreakOrSpace(n) || isFlowIndicator(n)) return i;
      }
      i++;
    }
  }

  /**
   * The lines a plain scalar goes on over (those indented past `parent`, up to a comment or a
   * less-indented line), folded: a line break is a space, n empty lines are n line feeds.
   * Null when it ends on its first line. A plain scalar over lines is always a string.
   */
  private plainLines(eol: number, parent: number): { text: string; end: number } | null {
    const t = this.text;
    let text = '';
    let end = eol;
    let empties = 0;
    let at = eol + 1;
    for (;;) {
      let i = at;
      while (t.charCodeAt(i) === SPACE) i++;
      const c = t.charCodeAt(i);
      if (c === NL) {
        empties++;
        at = i + 1;
        continue;
      }
      if (Number.isNaN(c) || c === HASH || i - at <= parent || (i === at && this.isBoundary(at))) break;
      const e = this.plainEnd(i, false, true);
      if (t.charCodeAt(e) !== NL && e < t.length) throw new GiveUp(); // a `: ` or a comment on a continuation line
      text += (empties === 0 ? ' ' : '\n'.repeat(empties)) + t.slice(i, trimEnd(t, i, e));
      empties = 0;
      end = e;
      at = e + 1;
    }
    return end === eol ? null : { text, end };
  }

  /** A quoted scalar (which may span lines, folded as `yaml` folds them). */
  private quoted(p: number, parent: number): Read {
    const one = this.quotedLine(p);
    if (one) return { node: { kind: 'scalar', value: one.value, quoted: true, loc: this.loc(p) }, end: one.end };
    const lines = this.quotedLines(p, parent);
    return { node: { kind: 'scalar', value: lines.value, quoted: true, loc: this.loc(p) }, end: lines.end };
  }

  /** A quoted scalar closed on its own line, or null when it goes on (or has an escaped line break). */
  private quotedLine(p: number): { value: string; end: number } | null {
    const t = this.text;
    const q = t.charCodeAt(p);
    const eol = this.lineEnd(p);
    if (q === SQUOTE) {
      let value = '';
      let from = p + 1;
      for (;;) {
        const close = t.indexOf("'", from);
        if (close < 0 || close > eol) return null;
        if (t.charCodeAt(close + 1) === SQUOTE) {
          value += t.slice(from, close + 1);
          from = close + 2;
          continue;
        }
        return { value: value + t.slice(from, close), end: this.afterQuote(close + 1) };
      }
    }
    const close = t.indexOf('"', p + 1);
    if (close >= 0 && close < eol && this.backslashes.next(p + 1) > close) return { value: t.slice(p + 1, close), end: this.afterQuote(close + 1) };
    let value = '';
    let i = p + 1;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === DQUOTE) break;
      if (c === NL || Number.isNaN(c)) return null;
      if (c === 0x5c) {
        if (t.charCodeAt(i + 1) === NL) return null;
        const e = this.escape(i);
        value += e.text;
        i = e.end;
        continue;
      }
      const stop = nextOf(t, i, eol);
      value += t.slice(i, stop);
      i = stop;
    }
    if (this.escapes && unstorableOffset(value) >= 0) throw new GiveUp();
    return { value, end: this.afterQuote(i + 1) };
  }

  /**
   * A quoted scalar over several lines: each line break with the spaces around it is one
   * space, or as many line feeds as there are empty lines; an escaped line break joins the
   * lines. Its lines after the first must be indented past the collection it is in.
   */
  private quotedLines(p: number, parent: number): { value: string; end: number } {
    const t = this.text;
    const double = t.charCodeAt(p) === DQUOTE;
    let value = '';
    let i = p + 1;
    for (;;) {
      const c = t.charCodeAt(i);
      if (Number.isNaN(c)) throw new GiveUp();
      if (double ? c === DQUOTE : c === SQUOTE && t.charCodeAt(i + 1) !== SQUOTE) break;
      if (!double && c === SQUOTE) {
        value += "'";
        i += 2;
        continue;
      }
      if (c === NL || c === SPACE) {
        // Spaces before a line break are dropped; spaces elsewhere are kept.
        let j = i;
        while (t.charCodeAt(j) === SPACE) j++;
        if (t.charCodeAt(j) !== NL) {
          value += t.slice(i, j);
          i = j;
          continue;
        }
        let empty = 0;
        i = this.continuation(j + 1, parent);
        while (t.charCodeAt(i) === NL) {
          empty++;
          i = this.continuation(i + 1, parent);
        }
        value += empty === 0 ? ' ' : '\n'.repeat(empty);
        continue;
      }
      if (double && c === 0x5c) {
        if (t.charCodeAt(i + 1) === NL) {
          i = this.continuation(i + 2, parent);
          continue;
        }
        const e = this.escape(i);
        value += e.text;
        i = e.end;
        continue;
      }
      value += t[i];
      i++;
    }
    if (this.escapes && unstorableOffset(value) >= 0) throw new GiveUp();
    return { value, end: this.afterQuote(i + 1) };
  }

  /** The first non-space of a quoted or flow continuation line, which must be indented past `parent`. */
  private continuation(lineStart: number, parent: number, closing = 0): number {
    const t = this.text;
    let i = lineStart;
    while (t.charCodeAt(i) === SPACE) i++;
    const c = t.charCodeAt(i);
    if (c === NL) return i;
    if (this.isBoundary(lineStart)) throw new GiveUp();
    const indent = i - lineStart;
    if (indent > parent || (indent === parent && c === closing && closing !== 0)) return i;
    throw new GiveUp();
  }

  /** After a closing quote: `yaml` wants a space before a comment (`"x"#c` is its error). */
  private afterQuote(i: number): number {
    if (this.text.charCodeAt(i) === HASH) throw new GiveUp();
    return i;
  }

  private escape(i: number): { text: string; end: number } {
    const t = this.text;
    const c = t[i + 1];
    const simple = c === undefined ? undefined : ESCAPES[c];
    if (simple !== undefined) return { text: simple, end: i + 2 };
    const digits = c === 'x' ? 2 : c === 'u' ? 4 : c === 'U' ? 8 : 0;
    if (digits === 0) throw new GiveUp();
    const hex = t.slice(i + 2, i + 2 + digits);
    if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== digits) throw new GiveUp();
    const code = parseInt(hex, 16);
    if (code > 0x10ffff) throw new GiveUp();
    return { text: String.fromCodePoint(code), end: i + 2 + digits };
  }

  /**
   * `|` or `>` with an optional `-` or `+`, then its lines, all indented alike past `parent`.
   * The value's location is the indicator's, as on the exact path.
   */
  private blockScalar(p: number, parent: number): Read {
    const t = this.text;
    const folded = t.charCodeAt(p) === 0x3e;
    let h = p + 1;
    const chomp = t.charCodeAt(h);
    const keep = chomp === 0x2b;
    const strip = chomp === DASH;
    if (keep || strip) h++;
    if (!isBreakOrSpace(t.charCodeAt(h))) throw new GiveUp(); // an indentation indicator, or garbage
    let at = this.restOfLine(h);
    // The lines: content lines (text after the indentation) and empty ones ('').
    const lines: string[] = [];
    let indent = -1;
    let lastContent = -1;
    let leadingDeepest = 0;
    while (at < t.length) {
      let i = at;
      while (t.charCodeAt(i) === SPACE) i++;
      const spaces = i - at;
      const eol = this.lineEnd(at);
      if (i === eol && (indent < 0 || spaces <= indent)) {
        // spaces only, no deeper than the indentation: an empty line
        if (indent < 0) leadingDeepest = Math.max(leadingDeepest, spaces);
        lines.push('');
        at = eol + 1;
        continue;
      }
      if (indent < 0) {
        if (spaces <= parent) break;
        if (leadingDeepest > spaces) throw new GiveUp(); // yaml wants an indentation indicator
        indent = spaces;
      }
      if (spaces < indent) break;
      if (indent === 0 && this.isBoundary(at)) throw new GiveUp();
      lines.push(t.slice(at + indent, eol));
      lastContent = lines.length - 1;
      at = eol + 1;
    }
    if (lastContent < 0) throw new GiveUp(); // no content: yaml's rules for the empty block scalar are its own
    if (keep && at >= t.length && !t.endsWith('\n')) throw new GiveUp(); // kept, at the text's end without a line break
    let value = folded ? fold(lines, lastContent) : lines.slice(0, lastContent + 1).join('\n');
    if (!strip) value += '\n';
    if (keep) value += '\n'.repeat(lines.length - lastContent - 1);
    // Trailing empty lines belong to the scalar; the next content is looked for after them.
    return { node: { kind: 'scalar', value, quoted: true, loc: this.loc(p) }, end: Math.min(at, t.length) };
  }

  // ── Flow collections ───────────────────────────────────────────────────────────────────

  /**
   * A flow collection; its lines after the first must be indented past `parent`, except that
   * the outermost one's closing bracket may stand at `parent`'s column, as `yaml` allows.
   */
  private flow(p: number, parent: number, outermost: boolean): Read {
    const t = this.text;
    this.enter();
    const open = t.charCodeAt(p);
    const loc = this.loc(p);
    const isMap = open === 0x7b;
    const close = isMap ? 0x7d : 0x5d;
    const closing = outermost ? close : 0;
    const items: YNode[] = [];
    const entries: YEntry[] = [];
    let i = this.flowSpace(p + 1, parent, closing);
    for (;;) {
      if (t.charCodeAt(i) === close) break;
      const keyOrItem = this.flowScalarOrCollection(i, parent, closing);
      i = this.flowSpace(keyOrItem.end, parent, closing);
      if (isMap) {
        if (t.charCodeAt(i) !== COLON || keyOrItem.node.kind !== 'scalar') throw new GiveUp();
        i = this.flowSpace(i + 1, parent, closing);
        const c = t.charCodeAt(i);
        if (c === 0x2c || c === close) throw new GiveUp(); // an empty value
        const value = this.flowScalarOrCollection(i, parent, closing);
        entries.push({ key: keyString(keyOrItem.node), keyNode: keyOrItem.node, value: value.node });
        i = this.flowSpace(value.end, parent, closing);
      } else {
        if (t.charCodeAt(i) === COLON) throw new GiveUp(); // a flow pair
        items.push(keyOrItem.node);
      }
      const c = t.charCodeAt(i);
      if (c === 0x2c) i = this.flowSpace(i + 1, parent, closing);
      else if (c !== close) throw new GiveUp();
    }
    if (entries.length > 1) distinctKeys(entries);
    const node: YNode = isMap ? { kind: 'map', entries, loc } : { kind: 'seq', items, loc };
    return this.leave({ node, end: this.afterQuote(i + 1) });
  }

  /** An item, key or value inside a flow collection (`closing`: as for flowSpace). */
  private flowScalarOrCollection(i: number, parent: number, closing: number): Read {
    const t = this.text;
    const c = t.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) return this.flow(i, parent, false);
    this.count();
    if (c === DQUOTE || c === SQUOTE) return this.quoted(i, parent);
    const end = this.plainEnd(i, true);
    const node: YNode = { kind: 'scalar', value: resolvePlain(t.slice(i, trimEnd(t, i, end)), false), quoted: false, loc: this.loc(i) };
    // A plain scalar ending at a line break goes on if the next token is not `,` `:` or a bracket.
    if (t.charCodeAt(end) === NL || t.charCodeAt(end) === HASH) {
      const next = t.charCodeAt(this.flowSpace(end, parent, closing));
      if (next !== 0x2c && next !== 0x5d && next !== 0x7d && next !== COLON) throw new GiveUp();
    }
    return { node, end };
  }

  /**
   * Spaces, line breaks and comments inside a flow collection; its lines must be indented past
   * `parent`, but for `closing`, the outermost collection's closing bracket (0 inside a nested one).
   */
  private flowSpace(i: number, parent: number, closing: number): number {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === SPACE) i++;
      else if (c === NL) i = this.continuation(i + 1, parent, closing);
      else if (c === HASH && (t.charCodeAt(i - 1) === SPACE || t.charCodeAt(i - 1) === NL)) i = this.lineEnd(i);
      else if (Number.isNaN(c)) throw new GiveUp();
      else return i;
    }
  }

  // ── Lines ──────────────────────────────────────────────────────────────────────────────

  /** After a value on its line: only spaces and a comment may follow. Returns the next line's start. */
  private restOfLine(i: number): number {
    const t = this.text;
    const start = i;
    while (t.charCodeAt(i) === SPACE) i++;
    const c = t.charCodeAt(i);
    if (c === HASH && (i > start || t.charCodeAt(i - 1) === SPACE)) i = this.lineEnd(i);
    else if (c !== NL && !Number.isNaN(c)) throw new GiveUp();
    return i >= t.length ? t.length : i + 1;
  }

  /** The start of the first line at or after `from` (a line start) with content: not blank, not only a comment. -1 at the end. */
  private contentLine(from: number): number {
    const t = this.text;
    let at = from;
    while (at < t.length) {
      let i = at;
      while (t.charCodeAt(i) === SPACE) i++;
      const c = t.charCodeAt(i);
      if (c === NL) at = i + 1;
      else if (c === HASH) at = this.lineEnd(i) + 1;
      else if (Number.isNaN(c)) return -1;
      else return at;
    }
    return -1;
  }

  /** `- ` (or `-` ending its line): a block list's item. */
  private isDashItem(p: number): boolean {
    return this.text.charCodeAt(p) === DASH && isBreakOrSpace(this.text.charCodeAt(p + 1));
  }

  private isBoundary(lineStart: number): boolean {
    return this.isMarker(lineStart, DASH) || this.isMarker(lineStart, DOT);
  }

  /** `---` or `...` at a line's start, followed by a space or the line's end. */
  private isMarker(lineStart: number, c: number): boolean {
    const t = this.text;
    return t.charCodeAt(lineStart) === c && t.charCodeAt(lineStart + 1) === c && t.charCodeAt(lineStart + 2) === c && isBreakOrSpace(t.charCodeAt(lineStart + 3));
  }

  private indent(lineStart: number): number {
    const t = this.text;
    let i = lineStart;
    while (t.charCodeAt(i) === SPACE) i++;
    return i - lineStart;
  }

  /** Whether nothing but a comment follows on this line (`p` is past the spaces). */
  private endsLine(p: number): boolean {
    const c = this.text.charCodeAt(p);
    return c === NL || Number.isNaN(c) || c === HASH;
  }

  /** The offset of the line break ending the line `i` is on (or the text's end). */
  private lineEnd(i: number): number {
    const line = this.lineOf(i);
    return line + 1 < this.lineStarts.length ? this.lineStarts[line + 1]! - 1 : this.text.length;
  }

  /** The start of the line after the one `i` is on (or the text's end). */
  private nextLine(i: number): number {
    const line = this.lineOf(i);
    return line + 1 < this.lineStarts.length ? this.lineStarts[line + 1]! : this.text.length;
  }

  private lineStart(i: number): number {
    return this.lineStarts[this.lineOf(i)]!;
  }

  /** Line and column as the `yaml` LineCounter gives them (lines end at `\n`). */
  private loc(offset: number): SourceLoc {
    const line = this.lineOf(offset);
    return { line: line + 1, col: offset - this.lineStarts[line]! + 1 };
  }

  /**
   * The (0-based) line an offset is on. The reader asks in text order, so a cursor moves
   * forward a line or two at a time; a step back is a binary search.
   */
  private lineOf(offset: number): number {
    const starts = this.lineStarts;
    let line = this.line;
    if (starts[line]! > offset) {
      let hi = line;
      line = 0;
      while (line < hi) {
        const mid = (line + hi + 1) >> 1;
        if (starts[mid]! <= offset) line = mid;
        else hi = mid - 1;
      }
    }
    while (line + 1 < starts.length && starts[line + 1]! <= offset) line++;
    this.line = line;
    return line;
  }

  // ── Limits ─────────────────────────────────────────────────────────────────────────────

  /** Each node read counts: within half the limit, the exact path (which counts after expanding) is within it. */
  private count(): void {
    if (++this.nodes * 2 > this.limits.maxNodes) throw new GiveUp();
  }

  /** A collection opens: one node, one level deeper. */
  private enter(): void {
    this.count();
    if (++this.depth * 2 > this.limits.maxDepth) throw new GiveUp();
  }

  private leave(read: Read): Read {
    this.depth--;
    return read;
  }
}

/**
 * The next occurrence of a string at or after an offset, for offsets asked in (mostly)
 * increasing order: each occurrence is searched for once, not once per scalar before it
 * (a rare string would otherwise be searched to the text's end from every scalar).
 */
class Finder {
  /** The first occurrence at or after `from` is at `found` (Infinity: none). */
  private from = 1;
  private found = 0;
  constructor(
    private readonly text: string,
    private readonly needle: string,
  ) {}

  /** The offset, or Infinity when there is none. */
  next(from: number): number {
    if (from < this.from || from > this.found) {
      const i = this.text.indexOf(this.needle, from);
      this.from = from;
      this.found = i < 0 ? Infinity : i;
    }
    return this.found;
  }
}

interface Key {
  node: YNode;
  /** Just past the `:`; -1 for an explicit key with no value (then `end` is where the key ended). */
  valueAt: number;
  end?: number;
}

const ESCAPES: Record<string, string> = {
  '0': '\0', a: '\x07', b: '\b', t: '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b', ' ': ' ', '"': '"', '/': '/', '\\': '\\', N: '\x85', _: '\xa0', L: '\u2028', P: '\u2029',
};

/** The next `\`, `"` or line end from `i` (the end of a run of plain characters in a double-quoted scalar). */
function nextOf(t: string, i: number, eol: number): number {
  let j = i;
  while (j < eol) {
    const c = t.charCodeAt(j);
    if (c === 0x5c || c === DQUOTE) return j;
    j++;
  }
  return j;
}

/** Whether a plain scalar may start with `c` (followed by `next`): not an indicator, save `-` `?` `:` before a non-space. */
function plainStart(c: number, next: number): boolean {
  if (Number.isNaN(c) || c === SPACE || c === NL) return false;
  // , [ ] { } # & * ! | > ' " % @ `
  if (c === 0x2c || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d || c === HASH || c === 0x26 || c === 0x2a || c === 0x21 || c === 0x7c || c === 0x3e || c === SQUOTE || c === DQUOTE || c === 0x25 || c === 0x40 || c === 0x60) return false;
  if (c === 0x3f || c === COLON) return false; // `?x`, `:x`: left to the exact path (`? ` is an explicit key)
  if (c === DASH) return !(next === SPACE || next === NL || Number.isNaN(next));
  return true;
}

/** A space, a line break or the text's end (NaN). */
function isBreakOrSpace(c: number): boolean {
  return c === SPACE || c === NL || Number.isNaN(c);
}

function isFlowIndicator(c: number): boolean {
  return c === 0x2c || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d;
}

function trimEnd(t: string, from: number, end: number): number {
  let e = end;
  while (e > from && t.charCodeAt(e - 1) === SPACE) e--;
  return e;
}

/**
 * Folded style: a line break between two text lines is a space and n empty lines between
 * them are n line feeds; next to a more-indented line (one that starts with a space after the
 * indentation, spaces-only lines deeper than it included) the line break is kept.
 */
function fold(lines: string[], last: number): string {
  let out = '';
  let empties = 0;
  let previous: string | null = null;
  for (let i = 0; i <= last; i++) {
    const line = lines[i]!;
    if (line === '') {
      empties++;
      continue;
    }
    if (previous === null) out += '\n'.repeat(empties);
    else if (previous.charCodeAt(0) === SPACE || line.charCodeAt(0) === SPACE) out += '\n'.repeat(empties + 1);
    else out += empties === 0 ? ' ' : '\n'.repeat(empties);
    out += line;
    empties = 0;
    previous = line;
  }
  return out;
}

/** Keys equal once resolved (`1` and `1.0`…) or written twice: the exact path reports or merges them. */
function distinctKeys(entries: YEntry[]): void {
  if (entries.length <= 8) {
    for (let i = 1; i < entries.length; i++) for (let j = 0; j < i; j++) if (entries[i]!.key === entries[j]!.key) throw new GiveUp();
    return;
  }
  if (new Set(entries.map((e) => e.key)).size !== entries.length) throw new GiveUp();
}

/**
 * Whether a plain scalar could be a core-schema null, boolean, integer or float (the tags'
 * patterns are checked in fast-tree.test.ts): any other is a string, without trying eight
 * patterns on it.
 */
function mayResolve(source: string): boolean {
  if (source === '') return true;
  const c = source.charCodeAt(0);
  if ((c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x7e) return true; // 0-9 - + . ~
  // null, true, false in their three spellings: at most five letters
  return source.length <= 5 && (c === 0x6e || c === 0x4e || c === 0x74 || c === 0x54 || c === 0x66 || c === 0x46);
}

/** A plain scalar's value by `yaml`'s core schema, as the exact path's Composer resolves it. */
function resolvePlain(source: string, atKey: boolean): YScalarValue {
  if (atKey && source === '<<') throw new GiveUp(); // a merge key
  if (!mayResolve(source)) return source;
  const tag = PLAIN_TAGS.find((t) => t.test!.test(source));
  if (!tag) return source;
  let failed = false;
  const resolved = tag.resolve(source, () => (failed = true), CORE.options);
  if (failed) throw new GiveUp();
  const value = isScalar(resolved) ? resolved.value : resolved;
  if (typeof value === 'symbol') throw new GiveUp();
  return scalarValue(value);
}
