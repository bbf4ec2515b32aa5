/**
 * Regex checks. The loader (lib/core/blueprint/functions.ts) compiles every pattern with
 * `compilePattern` and reports a bad one at its position; evaluation compiles again and turns
 * a bad pattern into an `{error}` outcome (unscored, not failed) for arguments that did not
 * come through the loader. `(?i)` at the start is accepted as the `i` flag.
 */
import { compilePattern, testPattern } from '../text/regex';
import type { FnOutcome } from '../types';
import { defineFunction, show, stringArg, verdict } from './define';

/** Compiles every pattern or returns the first compilation error as the outcome. */
export function compileAll(name: string, patterns: string[], caseInsensitive: boolean) {
  const compiled = [];
  for (const pattern of patterns) {
    const result = compilePattern(pattern, caseInsensitive);
    if (!result.ok) return { error: `${name}: ${result.message}` } satisfies FnOutcome;
    compiled.push(result);
  }
  return compiled;
}

function regexCheck(name: string, caseInsensitive: boolean, description: string) {
  return defineFunction<string>({
    name,
    description,
    negatable: true,
    args: stringArg(`${name} expects a regular expression as a string, e.g. \`$${name}: "^The ruling"\``),
    evaluate(response, pattern) {
      const compiled = compileAll(name, [pattern], caseInsensitive);
      if ('error' in compiled) return compiled;
      const found = testPattern(compiled[0]!, response);
      return verdict(found, `${name} ${show(pattern)}: ${found ? 'matched' : 'no match'}`);
    },
  });
}

export const patternFunctions = [
  regexCheck('matches', false, 'The response matches the regular expression (JS syntax; a leading (?i) makes it case-insensitive).'),
  regexCheck('imatches', true, 'The response matches the regular expression, ignoring case.'),
];
