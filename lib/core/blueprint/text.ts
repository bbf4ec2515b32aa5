/**
 * Text PostgreSQL will not store as written: U+0000 (refused by `text` and by `jsonb`) and
 * unpaired UTF-16 surrogates (`jsonb` refuses their `\uD800` escapes; a `text` column would
 * silently get U+FFFD instead). A blueprint with either passed validation and then failed
 * when stored; the loader now rejects it at its line and column, and the raw text of such a
 * rejected file is stored through `storableText` so the rejection itself can be recorded.
 */
import { withFlags } from '../untrusted';

// A NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what this looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = withFlags(UNSTORABLE, 'g');

// Any NUL or surrogate: a plain character class scans far faster than the look-arounds, and most texts have neither.
// eslint-disable-next-line no-control-regex -- as above
const SUSPECT = /[\u0000\uD800-\uDFFF]/;

/** `String.prototype.isWellFormed` (ES2024, Node ≥ 20): no unpaired surrogate. Native, and O(1) on a one-byte string. */
const isWellFormed = (String.prototype as { isWellFormed?: (this: string) => boolean }).isWellFormed;

/** The offset of the first character PostgreSQL would refuse, or -1. */
export function unstorableOffset(text: string): number {
  // The usual answer, from two native scans (the loader asks this of every file, ~3% of a load by regex).
  if (isWellFormed && text.indexOf('\u0000') < 0 && isWellFormed.call(text)) return -1;
  const suspect = SUSPECT.exec(text);
  if (!suspect) return -1;
  UNSTORABLE_ALL.lastIndex = suspect.index;
  const m = UNSTORABLE_ALL.exec(text);
  return m ? m.index : -1;
}

/**
 * Orders strings by UTF-16 code unit, as `<` does: the same order in every locale (unlike
 * localeCompare), for keys that must be sorted alike everywhere (ids locked in order, hashes).
 */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Describes the character at `offset` for an error message. */
export function describeUnstorable(text: string, offset: number): string {
  const code = text.charCodeAt(offset);
  if (code === 0) return 'a NUL character (U+0000)';
  return `an unpaired surrogate (U+${code.toString(16).toUpperCase().padStart(4, '0')}, not a whole character)`;
}

/** The text with each unstorable character replaced by U+FFFD, so it can be stored and shown. */
export function storableText(text: string): string {
  return unstorableOffset(text) < 0 ? text : text.replace(UNSTORABLE_ALL, '\uFFFD');
}

/** UTF-8 length without encoding the text (a 50 MB string is not copied to be measured). */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
