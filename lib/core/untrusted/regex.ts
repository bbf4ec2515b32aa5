/**
 * The one regex compiler of Assay for blueprint-supplied patterns (point functions matches /
 * imatches / *_all_of / *_at_least_n_of, `correct:` regex and jsonpath_regex assertions,
 * criteria's patterns, the loader); patterns run while a file is parsed use linear.ts. Compilation happens at evaluation (a bad pattern is an `{error}` outcome, never a 0)
 * but `compilePattern` is also exported so the parser can report a bad pattern at load time.
 *
 * Patterns are written in JavaScript syntax and validated by `new RegExp` (same errors as
 * always), but never matched by V8's backtracking engine: a blueprint is untrusted and
 * `^(\w+\s?)*$` on a 70-character reply took 54 s there. They are
 * translated to RE2 syntax (re2-translate.ts) and matched by re2js, a linear-time engine.
 * What RE2 cannot express (lookaround, backreferences) runs in the JS engine inside the
 * QuickJS sandbox, under its time limit, or is an error where no sandbox is configured.
 */
import { RE2JS } from 're2js';
import { SandboxError, type RegexEngine, type SandboxPort } from '../points/types';
import { foldCase, nfc } from '../points/text/normalize';
import { translateToRe2 } from './re2-translate';

export interface CompiledPattern {
  /** The pattern as written (for messages). */
  pattern: string;
  caseInsensitive: boolean;
  /** The JS source and flags, for the sandbox fallback. */
  source: string;
  flags: string;
  /** The linear-time matcher, or null when the pattern needs the JS engine. */
  re2: RE2JS | null;
  /** Why RE2 cannot run it (when `re2` is null). */
  needsJs: string | null;
  /** A text containing one of these characters is matched in the sandbox (engine differences). */
  jsOnlyText: RegExp | null;
}

export type Compiled = ({ ok: true } & CompiledPattern) | { ok: false; message: string };

export type { RegexEngine };

export type PatternTest = { ok: true; matched: boolean; engine: RegexEngine } | { ok: false; message: string };

/**
 * A leading inline-flag group such as `(?i)` or `(?is)` (PCRE/Python syntax, common in
 * blueprints and scenarios written by people used to those engines) sets the flags; JS
 * rejects it as a syntax error. Only flags with a JS meaning are accepted.
 */
const INLINE_FLAGS = /^\(\?([a-zA-Z]+)\)/;
const JS_FLAGS = new Set(['i', 'm', 's', 'u']);

/**
 * Tries Unicode mode first so `\p{L}`, astral characters and case-insensitive matching of
 * non-ASCII letters work; falls back to legacy mode for patterns that are only valid there
 * (identity escapes such as `\-` or `\:` outside a class, which Weval accepted).
 * `extraFlags` are JS flags written beside the pattern (a `correct:` assertion's `flags`).
 */
