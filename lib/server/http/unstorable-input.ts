/**
 * Request input PostgreSQL cannot take: U+0000 (refused by `text` and `jsonb`) and unpaired
 * UTF-16 surrogates (refused by `jsonb`; JSON can carry both as `\u0000` and `\uD800`). No name,
 * id, path or text that Assay stores or looks up may hold them, and passed on they came back as
 * a 500 ("invalid byte sequence for encoding UTF8") from whichever query met them first. The
 * route wrapper refuses them up front as a 400 saying where; writers still pass user text
 * through db/storable-text.ts for callers that are not routes (the CLI, jobs).
 */
import { unstorableOffset } from '@/lib/core';
import { BadRequestError } from './errors';

/** Throws a 400 naming the first field (e.g. `yaml`, `models.2`) that holds an unstorable character. */
export function refuseUnstorableInput(what: string, value: unknown): void {
  const found = firstUnstorable(value, [], 0);
  if (!found) return;
  const where = found.path.length ? `${found.path.join('.')}: ` : '';
  const code = found.text.charCodeAt(found.offset);
  const character = code === 0 ? 'a NUL character (U+0000)' : `an unpaired surrogate (U+${code.toString(16).toUpperCase()}, half of a character)`;
  throw new BadRequestError(`Invalid ${what}: ${where}contains ${character} at position ${found.offset + 1}, which cannot be stored; remove it.`, { field: found.path.join('.') });
}

function firstUnstorable(value: unknown, path: (string | number)[], depth: number): { path: (string | number)[]; text: string; offset: number } | null {
  if (typeof value === 'string') {
    const offset = unstorableOffset(value);
    return offset < 0 ? null : { path, text: value, offset };
  }
  if (value === null || typeof value !== 'object' || depth > 100) return null;
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [key, v] of entries) {
    if (typeof key === 'string' && unstorableOffset(key) >= 0) return { path: [...path, key], text: key, offset: unstorableOffset(key) };
    const hit = firstUnstorable(v, [...path, key], depth + 1);
    if (hit) return hit;
  }
  return null;
}
