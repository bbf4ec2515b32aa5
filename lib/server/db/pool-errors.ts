import type pg from 'pg';

/**
 * An idle connection the server ends (a restart, a dropped database, a network cut) is an
 * 'error' on its pool, which node-postgres says to handle: unhandled, it ends the process. The
 * pool has already dropped it; the next query opens another.
 */
export function survivesIdleConnectionErrors(pool: pg.Pool): pg.Pool {
  pool.on('error', (e) => console.error(`assay: an idle database connection was closed by the server (${e.message}); the next query opens a new one`));
  return pool;
}
