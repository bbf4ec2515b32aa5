/**
 * The one place a PGlite is constructed (the embedded database's worker, the test kit): its
 * PostgreSQL settings and, when one is needed, its extensions (`extensions: { … }` here, and
 * only here, so the served database and the tests' databases load the same ones).
 *
 * The settings bound its memory. PGlite's defaults are a server's: shared_buffers 128 MB,
 * which PostgreSQL initialises at start, so all of it is resident from the first query
 * (measured: 333 MB RSS at open with 128 MB, 229 MB with 16 MB). A local Assay database is
 * tens of MB and its files are in the OS page cache anyway, so a small buffer pool costs a
 * read from that cache now and then, not a disk read (the pipeline bench on PGlite is no slower:
 * docs/limits.md).
 */
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
// pgvector is loaded, not created: lib/server/db/vectors.ts creates the extension when a search first needs it.
import { vector } from '@electric-sql/pglite/vector';

/** `-c name=value` settings on top of PGlite's own start parameters. */
export const PGLITE_SETTINGS: Readonly<Record<string, string>> = {
  shared_buffers: '16MB',
  // per sort or hash before it spills to a temporary file; PostgreSQL's default
  work_mem: '4MB',
  // CREATE INDEX and VACUUM (migrations, autovacuum is off in single-user mode): 64 MB by default
  maintenance_work_mem: '16MB',
  temp_buffers: '4MB',
};

export function pgliteStartParams(settings: Readonly<Record<string, string>> = PGLITE_SETTINGS): string[] {
  return [...PGlite.defaultStartParams, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
}

/** `dataDir`: a directory or `memory://`; `loadDataDir`: a dump to start from (the test kit's migrated snapshot). */
export function createPglite(dataDir: string, opts: Pick<PGliteOptions, 'loadDataDir'> = {}): Promise<PGlite> {
  return PGlite.create({ dataDir, ...opts, startParams: pgliteStartParams(), extensions: { vector } });
}
