/**
 * Every other spelling a blueprint may use, mapped explicitly to a canonical name.
 * Weval instead rewrote prefixes blindly (`contain*` → `contains*`, `match*` → `matches*`,
 * so `$containing` became `containsing`, found unknown only at scoring time: defect 3 in docs/compatibility.md).
 * Here a name is canonical, in this table, or `not_` + one of those; anything else is a
 * load-time error with suggestions.
 *
 * Source: the `registry` and `name_resolution` keys of the Weval conformance vectors, plus
 * the few spellings marked "Assay" that Weval rejected although they follow its own pattern.
 */
export const ALIASES: Readonly<Record<string, string>> = {
  contain: 'contains',
  icontain: 'icontains',
  match: 'matches',
  imatch: 'imatches',
  start_with: 'starts_with', // Assay (Weval: unknown)
  istart_with: 'istarts_with',
  end_with: 'ends_with', // Assay (Weval: unknown)
  iend_with: 'iends_with',
  contain_any_of: 'contains_any_of',
  icontain_any_of: 'icontains_any_of',
  contain_all_of: 'contains_all_of',
  icontain_all_of: 'icontains_all_of',
  match_all_of: 'matches_all_of',
  // Weval's registered name; `imatches_all_of` (our canonical) was unknown there.
  imatch_all_of: 'imatches_all_of',
  contain_at_least_n_of: 'contains_at_least_n_of',
  icontain_at_least_n_of: 'icontains_at_least_n_of',
  match_at_least_n_of: 'matches_at_least_n_of',
  imatch_at_least_n_of: 'imatches_at_least_n_of',
  contain_word: 'contains_word',
  icontain_word: 'icontains_word',
  expr: 'js',
  external: 'call',
};

/**
 * Words people plausibly write that are too far from a real name for edit distance to find.
 * Used only for "did you mean" suggestions, never to resolve.
 */
export const HINTS: Readonly<Record<string, string>> = {
  regex: 'matches',
  iregex: 'imatches',
  json: 'is_json',
  valid_json: 'is_json',
  javascript: 'js',
  word_count: 'word_count_between',
  containing: 'contains',
  includes: 'contains',
  matching: 'matches',
  fact_check: 'factcheck',
};

export const NEGATION_PREFIX = 'not_';

/** What to write instead of `not_<name>` for the functions whose 1 − score means nothing. */
export const NOT_NEGATABLE_ADVICE: Readonly<Record<string, string>> = {
  js: 'negate inside the code, e.g. `$js: "!(r.length > 100)"`',
  word_count_between: 'write the range you want instead',
  call: 'let the service return the inverted score',
  factcheck: 'a fact-check score cannot be inverted meaningfully',
};
