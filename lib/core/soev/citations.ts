/**
 * soev's `CitationMapping` (seed 003): the canonical source id of each element a reply cites,
 * from a dotted field path (`metadata.unit_id`) and an optional regex (its first group, or the
 * whole match without one). The elements of a soev thread reply are `reply.citations` of the
 * body the HTTP system returned (stored as the reply's `structured`, lib/server/runs/generate.ts).
 */
import type { Citation } from '../criteria/types';

export interface SoevCitationMapping {
  /** Dotted path of the field holding the id in each element, e.g. `metadata.unit_id`. */
  path: string;
  regex?: string | null;
}

/** The id of one element, or null when the field is missing or empty, or the regex does not match (soev `source_id`). */
export function sourceIdOf(element: unknown, mapping: SoevCitationMapping): string | null {
  let value: unknown = element;
  for (const key of mapping.path.split('.')) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
    value = (value as Record<string, unknown>)[key];
  }
  if (value === null || value === undefined || value === '') return null;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (!mapping.regex) return text;
  const match = new RegExp(mapping.regex, 'u').exec(text);
  if (!match) return null;
  return match[1] ?? match[0];
}

/** The cited elements of a soev thread reply body: `reply.citations` (or a top-level `citations`). */
export function citedElements(body: unknown): unknown[] {
  if (!body || typeof body !== 'object') return [];
  const reply = (body as { reply?: { citations?: unknown } }).reply;
  const list = reply && typeof reply === 'object' ? reply.citations : (body as { citations?: unknown }).citations;
  return Array.isArray(list) ? list : [];
}

/** Every element resolved through the mapping, in order, once per id; unresolved elements are dropped. */
export function citationsOf(body: unknown, mapping: SoevCitationMapping): Citation[] {
  const seen = new Set<string>();
  const out: Citation[] = [];
  for (const element of citedElements(body)) {
    const id = sourceIdOf(element, mapping);
    if (id === null || seen.has(id)) continue;
    seen.add(id);
    out.push({ id, raw: JSON.stringify(element) });
  }
  return out;
}
