/**
 * The one regex helper behind matches / imatches / *_all_of / *_at_least_n_of.
 * Compilation happens at evaluation (a bad pattern is an `{error}` outcome, never a 0) but
 * `compilePattern` is also exported so the parser can report a bad pattern at load time.
 */
import { foldCase, nfc } from './normalize';

export type Compiled = { ok: true; regex: RegExp; caseInsensitive: boolean } | { ok: false; message: string };

/**
 * A leading `(?i)` (PCRE/Python inline flag, common in blueprints written by people used to
 * those engines) means case-insensitive; JS rejects it as a syntax error (README item 11).
 */
const INLINE_I = /^\(\?i\)/;

/**
 * Tries Unicode mode first so `\p{L}`, astral characters and case-insensitive matching of
 * non-ASCII letters work; falls back to legacy mode for patterns that are only valid there
 * (identity escapes such as `\-` or `\:` outside a class, which Weval accepted).
 */
export function compilePattern(pattern: string, caseInsensitive: boolean): Compiled {
  let source = nfc(pattern);
  let ci = caseInsensitive;
  if (INLINE_I.test(source)) {
    source = source.replace(INLINE_I, '');
    ci = true;
  }
  const flags = ci ? 'i' : '';
  try {
    return { ok: true, regex: new RegExp(source, `${flags}u`), caseInsensitive: ci };
  } catch {
    try {
      return { ok: true, regex: new RegExp(source, flags), caseInsensitive: ci };
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
