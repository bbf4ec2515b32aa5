/**
 * Citations of one reply, pure: soev's `CitationMapping` over the JSON body of an HTTP system
 * (a dotted path walked into the body; a list on the way is read item by item, so
 * `citations.metadata.unit_id` reads every cited element's `metadata.unit_id`), or a pattern
 * over a plain reply (each match one citation, its first group the id). Patterns run in RE2
 * (linear time): the loader rejects one RE2 cannot run (`checkCitationPattern`).
 *
 * As soev's `CitationMapping.source_id`: a missing or empty field, or a regex that does not
 * match, gives no citation (never an empty id).
 */
import type { RE2JS } from 're2js';
import { compilePattern } from '../../untrusted';
import type { Citation } from '../types';
import type { CitationsConfig } from './config';

/** Null when the pattern can be used, else why not (for the loader's message). */
export function checkCitationPattern(pattern: string): string | null {
  const compiled = compilePattern(pattern, false);
  if (!compiled.ok) return compiled.message;
  if (!compiled.re2) return `the pattern needs the JavaScript regex engine (${compiled.needsJs ?? 'lookaround or backreferences'}); citation patterns run in RE2 only — write it without lookaround and backreferences`;
  return null;
}

function re2Of(pattern: string): RE2JS {
  // with its groups capturing: the first one is the id
  const compiled = compilePattern(pattern, false, '', { captures: true });
  if (!compiled.ok || !compiled.re2) throw new Error(`citation pattern ${JSON.stringify(pattern)} cannot run: ${compiled.ok ? compiled.needsJs : compiled.message}`);
  return compiled.re2;
}

/** The id in `value` by `re`: the first capture group, or the whole match without a group; null without a match. */
function idIn(value: string, re: RE2JS | null): string | null {
  if (!re) return value.trim() === '' ? null : value.trim();
  const m = re.matcher(value);
  if (!m.find()) return null;
  const id = re.groupCount() > 0 ? m.group(1) : m.group(0);
  return id && id.trim() !== '' ? id.trim() : null;
}

/** Every value at the dotted path; lists are read item by item. */
export function valuesAt(body: unknown, path: string): unknown[] {
  let current: unknown[] = [body];
  for (const key of path.split('.')) {
    const next: unknown[] = [];
    for (const value of current.flatMap((v) => (Array.isArray(v) ? v : [v]))) {
      if (value && typeof value === 'object' && !Array.isArray(value) && key in value) next.push((value as Record<string, unknown>)[key]);
    }
    current = next;
  }
  return current.flatMap((v) => (Array.isArray(v) ? v : [v]));
}

export function extractCitations(reply: { text: string; structured?: unknown }, config: CitationsConfig): Citation[] {
  const out: Citation[] = [];
  if (config.mapping) {
    if (reply.structured === undefined || reply.structured === null) return out;
    const re = config.mapping.regex ? re2Of(config.mapping.regex) : null;
    for (const value of valuesAt(reply.structured, config.mapping.path)) {
      if (typeof value !== 'string' && typeof value !== 'number') continue;
      const raw = String(value);
      const id = idIn(raw, re);
      if (id) out.push({ id, raw });
    }
    return out;
  }
  if (config.pattern) {
    const re = re2Of(config.pattern);
    const m = re.matcher(reply.text);
    while (m.find()) {
      const raw = m.group(0) ?? '';
      const id = re.groupCount() > 0 ? m.group(1) : raw;
      if (id && id.trim() !== '') out.push({ id: id.trim(), raw });
    }
  }
  return out;
}
