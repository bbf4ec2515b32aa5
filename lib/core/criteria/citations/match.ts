/**
 * soev's id match (soev's SourceRoles; docs/criteria.md): with `hierarchical`, an id also matches
 * the ids below it in the `/` path, in both directions: `law/1` matches `law/1/2`, and `law/1/2`
 * matches `law/1`. `law/1` does not match `law/10` (the path is compared segment by segment).
 */
import type { CitationMatch } from './config';

export function idsMatch(a: string, b: string, mode: CitationMatch = 'hierarchical'): boolean {
  if (a === b) return true;
  if (mode === 'exact') return false;
  return a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/** Whether any of `ids` matches `id`. */
export function matchesAny(id: string, ids: Iterable<string>, mode: CitationMatch = 'hierarchical'): boolean {
  for (const other of ids) if (idsMatch(id, other, mode)) return true;
  return false;
}
