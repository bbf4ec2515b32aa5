/**
 * The one Prisma client module for the app, the CLI and jobs: Prisma's query compiler
 * (no native engine) over node-postgres.
 */
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '@/generated/prisma/client';

export type Db = PrismaClient;

export function createDb(connectionString: string): Db {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, max: 10 }) });
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
