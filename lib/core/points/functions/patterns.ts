/**
 * Regex checks. The loader (lib/core/blueprint/functions.ts) checks every pattern with
 * `checkPattern` and reports a bad one at its position; evaluation compiles it and turns
 * a bad pattern into an `{error}` outcome (unscored, not failed) for arguments that did not
 * come through the loader. `(?i)` at the start is accepted as the `i` flag. Matching runs on
 * RE2 (linear time), or in the sandbox for lookaround and backreferences (lib/core/untrusted/regex.ts).
 */
import { combinedEngine, compilePattern, testPattern, type CompiledPattern } from '../../untrusted';
import type { FnOutcome, PointContext, RegexEngine } from '../types';
import { defineFunction, show, stringArg, verdict } from './define';

/** Compiles every pattern or returns the first compilation error as the outcome. */
export function compileAll(name: string, patterns: string[], caseInsensitive: boolean): CompiledPattern[] | FnOutcome {
  const compiled: CompiledPattern[] = [];
  for (const pattern of patterns) {
    const result = compilePattern(pattern, caseInsensitive);
    if (!result.ok) return { error: `${name}: ${result.message}` };
    compiled.push(result);
  }
  return compiled;
}

/** Which patterns match, and the engine that decided; or the first pattern that could not be run. */
export function testAll(name: string, compiled: CompiledPattern[], response: string, ctx: PointContext): { hits: boolean[]; regexEngine: RegexEngine | undefined } | FnOutcome {
  const hits: boolean[] = [];
  const engines: RegexEngine[] = [];
  for (const c of compiled) {
    const r = testPattern(c, response, ctx.sandbox);
    if (!r.ok) return { error: `${name}: ${r.message}`, ...(c.re2 ? {} : { regexEngine: 'sandbox' as const }) };
    hits.push(r.matched);
    engines.push(r.engine);
  }
  return { hits, regexEngine: combinedEngine(engines) };
}

function regexCheck(name: string, caseInsensitive: boolean, description: string) {
  return defineFunction<string>({
    name,
    description,
    negatable: true,
    args: stringArg(`${name} expects a regular expression as a string, e.g. \`$${name}: "^The ruling"\``),
    evaluate(response, pattern, ctx) {
      const compiled = compileAll(name, [pattern], caseInsensitive);
      if (!Array.isArray(compiled)) return compiled;
      const tested = testAll(name, compiled, response, ctx);
      if (!('hits' in tested)) return tested;
      const found = tested.hits[0]!;
      return { ...verdict(found, `${name} ${show(pattern)}: ${found ? 'matched' : 'no match'}`), ...(tested.regexEngine ? { regexEngine: tested.regexEngine } : {}) };
    },
  });
}

export const patternFunctions = [
  regexCheck('matches', false, 'The response matches the regular expression (JS syntax; a leading (?i) makes it case-insensitive).'),
  regexCheck('imatches', true, 'The response matches the regular expression, ignoring case.'),
];
