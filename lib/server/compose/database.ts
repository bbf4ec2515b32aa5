/**
 * Part of the composition root: the database the app's request handlers, pages and jobs use
 * (one shared client per process), and the one a CLI command opens for itself (the embedded
 * PGlite when DATABASE_URL is unset, always closed after the command).
 */
import { databaseUrl, env, type Env } from '../env';
import { closeDb, createDb, sharedDb, type Db } from '../db/client';
import { openDatabase } from '../db/database';

/** Whether this server process was given a database (launch.ts always passes DATABASE_URL to next). */
export function databaseConfigured(): boolean {
  return Boolean(process.env.DATABASE_URL);
}

export function getDb(): Db {
  return sharedDb(databaseUrl());
}

export interface CommandDatabase {
  db: Db;
  /** The validated configuration the command builds the rest from (compose/run-deps.ts). */
  config: Env;
  close(): Promise<void>;
}

/** The configured database opened for one CLI command. */
export async function openCommandDatabase(): Promise<CommandDatabase> {
  const config = env();
  const database = await openDatabase(config);
  const db = createDb(database.url);
  return {
    db,
    config,
    async close() {
      await closeDb(db);
      await database.close();
    },
  };
}
