/**
 * Text normalisation shared by every string check. Weval compares raw UTF-16 and lowercases
 * with `toLowerCase()`, so `İstanbul` ≠ `istanbul`, `straße` ≠ `STRASSE`, and a decomposed
 * `é` (e + U+0301) ≠ a precomposed one (defect 11 in docs/compatibility.md). We compare NFC text and,
 * for the case-insensitive forms, a full case fold.
 */

/** Canonical composition, so precomposed and decomposed accents compare equal. */
export function nfc(text: string): string {
  return text.normalize('NFC');
}

/**
 * Full case folding (Unicode CaseFolding.txt, status C+F), built from the engine's own case
 * mappings because JS has no `casefold()`:
 * - lower → upper → lower takes the *full* mappings: ß→SS→ss, ﬁ→FI→fi, ẞ→ß→SS→ss, ŉ→ʼN→ʼn;
 * - final sigma ς folds to σ (toLowerCase is context-sensitive, folding is not);
 * - `İ` lowercases to `i` + U+0307; the combining dot is dropped so `İstanbul` matches
 *   `istanbul` (the Turkic fold), and dotless `ı` already became `i` through `I`. Conflating
 *   the Turkish i's is deliberate: a case-insensitive check should not depend on locale.
 * The result is NFC again because mappings can produce decomposed sequences (ǰ → J̌ → ǰ).
 */
export function foldCase(text: string): string {
  return nfc(nfc(text).toLowerCase().toUpperCase().toLowerCase())
    .replace(/ς/g, 'σ')
    .replace(/i\u0307/g, 'i');
}

/** The normalisation a check applies to both sides: NFC, plus folding for the `i` forms. */
export function normalizeFor(text: string, caseInsensitive: boolean): string {
  return caseInsensitive ? foldCase(text) : nfc(text);
}
