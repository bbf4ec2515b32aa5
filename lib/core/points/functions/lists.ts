/**
 * List checks over strings or patterns: any_of (boolean), all_of (graded: fraction found),
 * at_least_n_of (graded: min(1, found / n)). One counting helper, one line per function.
 */
import { matchText } from '../text/matcher';
import type { FnOutcome, PointContext, RegexEngine } from '../types';
import { atLeastNArg, defineFunction, graded, show, stringListArg, verdict } from './define';
import { compileAll, testAll } from './patterns';

type Item = 'literal' | 'pattern';

interface Found {
  hits: boolean[];
  regexEngine: RegexEngine | undefined;
}

/** Which of `items` occur in the response, or the error of the first pattern that cannot be run. */
function found(name: string, response: string, items: string[], item: Item, ci: boolean, ctx: PointContext): Found | FnOutcome {
  if (item === 'literal') return { hits: items.map((needle) => matchText(response, needle, { mode: 'substring', caseInsensitive: ci })), regexEngine: undefined };
  const compiled = compileAll(name, items, ci);
  if (!Array.isArray(compiled)) return compiled;
  return testAll(name, compiled, response, ctx);
}

function withEngine(outcome: FnOutcome, f: Found): FnOutcome {
  return f.regexEngine ? { ...outcome, regexEngine: f.regexEngine } : outcome;
}

function missingList(items: string[], hits: boolean[]): string {
  const missing = items.filter((_, i) => !hits[i]);
  return missing.length ? `; missing ${missing.map((m) => show(m, 40)).join(', ')}` : '';
}

const KIND_EXAMPLE: Record<Item, string> = { literal: '["fiduciary", "duty"]', pattern: '["^The ruling", "states that$"]' };

function listArg(name: string, item: Item) {
  const what = item === 'pattern' ? 'regular expressions' : 'strings';
  return stringListArg(`${name} expects a list of ${what}, e.g. \`$${name}: ${KIND_EXAMPLE[item]}\``);
}

function anyOf(name: string, item: Item, ci: boolean, description: string) {
  return defineFunction<string[]>({
    name,
    description,
    negatable: true,
    args: listArg(name, item),
    evaluate(response, items, ctx) {
      const f = found(name, response, items, item, ci, ctx);
      if (!('hits' in f)) return f;
      const which = items.filter((_, i) => f.hits[i]);
      return withEngine(verdict(which.length > 0, which.length ? `${name}: found ${which.map((w) => show(w, 40)).join(', ')}` : `${name}: none found`), f);
    },
  });
}

function allOf(name: string, item: Item, ci: boolean, description: string) {
  return defineFunction<string[]>({
    name,
    description,
    negatable: true,
    args: listArg(name, item),
    evaluate(response, items, ctx) {
      const f = found(name, response, items, item, ci, ctx);
      if (!('hits' in f)) return f;
      const count = f.hits.filter(Boolean).length;
      // An empty list is vacuously satisfied (Weval returns 1).
      const score = items.length === 0 ? 1 : count / items.length;
      return withEngine(graded(score, `${name}: ${count}/${items.length} found${missingList(items, f.hits)}`), f);
    },
  });
}

function atLeastNOf(name: string, item: Item, ci: boolean, description: string) {
  const example = item === 'literal' ? '[2, ["apples", "oranges", "pears"]]' : '[2, ["\\\\d+ apples", "\\\\d+ pears"]]';
  const message = `${name} expects [n, [strings…]] with n a whole number, e.g. \`$${name}: ${example}\``;
  return defineFunction<[number, string[]]>({
    name,
    description,
    negatable: true,
    args: atLeastNArg(message),
    evaluate(response, [n, items], ctx) {
      const f = found(name, response, items, item, ci, ctx);
      if (!('hits' in f)) return f;
      const count = f.hits.filter(Boolean).length;
      // n = 0 asks for nothing: met (Weval returns 1).
      return withEngine(graded(n === 0 ? 1 : Math.min(1, count / n), `${name}: ${count} of ${items.length} found, ${n} required${missingList(items, f.hits)}`), f);
    },
  });
}

export const listFunctions = [
  anyOf('contains_any_of', 'literal', false, 'At least one of the strings occurs (case-sensitive).'),
  anyOf('icontains_any_of', 'literal', true, 'At least one of the strings occurs, ignoring case.'),
  allOf('contains_all_of', 'literal', false, 'Graded: the fraction of the strings that occur (case-sensitive).'),
  allOf('icontains_all_of', 'literal', true, 'Graded: the fraction of the strings that occur, ignoring case.'),
  allOf('matches_all_of', 'pattern', false, 'Graded: the fraction of the regular expressions that match.'),
  allOf('imatches_all_of', 'pattern', true, 'Graded: the fraction of the regular expressions that match, ignoring case.'),
  atLeastNOf('contains_at_least_n_of', 'literal', false, 'Graded: min(1, found / n) over the strings (case-sensitive).'),
  atLeastNOf('icontains_at_least_n_of', 'literal', true, 'Graded: min(1, found / n) over the strings, ignoring case.'),
  atLeastNOf('matches_at_least_n_of', 'pattern', false, 'Graded: min(1, matching / n) over the regular expressions.'),
  atLeastNOf('imatches_at_least_n_of', 'pattern', true, 'Graded: min(1, matching / n) over the regular expressions, ignoring case.'),
];