export function compilePattern(pattern: string, caseInsensitive: boolean, extraFlags = '', options: { captures?: boolean } = {}): Compiled {
  const captures = options.captures === true;
  const key = `${captures ? 'c' : ''}${cacheKey(pattern, caseInsensitive, extraFlags)}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const compiled = compileUncached(pattern, caseInsensitive, extraFlags, captures);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(key, compiled);
  return compiled;
}

/**
 * Compiling for RE2 costs ~0.4 ms a pattern (V8: microseconds), and a run grades the same
 * points on every reply: compiled patterns are kept, oldest out first. A compiled pattern is
 * immutable, so sharing it is safe.
 */
const CACHE_SIZE = 2_000;
const cache = new Map<string, Compiled>();

/**
 * Whether a pattern compiles, and with what: the flag checks and the `new RegExp` tries that
 * decide `ok`, without the RE2 translation and compilation (which never make a pattern
 * invalid: what RE2 refuses goes to the sandbox). The loader only needs this verdict, so it
 * does not pay for RE2 on every load (`checkPattern`).
 */
type Prepared = { ok: true; source: string; flags: Set<string>; jsFlags: string; ci: boolean } | { ok: false; message: string };

function prepare(pattern: string, caseInsensitive: boolean, extraFlags: string): Prepared {
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
  // Constructing a RegExp only parses it (linear); it is never executed here.
  try {
    new RegExp(source, `${base}u`);
    return { ok: true, source, flags, jsFlags: `${base}u`, ci };
  } catch {
    try {
      new RegExp(source, base);
      return { ok: true, source, flags, jsFlags: base, ci };
    } catch (error) {
      return { ok: false, message: `invalid regex ${JSON.stringify(pattern)}: ${(error as Error).message}` };
    }
  }
}

/**
 * What `compilePattern(...).ok` would say, and its message, at a fraction of the cost: the
 * loader's check that a blueprint's pattern is valid (RE2 compiles it at evaluation, cached).
 */
export function checkPattern(pattern: string, caseInsensitive: boolean, extraFlags = ''): { ok: true } | { ok: false; message: string } {
  const hit = cache.get(cacheKey(pattern, caseInsensitive, extraFlags));
  if (hit) return hit.ok ? { ok: true } : hit;
  const prepared = prepare(pattern, caseInsensitive, extraFlags);
  return prepared.ok ? { ok: true } : prepared;
}

function cacheKey(pattern: string, caseInsensitive: boolean, extraFlags: string): string {
  return `${caseInsensitive ? 'i' : '-'}${extraFlags}\u0000${pattern}`;
}

function compileUncached(pattern: string, caseInsensitive: boolean, extraFlags: string, captures: boolean): Compiled {
  const prepared = prepare(pattern, caseInsensitive, extraFlags);
  if (!prepared.ok) return prepared;
  const { source, flags, jsFlags, ci } = prepared;
  const compiled: CompiledPattern = { pattern, caseInsensitive: ci, source, flags: jsFlags, re2: null, needsJs: null, jsOnlyText: null };
  const translated = translateToRe2(source, { unicode: jsFlags.includes('u'), ignoreCase: ci, multiline: flags.has('m'), dotAll: flags.has('s'), captures });
  if (!translated.ok) return { ok: true, ...compiled, needsJs: translated.reason };
  try {
    const re2Flags = (ci ? RE2JS.CASE_INSENSITIVE : 0) | (flags.has('m') ? RE2JS.MULTILINE : 0);
    return { ok: true, ...compiled, re2: RE2JS.compile(translated.source, re2Flags), jsOnlyText: translated.jsOnlyText };
  } catch (error) {
    // Valid JS that RE2 still refuses (e.g. a program too large): the sandbox decides.
    return { ok: true, ...compiled, needsJs: `RE2 cannot compile it (${(error as Error).message})` };
  }
}

/** The JS engine in the sandbox: the same two tries as `testPattern`, under the sandbox's time limit. */
const SANDBOX_TEST = 'const re = new RegExp(source, flags); re.test(text) || (folded !== null && re.test(folded))';

/**
 * Case-insensitive patterns are also tried against the case-folded response: the regex `i`
 * flag uses simple case mapping, so `istanbul` would not find `İstanbul` nor `strasse`
 * find `STRAßE`. Folding the pattern itself is unsafe (`\S` would become `\s`).
 */
export function testPattern(compiled: CompiledPattern, response: string, sandbox?: SandboxPort): PatternTest {
  const text = nfc(response);
  const folded = compiled.caseInsensitive ? foldCase(text) : null;
  const re2 = compiled.re2;
  const re2Fits = re2 !== null && !(compiled.jsOnlyText && (compiled.jsOnlyText.test(text) || (folded !== null && compiled.jsOnlyText.test(folded))));
  if (re2Fits) return { ok: true, matched: re2.test(text) || (folded !== null && re2.test(folded)), engine: 're2' };

  const why = compiled.needsJs ?? 'the text contains characters the two engines treat differently';
  if (!sandbox) return { ok: false, message: `regex ${JSON.stringify(compiled.pattern)} needs the JavaScript engine (${why}), which runs only in the sandbox, and none is configured` };
  try {
    const matched = sandbox.run(SANDBOX_TEST, { source: compiled.source, flags: compiled.flags, text, folded });
    return { ok: true, matched: matched === true, engine: 'sandbox' };
  } catch (error) {
    const message = error instanceof SandboxError && error.kind === 'timeout' ? 'the regex ran past its time limit in the sandbox (catastrophic backtracking?)' : (error as Error).message;
    return { ok: false, message: `regex ${JSON.stringify(compiled.pattern)}: ${message}` };
  }
}

/** The engine to record for several patterns: the sandbox if any of them needed it. */
export function combinedEngine(engines: readonly RegexEngine[]): RegexEngine | undefined {
  if (engines.length === 0) return undefined;
  return engines.includes('sandbox') ? 'sandbox' : 're2';
}
