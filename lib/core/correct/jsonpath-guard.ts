/**
 * JSONPath filter and script expressions (`[?(…)]`, `[(…)]`) in `correct:` assertions are
 * blueprint code evaluated by jsonpath-plus's "safe" evaluator on the main thread. It allows
 * method calls and regex literals, so `[?(@.match(/(x+x+)+y/))]` backtracked for 25 s on 28
 * characters and `[?(@.repeat(1e9))]` would exhaust memory (issue 11, finding 2). Filters may
 * compare, combine and read properties; calls and regex literals are refused with a message
 * (a pattern belongs in a `jsonpath_regex` assertion, which runs on RE2).
 */

/** The path with its quoted strings blanked, so their contents never look like code. */
function withoutStrings(path: string): string {
  return path.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, (s) => `'${' '.repeat(Math.max(0, s.length - 2))}'`);
}

/** Why the path's filter expressions are refused, or null when it is fine. */
export function unsafeJsonPath(path: string): string | null {
  const code = withoutStrings(path);
  if (!/\[\??\(/.test(code)) return null;
  const call = /([\w$)\]]+)\s*\(/.exec(code.replace(/\[\??\(/g, '[ ('));
  if (call) return `filter expressions may not call functions or methods (found "${call[1]}(")`;
  if (code.includes('/')) return 'filter expressions may not use regex literals or division (found "/")';
  return null;
}
