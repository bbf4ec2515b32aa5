/**
 * A fresh, migrated database for one database test file (`*.db.test.ts`), on whichever
 * engine the vitest project chose: `ASSAY_TEST_DB=postgres` (the real server at
 * 127.0.0.1:5432, a new database per file) or `pglite` (a new in-memory PGlite per file).
 */
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { migrate } from './migrate';
import { embeddedSnapshot } from './pglite';
import { PgliteServer } from './pglite-server';
import { createPglite } from './pglite-instance';
import { createDb, poolOf, type Db } from './client';

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
    const embedded = await startMigratedPglite();
    // the snapshot holds every migration already; this checks its journal against the files
    // (a migration edited since would throw here, as on a real database) and applies nothing
    await migrate(embedded.url);
    const db = createDb(embedded.url);
    return {
      engine,
      url: embedded.url,
      db,
      async close() {
        await db.$disconnect();
        const pool = poolOf(db); // see the server branch: Prisma disposes it only if it connected
        if (!pool.ending) await pool.end();
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
      // $disconnect disposes the pool only if Prisma itself ever connected (a file may use the
      // pool alone: poolOf, the vector store); and pg-pool's end() resolves before its clients'
      // sockets close, so DROP … FORCE could kill a closing client, whose FATAL error then has no
      // listener: wait (briefly) until the database has no sessions left before dropping it.
      const pool = poolOf(db);
      if (!pool.ending) await pool.end();
      for (let i = 0; i < 100; i++) {
        const { rows } = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        if (rows[0]!.n === 0) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** As startPglite({ dataDir: 'memory://', migrated: true }) (pglite.ts) serves a new in-memory PGlite from the migrated snapshot, but in this process. */
async function startMigratedPglite(): Promise<{ url: string; stop(): Promise<void> }> {
  const db = await createPglite('memory://', { loadDataDir: new Blob([await readFile(await embeddedSnapshot())]) });
  const password = randomBytes(24).toString('base64url');
  const server = new PgliteServer(db, { password });
  const port = await server.listen(0);
  return {
    url: `postgresql://postgres:${password}@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.close();
      await db.close();
    },
  };
}
