/**
 * Text-level helpers for the form's edits. An edit is computed on the `yaml` Document's nodes
 * (their source ranges) and applied as a splice of the original text, so every byte outside the
 * spliced range is the author's own: comments, quoting, blank lines and indentation of the
 * untouched parts cannot change, and a serialise with no edit is the input itself.
 *
 * New values are rendered with the library's own scalar writer (`CST.createScalarToken`), in the
 * style of the value they replace where that style can hold the new value.
 */
import { CST, Scalar } from 'yaml';

export interface Splice {
  from: number;
  to: number;
  insert: string;
}

/** Applies non-overlapping splices (any order). */
export function applySplices(text: string, splices: readonly Splice[]): string {
  const sorted = [...splices].sort((a, b) => b.from - a.from || b.to - a.to);
  let out = text;
  let limit = Infinity;
  for (const s of sorted) {
    if (s.to > limit) throw new Error(`overlapping edits at ${s.from}–${s.to}`);
    out = out.slice(0, s.from) + s.insert + out.slice(s.to);
    limit = s.from;
  }
  return out;
}

export function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The offset just after the newline that ends the line holding `offset - 1` (a value's end), or the text's end. */
export function lineEndAfter(text: string, end: number): number {
  if (end > 0 && text[end - 1] === '\n') return end;
  const nl = text.indexOf('\n', end);
  return nl < 0 ? text.length : nl + 1;
}

/** 0-based column of an offset. */
export function columnOf(text: string, offset: number): number {
  return offset - lineStartOf(text, offset);
}

/** 1-based line of an offset. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Whether only spaces (and list dashes when `dashes`) stand between the line's start and `offset`. */
export function onlyIndentBefore(text: string, offset: number, dashes = false): boolean {
  const before = text.slice(lineStartOf(text, offset), offset);
  return dashes ? /^[ \t-]*$/.test(before) : /^[ \t]*$/.test(before);
}

export type ScalarStyle = 'plain' | 'single' | 'double' | 'block';

export function styleOfType(type: Scalar.Type | undefined): ScalarStyle {
  if (type === Scalar.QUOTE_SINGLE) return 'single';
  if (type === Scalar.QUOTE_DOUBLE) return 'double';
  if (type === Scalar.BLOCK_LITERAL || type === Scalar.BLOCK_FOLDED) return 'block';
  return 'plain';
}

export interface ScalarContext {
  /** The style of the value replaced (kept where it can hold the new value). */
  style?: ScalarStyle;
  /** Indentation (spaces) of a block scalar's content lines. */
  indent: number;
  /** Inside `[…]` or `{…}`: plain scalars may not hold `,[]{}`. */
  inFlow?: boolean;
  /** A mapping key (a block scalar cannot be one). */
  implicitKey?: boolean;
}

/**
 * A scalar's source text. A multi-line string is a literal block where the old value was one
 * (its lines re-indented to `indent`), otherwise one double-quoted line (JSON's escapes are
 * YAML's): a flow scalar folded over lines would read differently at another indentation.
 */
export function renderScalar(value: string | number | boolean | null, ctx: ScalarContext): string {
  if (value === null) return 'null';
  if (typeof value !== 'string') return String(value);
  const multiline = value.includes('\n');
  if (multiline && ctx.style === 'block' && !ctx.inFlow && !ctx.implicitKey) {
    // The token's text ends with the newline that ends the block.
    return CST.stringify(CST.createScalarToken(value, { indent: ctx.indent, type: Scalar.BLOCK_LITERAL, end: [] }));
  }
  if (multiline) return JSON.stringify(value);
  const type = ctx.style === 'single' ? Scalar.QUOTE_SINGLE : ctx.style === 'double' ? Scalar.QUOTE_DOUBLE : Scalar.PLAIN;
  const text = CST.stringify(CST.createScalarToken(value, { indent: ctx.indent, type, inFlow: ctx.inFlow, implicitKey: ctx.implicitKey, end: [] }));
  // The writer falls back to a block scalar for some strings; one line is what fits here.
  return text.includes('\n') ? JSON.stringify(value) : text;
}

/** Any JSON value on one line in flow style (`[a, "b, c"]`, `{yes: 1, na: null}`), as authors write it. */
export function renderFlow(value: unknown, inFlow = false): string {
  if (Array.isArray(value)) return `[${value.map((v) => renderFlow(v, true)).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${renderScalar(k, { indent: 0, inFlow: true, implicitKey: true })}: ${renderFlow(v, true)}`).join(', ')}}`;
  }
  if (value === undefined) return 'null';
  return renderScalar(value as string | number | boolean | null, { indent: 0, inFlow });
}
