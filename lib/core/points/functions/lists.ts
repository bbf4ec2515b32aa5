/**
 * List checks over strings or patterns: any_of (boolean), all_of (graded: fraction found),
 * at_least_n_of (graded: min(1, found / n)). One counting helper, one line per function.
 */
import { matchText } from '../text/matcher';
import { testPattern } from '../text/regex';
import type { FnOutcome } from '../types';
import { atLeastNArg, defineFunction, graded, show, stringListArg, verdict } from './define';
import { compileAll } from './patterns';

type Item = 'literal' | 'pattern';

/** Which of `items` occur in the response, or the compile error of the first bad pattern. */
function found(name: string, response: string, items: string[], item: Item, ci: boolean): boolean[] | FnOutcome {
  if (item === 'literal') return items.map((needle) => matchText(response, needle, { mode: 'substring', caseInsensitive: ci }));
  const compiled = compileAll(name, items, ci);
  if ('error' in compiled) return compiled;
  return compiled.map((regex) => testPattern(regex, response));
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
    evaluate(response, items) {
      const hits = found(name, response, items, item, ci);
      if (!Array.isArray(hits)) return hits;
      const which = items.filter((_, i) => hits[i]);
      return verdict(which.length > 0, which.length ? `${name}: found ${which.map((w) => show(w, 40)).join(', ')}` : `${name}: none found`);
    },
  });
}

function allOf(name: string, item: Item, ci: boolean, description: string) {
  return defineFunction<string[]>({
    name,
    description,
    negatable: true,
    args: listArg(name, item),
    evaluate(response, items) {
      const hits = found(name, response, items, item, ci);
      if (!Array.isArray(hits)) return hits;
      const count = hits.filter(Boolean).length;
      // An empty list is vacuously satisfied (Weval returns 1).
      const score = items.length === 0 ? 1 : count / items.length;
      return graded(score, `${name}: ${count}/${items.length} found${missingList(items, hits)}`);
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
    evaluate(response, [n, items]) {
      const hits = found(name, response, items, item, ci);
      if (!Array.isArray(hits)) return hits;
      const count = hits.filter(Boolean).length;
      // n = 0 asks for nothing: met (Weval returns 1).
      return graded(n === 0 ? 1 : Math.min(1, count / n), `${name}: ${count} of ${items.length} found, ${n} required${missingList(items, hits)}`);
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
