/**
 * The one matcher behind every literal string check (contains, starts_with, ends_with,
 * contains_word and their `i` forms): normalise both sides the same way, then compare.
 * Function modules are one-line registrations over `matchText`, so the checks cannot drift apart.
 */
import { normalizeFor } from './normalize';

export type TextMode = 'substring' | 'prefix' | 'suffix' | 'word';

export interface TextMatchOptions {
  mode: TextMode;
  caseInsensitive: boolean;
}

/**
 * Word characters for `contains_word`: letters, marks, numbers, connector punctuation (`_`).
 * Marks are included so a combining accent never counts as a word boundary (Weval's class
 * `[\p{L}\p{N}_]` lacked \p{M}: defect 11 in docs/compatibility.md). Hyphens and apostrophes are boundaries,
 * as in Weval (`well` is a word of `well-known`, `It` of `It's`).
 */
const WORD_CHAR = /[\p{L}\p{M}\p{N}\p{Pc}]/u;

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && WORD_CHAR.test(ch);
}

/** Code point before index `i` (handles astral characters such as CJK extension B). */
function charBefore(text: string, i: number): string | undefined {
  if (i <= 0) return undefined;
  const last = text.charCodeAt(i - 1);
  const isLowSurrogate = last >= 0xdc00 && last <= 0xdfff;
  return isLowSurrogate && i >= 2 ? text.slice(i - 2, i) : text[i - 1];
}

function charAt(text: string, i: number): string | undefined {
  if (i >= text.length) return undefined;
  return String.fromCodePoint(text.codePointAt(i)!);
}

/**
 * `word` mode: the needle occurs with no word character immediately on either side.
 * An empty needle is vacuously present (Weval: `contains_word: ""` is true).
 */
function containsWord(haystack: string, needle: string): boolean {
  if (needle === '') return true;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    const end = at + needle.length;
    if (!isWordChar(charBefore(haystack, at)) && !isWordChar(charAt(haystack, end))) return true;
  }
  return false;
}

export function matchText(response: string, needle: string, options: TextMatchOptions): boolean {
  const haystack = normalizeFor(response, options.caseInsensitive);
  const target = normalizeFor(needle, options.caseInsensitive);
  switch (options.mode) {
    case 'substring':
      return haystack.includes(target);
    case 'prefix':
      return haystack.startsWith(target);
    case 'suffix':
      return haystack.endsWith(target);
    case 'word':
      return containsWord(haystack, target);
  }
}
