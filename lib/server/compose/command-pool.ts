/**
 * The configured database opened for a CLI command that reads through node-postgres alone
 * (`assay export`): the same database openCommandDatabase opens (the embedded PGlite when
 * DATABASE_URL is unset), with a pool and no ORM client, so the command never loads the ORM's
 * runtime or its WebAssembly query planner.
 */
import pg from 'pg';
import { env, type Env } from '../env';
import { openDatabase } from '../db/database';

export interface CommandPool {
  pool: pg.Pool;
  config: Env;
  close(): Promise<void>;
}

export async function openCommandPool(): Promise<CommandPool> {
  const config = env();
  const database = await openDatabase(config);
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  // as db/client.ts: an idle connection the server ends is dropped, not the process
  pool.on('error', (e) => console.error(`assay: an idle database connection was closed by the server (${e.message}); the next query opens a new one`));
  return {
    pool,
    config,
    async close() {
      await pool.end();
      await database.close();
    },
  };
}
