/**
 * Named statements for the run pipeline's hot path (the call ledger, replies, verdicts, heatmap
 * cells). An unnamed statement is parsed, analysed and planned by PostgreSQL on every execution;
 * a named one once per connection. Those statements are long CTEs run a few times per provider
 * call, and their parsing and planning was a third of the database's CPU in a run: 9.4 → 6.2 s
 * of PostgreSQL CPU for the 4,000 calls of bench/pipeline.bench.ts.
 *
 * A statement's text must not depend on its batch's size (a column per array, `unnest`), or each
 * size would be a statement of its own. The name carries a hash of the text: a text changed while
 * a pool lives on (Next's hot reload) gets a new name instead of pg's "Prepared statements must
 * be unique". PGlite has one session for all connections; its server scopes the names to each
 * connection (pglite-server.ts).
 */
import { createHash } from 'node:crypto';
import type { QueryConfig } from 'pg';

export function preparedStatement(name: string, text: string): (values: unknown[]) => QueryConfig {
  const named = `assay-${name}-${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
  return (values) => ({ name: named, text, values });
}
