/**
 * Literal string checks: one matcher (`text/matcher.ts`), one registration each.
 * Negations (`not_contains`…) are not defined here: the registry derives them (1 − score).
 */
import { matchText, type TextMode } from '../text/matcher';
import { defineFunction, show, stringArg, verdict } from './define';

function literalCheck(name: string, mode: TextMode, caseInsensitive: boolean, description: string, example: string) {
  return defineFunction<string>({
    name,
    description,
    negatable: true,
    args: stringArg(`${name} expects a string (quote numbers), e.g. \`$${name}: ${example}\``),
    evaluate(response, needle) {
      const found = matchText(response, needle, { mode, caseInsensitive });
      return verdict(found, `${name} ${show(needle)}: ${found ? 'yes' : 'no'}`);
    },
  });
}

export const stringFunctions = [
  literalCheck('contains', 'substring', false, 'The response contains the string (case-sensitive).', '"fiduciary duty"'),
  literalCheck('icontains', 'substring', true, 'The response contains the string, ignoring case (full Unicode case folding).', '"fiduciary duty"'),
  literalCheck('starts_with', 'prefix', false, 'The response starts with the string (case-sensitive).', '"The ruling"'),
  literalCheck('istarts_with', 'prefix', true, 'The response starts with the string, ignoring case.', '"the ruling"'),
  literalCheck('ends_with', 'suffix', false, 'The response ends with the string (case-sensitive).', '"."'),
  literalCheck('iends_with', 'suffix', true, 'The response ends with the string, ignoring case.', '"thank you."'),
  literalCheck('contains_word', 'word', false, 'The string occurs as a whole word (Unicode-aware boundaries; accents are part of words).', '"Paraná"'),
  literalCheck('icontains_word', 'word', true, 'The string occurs as a whole word, ignoring case.', '"são paulo"'),
];
