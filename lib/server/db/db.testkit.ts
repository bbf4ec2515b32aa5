/**
 * A fresh, migrated database for one database test file (STYLE.md §12), on whichever
 * engine the vitest project chose: `ASSAY_TEST_DB=postgres` (the real server at
 * 127.0.0.1:5432, a new database per file) or `pglite` (a new in-memory PGlite per file).
 */
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { migrate } from './migrate';
import { startPglite } from './pglite';
import { createDb, type Db } from './client';

export type TestEngine = 'postgres' | 'pglite';

export interface TestDatabase {
  engine: TestEngine;
  url: string;
  db: Db;
  close(): Promise<void>;
}

export function testEngine(): TestEngine {
  const engine = process.env.ASSAY_TEST_DB ?? 'postgres';
  if (engine !== 'postgres' && engine !== 'pglite') throw new Error(`ASSAY_TEST_DB must be postgres or pglite, not ${engine}`);
  return engine;
}

const SERVER = process.env.ASSAY_TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export async function freshDatabase(engine: TestEngine = testEngine()): Promise<TestDatabase> {
  if (engine === 'pglite') {
    const embedded = await startPglite({ dataDir: 'memory://' });
    await migrate(embedded.url);
    const db = createDb(embedded.url);
    return {
      engine,
      url: embedded.url,
      db,
      async close() {
        await db.$disconnect();
        await embedded.stop();
      },
    };
  }
  const name = `assay_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  await migrate(url.toString());
  const db = createDb(url.toString());
  return {
    engine,
    url: url.toString(),
    db,
    async close() {
      await db.$disconnect();
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}
