/**
 * A regex that must run in linear time with no fallback: patterns read from a file and run
 * while it is parsed (a soev suite's `id_pattern`, a project's citation `regex`, suite globs).
 * V8's backtracking engine took 17 s to test a 28-character case id against `((?:a+)+)b`;
 * RE2 (re2js) cannot backtrack. JavaScript syntax is accepted as in point functions
 * (`new RegExp` only parses the pattern, it never runs it), then translated to RE2; a pattern
 * RE2 cannot express (lookaround, backreferences) is refused with that reason.
 */
import { RE2JS } from 're2js';
import { translateToRe2 } from './re2-translate';

export interface LinearPattern {
  /** The pattern as written. */
  readonly pattern: string;
  /** How many capture groups it has. */
  readonly groupCount: number;
  /** Whether the pattern matches somewhere in `text`. */
  test(text: string): boolean;
  /** The groups (0 = whole text) when the pattern matches the whole of `text`, else null. */
  matchWhole(text: string): (string | null)[] | null;
}

export type LinearCompiled = { ok: true; regex: LinearPattern } | { ok: false; message: string };

export function compileLinear(pattern: string, options: { ignoreCase?: boolean } = {}): LinearCompiled {
  const ignoreCase = options.ignoreCase === true;
  try {
    // Parsing only: the JS engine's syntax errors are the ones authors know.
    new RegExp(pattern, ignoreCase ? 'iu' : 'u');
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
  const translated = translateToRe2(pattern, { unicode: true, ignoreCase, multiline: false, dotAll: false, captures: true });
  if (!translated.ok) return { ok: false, message: `it needs a backtracking regex engine (${translated.reason}); write it without lookaround or backreferences` };
  let re2: RE2JS;
  try {
    re2 = RE2JS.compile(translated.source, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
  const regex: LinearPattern = {
    pattern,
    groupCount: re2.groupCount(),
    test: (text) => re2.test(text),
    matchWhole(text) {
      const m = re2.matcher(text);
      if (!m.matches()) return null;
      return Array.from({ length: re2.groupCount() + 1 }, (_v, i) => m.group(i));
    },
  };
  return { ok: true, regex };
}
