/**
 * Point functions written as one string: `- $factcheck`, and the quoted shorthand
 * `- "$icontains: '(A)'"`.
 *
 * Weval turns any string starting with `$` into a function named by the whole rest, so the
 * quoted shorthand became a function literally named `icontains: '(A)'`, unknown at scoring
 * time, and the point was silently dropped (defect 1 of docs/compatibility.md: 89 points in 11 real
 * blueprints). Authors quote the whole item because the argument contains `: ` or quotes;
 * here the string is split into the name and the argument the author meant:
 *
 *   "$icontains: '(A)'"                →  icontains, "(A)"          (single-quoted: YAML rules)
 *   "$matches: \"^\\[\\\\d+\\]$\""      →  matches, "^\[\d+\]$"       (double-quoted; unknown escapes such as `\[` are kept, as a regex author means them)
 *   "$contains_all_of: [\"a\", \"b\"]"  →  contains_all_of, ["a","b"] (flow list/map: parsed as YAML)
 *   "$icontains: Peninsular Spanish"   →  icontains, "Peninsular Spanish" (plain: the text as written)
 *   "$icontains: \"label\": \"x\""       →  icontains, "\"label\": \"x\"" (the quotes do not enclose the whole rest, so it is plain text)
 */
import { parseDocument } from 'yaml';
import { BLUEPRINT_LIMITS } from './limits';
import { jsonDepthProblem } from './written-limits';

export type FnString =
  | { kind: 'function'; name: string; hasArgs: false }
  | { kind: 'function'; name: string; hasArgs: true; args: unknown }
  | { kind: 'invalid'; name: string; message: string }
  | { kind: 'text' };

/** A `$` followed by a letter starts a function call; `$5 fee` or a lone `$` is prose (Weval: "$" is text). */
const FN_STRING = /^\$([A-Za-z_][\w]*)\s*(?::\s*([\s\S]*))?$/;

export function parseFnString(text: string): FnString {
  const trimmed = text.trim();
  if (!/^\$[A-Za-z_]/.test(trimmed)) return { kind: 'text' };
  const m = FN_STRING.exec(trimmed);
  if (!m) {
    const name = /^\$([\w]*)/.exec(trimmed)![1]!;
    return { kind: 'invalid', name, message: `"${text}" starts like a point function but is neither \`$name\` nor \`$name: argument\`` };
  }
  const name = m[1]!;
  if (m[2] === undefined) return { kind: 'function', name, hasArgs: false };
  const rest = m[2].trim();
  const args = parseArgText(rest);
  if ('error' in args) return { kind: 'invalid', name, message: `the argument of "$${name}" in "${text}" cannot be read: ${args.error}` };
  return { kind: 'function', name, hasArgs: true, args: args.value };
}

function parseArgText(rest: string): { value: unknown } | { error: string } {
  if (rest === '') return { value: null };
  if (rest.startsWith('"') && closingQuote(rest, '"') === rest.length - 1) return { value: unescapeDouble(rest.slice(1, -1)) };
  if (rest.startsWith("'") && closingQuote(rest, "'") === rest.length - 1) return { value: rest.slice(1, -1).replace(/''/g, "'") };
  if (rest.startsWith('[') || rest.startsWith('{')) {
    // written inside a string, so not seen by the file's limits: bounded here (depth, aliases) before it is built
    const deep = jsonDepthProblem(rest, BLUEPRINT_LIMITS);
    if (deep) return { error: `${deep.message} (at character ${deep.offset + 1} of the argument)` };
    const doc = parseDocument(rest);
    if (doc.errors.length > 0) return { error: doc.errors[0]!.message.split('\n')[0]! };
    try {
      return { value: doc.toJS({ maxAliasCount: 100 }) };
    } catch (e) {
      // the library refuses an alias that expands too far ("Excessive alias count…")
      return { error: (e as Error).message };
    }
  }
  return { value: rest };
}

/** Index of the quote that closes the one at 0 (`\"` escapes in double quotes, `''` in single). */
function closingQuote(s: string, quote: '"' | "'"): number {
  for (let i = 1; i < s.length; i++) {
    if (quote === '"' && s[i] === '\\') {
      i++;
      continue;
    }
    if (s[i] === quote) {
      if (quote === "'" && s[i + 1] === "'") {
        i++;
        continue;
      }
      return i;
    }
  }
  return -1;
}

const ESCAPES: Readonly<Record<string, string>> = { '\\': '\\', '"': '"', '/': '/', n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0' };

/** YAML/JSON double-quoted escapes; any other `\x` is kept as written (a regex escape such as `\[` or `\d`). */
function unescapeDouble(s: string): string {
  return s.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|[\s\S])/g, (whole, esc: string) => {
    if (esc.length > 1) return String.fromCharCode(parseInt(esc.slice(1), 16));
    return ESCAPES[esc] ?? whole;
  });
}
