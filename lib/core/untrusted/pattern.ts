/**
 * Regexes written by developers around a runtime string (a tag name, a list of aliases, a
 * secret to redact). The lint rule refuses `new RegExp(x)` with a computed `x` outside this
 * folder, so such a regex is built here: the regex syntax comes only from template text in
 * the source code (a tagged template's strings cannot come from input), and every runtime
 * string is inserted escaped, matching itself literally.
 *
 *   const open = pattern('gi')`<\\s*${literal(tag)}\\s*>`;
 *   const any = pattern('g')`${alternatives(secrets)}`;
 *
 * Escapes are written as in a `new RegExp(\`…\`)` template (cooked: `\\s` for `\s`).
 */

const FRAGMENT = Symbol('regex fragment');

/** A piece of regex source that is safe to insert: developer-written or escaped. */
export interface Fragment {
  readonly [FRAGMENT]: string;
}

/** The characters with a meaning in a regex, escaped (`-` is left: an escaped `-` is a syntax error in `u` mode). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** `text` matched literally. */
export function literal(text: string): Fragment {
  return { [FRAGMENT]: escapeRegExp(text) };
}

/** Any one of `texts`, each matched literally, tried in the order given (none: matches nothing). */
export function alternatives(texts: readonly string[]): Fragment {
  return { [FRAGMENT]: texts.length === 0 ? '(?!)' : `(?:${texts.map(escapeRegExp).join('|')})` };
}

/** The same regex with other flags (its source is already a regex of the program). */
export function withFlags(regex: RegExp, flags: string): RegExp {
  return new RegExp(regex, flags);
}

/** A reusable piece of developer-written regex source (e.g. a character set shared by patterns). */
export function fragment(strings: TemplateStringsArray, ...parts: Fragment[]): Fragment {
  return { [FRAGMENT]: join(strings, parts) };
}

/** A RegExp from developer-written template text and safe fragments. */
export function pattern(flags = ''): (strings: TemplateStringsArray, ...parts: Fragment[]) => RegExp {
  return (strings, ...parts) => new RegExp(join(strings, parts), flags);
}

/** The source of a fragment, e.g. to nest it in a character class. */
export function sourceOf(f: Fragment): string {
  return f[FRAGMENT];
}

function join(strings: TemplateStringsArray, parts: readonly Fragment[]): string {
  let out = strings[0] ?? '';
  parts.forEach((p, i) => {
    out += p[FRAGMENT] + (strings[i + 1] ?? '');
  });
  return out;
}
