/**
 * The one database client module for the app, the CLI and jobs: Prisma's query compiler
 * (no native engine) over one node-postgres pool. The same pool also serves the few bulk
 * statements of the run pipeline's hot path (`poolOf`), where Prisma's per-parameter work
 * would cost more than the database does (a 640-row insert: 14 ms through Prisma, 6 ms direct).
 */
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '@/generated/prisma/client';
import { survivesIdleConnectionErrors } from './pool-errors';

export type Db = PrismaClient;

/**
 * The pool travels on the client object under a registered symbol, not in a module-level map:
 * Next's server bundle can instantiate this module more than once, and every copy must find it.
 */
const POOL = Symbol.for('assay.db.pool');
type WithPool = Db & { [POOL]?: pg.Pool };

export function createDb(connectionString: string): Db {
  const pool = survivesIdleConnectionErrors(new pg.Pool({ connectionString, max: 10 }));
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) }) as WithPool;
  Object.defineProperty(db, POOL, { value: pool, enumerable: false });
  return db;
}

/** The pool under a client made by `createDb`, for bulk statements. */
export function poolOf(db: Db): pg.Pool {
  const pool = (db as WithPool)[POOL];
  if (!pool) throw new Error('this database client was not made by createDb');
  return pool;
}

/**
 * Closes the client and its pool. Prisma ends the pool only when it opened a connection itself:
 * a command that read through the pool alone (`assay export`) kept the pool's idle connection,
 * and with it the process, for its 10 s idle timeout after the work was done.
 */
export async function closeDb(db: Db): Promise<void> {
  await db.$disconnect();
  const pool = poolOf(db);
  if (!pool.ending && !pool.ended) await pool.end();
}

const globalForDb = globalThis as unknown as { assayDb?: { url: string; db: Db } };

/** A process-wide client for `url` (kept across Next's hot reloads). */
export function sharedDb(url: string): Db {
  const cached = globalForDb.assayDb;
  if (cached && cached.url === url) return cached.db;
  const db = createDb(url);
  globalForDb.assayDb = { url, db };
  return db;
}
