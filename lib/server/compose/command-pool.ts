/**
 * The configured database opened for a CLI command that reads through node-postgres alone
 * (`assay export`): the same database openCommandDatabase opens (the embedded PGlite when
 * DATABASE_URL is unset), with a pool and no ORM client, so the command never loads the ORM's
 * runtime or its WebAssembly query planner.
 */
import pg from 'pg';
import { env, type Env } from '../env';
import { openDatabase } from '../db/database';
import { survivesIdleConnectionErrors } from '../db/pool-errors';

export interface CommandPool {
  pool: pg.Pool;
  config: Env;
  close(): Promise<void>;
}

export async function openCommandPool(): Promise<CommandPool> {
  const config = env();
  const database = await openDatabase(config);
  const pool = survivesIdleConnectionErrors(new pg.Pool({ connectionString: database.url, max: 2 }));
  return {
    pool,
    config,
    async close() {
      await pool.end();
      await database.close();
    },
  };
}
