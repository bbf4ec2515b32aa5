/**
 * The one registry of point functions: canonical definitions (`catalog.ts`), an explicit
 * alias table (`aliases.ts`) and generic negation (`not_<name>` = 1 − score for functions
 * marked `negatable`). Unknown names and non-negatable negations are resolution errors with
 * suggestions, so the parser reports them at load time (never a silently dropped point).
 */
import { ALIASES, HINTS, NEGATION_PREFIX, NOT_NEGATABLE_ADVICE } from './aliases';
import { CATALOG } from './catalog';
import { createRegistry, didYouMean, ownEntry } from '../registry';
import type { PointFunctionDef } from './types';

export type Resolution =
  | { ok: true; canonical: string; def: PointFunctionDef<unknown>; negated: boolean }
  | { ok: false; message: string; suggestions: string[] };

const registry = createRegistry('point function', CATALOG);
for (const [alias, canonical] of Object.entries(ALIASES)) {
  if (!registry.has(canonical)) throw new Error(`alias "${alias}" points to unknown function "${canonical}"`);
  if (registry.has(alias)) throw new Error(`alias "${alias}" shadows a canonical function`);
}

/** Canonical name for a positive (un-negated) spelling, or undefined. */
function canonicalOf(name: string): string | undefined {
  if (registry.has(name)) return name;
  return ownEntry(ALIASES, name);
}

/** Every spelling that resolves, for suggestions and docs: canonical, aliases, `not_` forms. */
export const acceptedNames: readonly string[] = (() => {
  const positive = [...registry.names, ...Object.keys(ALIASES)];
  const negative = positive.filter((name) => registry.get(canonicalOf(name)!)!.negatable).map((name) => NEGATION_PREFIX + name);
  return [...positive, ...negative].sort();
})();

function resolves(name: string): boolean {
  return acceptedNames.includes(name);
}

function unknown(written: string, name: string): Resolution {
  // A quoted `"$icontains: '(A)'"` arrives as one name (defect 1 in docs/compatibility.md): say how to fix it.
  const glued = /^\$?(\w+)\s*:\s*(.*)$/s.exec(name);
  if (glued && resolves(glued[1]!)) {
    const [, fn, argument] = glued;
    return {
      ok: false,
      message: `unknown point function "${written}": a function and its argument were written as one quoted string; write a YAML mapping without the outer quotes: \`- $${fn}: ${argument}\``,
      suggestions: [fn!],
    };
  }
  const negated = name.startsWith(NEGATION_PREFIX);
  const hinted = ownEntry(HINTS, name) ?? (negated ? ownEntry(HINTS, name.slice(NEGATION_PREFIX.length)) : undefined);
  const hint = hinted && negated && !ownEntry(HINTS, name) ? NEGATION_PREFIX + hinted : hinted;
  const suggestions = [...new Set([...(hint ? [hint] : []), ...registry.suggest(name, acceptedNames)])].slice(0, 3);
  return { ok: false, message: `unknown ${registry.kind} "${written}"${didYouMean(suggestions, (s) => `$${s}`)}`, suggestions };
}

/** Resolves a name as written (`contains`, `$icontain`, `not_match`, alias…) to its definition. */
export function resolvePointFunction(written: string): Resolution {
  const name = written.trim().replace(/^\$/, '');
  const positive = canonicalOf(name);
  if (positive) return { ok: true, canonical: positive, def: registry.get(positive)!, negated: false };

  if (name.startsWith(NEGATION_PREFIX)) {
    const base = canonicalOf(name.slice(NEGATION_PREFIX.length));
    if (base) {
      const def = registry.get(base)!;
      if (def.negatable) return { ok: true, canonical: base, def, negated: true };
      return {
        ok: false,
        message: `"${written}": ${base} cannot be negated; ${NOT_NEGATABLE_ADVICE[base] ?? 'express the condition directly'}`,
        suggestions: [base],
      };
    }
  }
  return unknown(written, name);
}

export function listPointFunctions(): PointFunctionDef<unknown>[] {
  return registry.list();
}

/** The alias table (alias → canonical), for docs and the blueprint JSON Schema. */
export function pointFunctionAliases(): Readonly<Record<string, string>> {
  return ALIASES;
}
