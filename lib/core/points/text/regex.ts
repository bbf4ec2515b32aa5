/**
 * The one regex helper behind matches / imatches / *_all_of / *_at_least_n_of.
 * Compilation happens at evaluation (a bad pattern is an `{error}` outcome, never a 0) but
 * `compilePattern` is also exported so the parser can report a bad pattern at load time.
 */
import { foldCase, nfc } from './normalize';

export type Compiled = { ok: true; regex: RegExp; caseInsensitive: boolean } | { ok: false; message: string };

/**
 * A leading inline-flag group such as `(?i)` or `(?is)` (PCRE/Python syntax, common in
 * blueprints and scenarios written by people used to those engines) sets the flags; JS
 * rejects it as a syntax error (README item 11). Only flags with a JS meaning are accepted.
 */
const INLINE_FLAGS = /^\(\?([a-zA-Z]+)\)/;
const JS_FLAGS = new Set(['i', 'm', 's', 'u']);

/**
 * The one regex compiler of Assay (point functions, `correct:` assertions, the loader).
 * Tries Unicode mode first so `\p{L}`, astral characters and case-insensitive matching of
 * non-ASCII letters work; falls back to legacy mode for patterns that are only valid there
 * (identity escapes such as `\-` or `\:` outside a class, which Weval accepted).
 * `extraFlags` are JS flags written beside the pattern (a `correct:` assertion's `flags`).
 */
export function compilePattern(pattern: string, caseInsensitive: boolean, extraFlags = ''): Compiled {
  let source = nfc(pattern);
  const flags = new Set([...extraFlags].filter((f) => f !== 'u' && f !== 'g' && f !== 'y'));
  for (const f of flags) {
    if (!JS_FLAGS.has(f)) return { ok: false, message: `invalid regex flag "${f}" for ${JSON.stringify(pattern)}: use i, m or s` };
  }
  const inline = INLINE_FLAGS.exec(source);
  if (inline) {
    const letters = [...(inline[1] ?? '')];
    const unknown = letters.filter((l) => !JS_FLAGS.has(l));
    if (unknown.length > 0) {
      return { ok: false, message: `invalid regex ${JSON.stringify(pattern)}: inline flag(s) ${unknown.join('')} have no JavaScript equivalent (use i, m or s)` };
    }
    source = source.slice(inline[0].length);
    for (const l of letters) if (l !== 'u') flags.add(l);
  }
  if (caseInsensitive) flags.add('i');
  const ci = flags.has('i');
  const base = [...flags].sort().join('');
  try {
    return { ok: true, regex: new RegExp(source, `${base}u`), caseInsensitive: ci };
  } catch {
    try {
      return { ok: true, regex: new RegExp(source, base), caseInsensitive: ci };
    } catch (error) {
      return { ok: false, message: `invalid regex ${JSON.stringify(pattern)}: ${(error as Error).message}` };
    }
  }
}

/**
 * Case-insensitive patterns are also tried against the case-folded response: the regex `i`
 * flag uses simple case mapping, so `istanbul` would not find `İstanbul` nor `strasse`
 * find `STRAßE`. Folding the pattern itself is unsafe (`\S` would become `\s`).
 */
export function testPattern(compiled: { regex: RegExp; caseInsensitive: boolean }, response: string): boolean {
  const text = nfc(response);
  if (compiled.regex.test(text)) return true;
  return compiled.caseInsensitive && compiled.regex.test(foldCase(text));
}
