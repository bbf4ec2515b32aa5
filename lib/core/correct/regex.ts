/**
 * Compiling an author's pattern for `correct:` assertions. Scenario files often come from
 * Python, so a leading inline-flag group such as `(?i)` or `(?is)` is read as JS flags
 * instead of failing; anything else that does not compile is reported, never a silent fail.
 */
export type CompiledRegex = { ok: true; regex: RegExp } | { ok: false; error: string };

const PY_TO_JS_FLAG: Readonly<Record<string, string>> = { i: 'i', m: 'm', s: 's', u: 'u' };

export function compilePattern(pattern: string, flags = ''): CompiledRegex {
  let source = pattern;
  let allFlags = flags;
  const inline = /^\(\?([a-zA-Z]+)\)/.exec(pattern);
  if (inline) {
    const letters = [...(inline[1] ?? '')];
    const unknown = letters.filter((l) => !(l in PY_TO_JS_FLAG));
    if (unknown.length > 0) {
      return { ok: false, error: `invalid regex /${pattern}/: inline flag(s) ${unknown.join('')} have no JavaScript equivalent; use the \`flags\` field (i, m, s, u)` };
    }
    source = pattern.slice(inline[0].length);
    allFlags += letters.map((l) => PY_TO_JS_FLAG[l]).join('');
  }
  const unique = [...new Set(allFlags)].join('');
  try {
    return { ok: true, regex: new RegExp(source, unique) };
  } catch (e) {
    return { ok: false, error: `invalid regex /${pattern}/${flags}: ${(e as Error).message}` };
  }
}
