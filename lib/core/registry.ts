/**
 * A registry of named definitions (point functions, criterion kinds): a name registered twice
 * is a bug caught when the module loads, a lookup never finds a name an object inherits
 * (`constructor`), and an unknown name gets "did you mean" suggestions from the same `closest`
 * everywhere, so a typo in a blueprint is reported the same way whatever it names.
 */
import { closest } from './points/suggest';

export interface Registry<T extends { readonly name: string }> {
  /** What the entries are, in words (`point function`, `criterion kind`), for messages. */
  readonly kind: string;
  /** Every registered name, sorted. */
  readonly names: readonly string[];
  get(name: string): T | undefined;
  has(name: string): boolean;
  /** The entries in the order they were registered. */
  list(): T[];
  /** Up to three names close to `name`: the registered ones, or `candidates` when given (aliases, negated forms). */
  suggest(name: string, candidates?: Iterable<string>): string[];
}

export function createRegistry<T extends { readonly name: string }>(kind: string, entries: Iterable<T>): Registry<T> {
  const byName = new Map<string, T>();
  for (const entry of entries) {
    if (byName.has(entry.name)) throw new Error(`${kind} "${entry.name}" is registered twice`);
    byName.set(entry.name, entry);
  }
  const names = [...byName.keys()].sort();
  return {
    kind,
    names,
    get: (name) => byName.get(name),
    has: (name) => byName.has(name),
    list: () => [...byName.values()],
    suggest: (name, candidates = names) => closest(name, candidates),
  };
}

/** `; did you mean a, b?` for a message, or nothing without suggestions; `show` writes one name as the reader writes it. */
export function didYouMean(suggestions: readonly string[], show: (name: string) => string = (name) => name): string {
  return suggestions.length ? `; did you mean ${suggestions.map(show).join(', ')}?` : '';
}

/** A table's own entry for a name written in a blueprint: `constructor` or `__proto__` is no entry of a plain object. */
export function ownEntry<V>(table: Readonly<Record<string, V>>, name: string): V | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}
