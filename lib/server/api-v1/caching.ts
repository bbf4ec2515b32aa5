/**
 * HTTP caching of the public API's answers. Every answer carries an ETag (a hash of its exact
 * bytes), so a client that sends it back in `If-None-Match` gets a 304 with no body when nothing
 * changed. How long a cache may keep an answer without asking depends on what it is about:
 *  - a completed run does not change (a rescore is a new run): an hour;
 *  - a run still going, or one that may resume (budget stopped, failed): always ask again;
 *  - lists, boards and models change when a run completes or a sync lands: a minute.
 */
import { createHash } from 'node:crypto';

export type Freshness = 'completed-run' | 'live' | 'listing';

export const CACHE_CONTROL: Record<Freshness, string> = {
  'completed-run': 'public, max-age=3600',
  live: 'no-cache',
  listing: 'public, max-age=60',
};

/** A run answer's freshness from its status. */
export function runFreshness(status: string): Freshness {
  return status === 'completed' ? 'completed-run' : 'live';
}

/** A strong ETag: the same bytes, the same tag, on every app instance. */
export function etagOf(body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
}

/**
 * Whether `If-None-Match` names `etag` (RFC 9110 §13.1.2: a list of tags or `*`, compared weakly,
 * so a `W/` prefix a proxy added still matches).
 */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || bare(t) === bare(etag));
}
