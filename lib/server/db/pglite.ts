/**
 * The embedded PostgreSQL (PGlite, PostgreSQL 17 in WebAssembly) served on a local TCP
 * port, so that the same Prisma client, `pg` and migrations work with no server installed.
 * PGlite 0.4.x is pinned: 0.5.x (PostgreSQL 18) crashes Prisma 6.19's schema engine.
 * Each start has its own random password (in the URL, which the lock file shares with the CLI).
 */
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { PgliteServer } from './pglite-server';
import { mkdirSync } from 'node:fs';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export async function startPglite(opts: { dataDir: string; port?: number }): Promise<EmbeddedDatabase> {
  if (!opts.dataDir.startsWith('memory://')) mkdirSync(opts.dataDir, { recursive: true });
  // pgvector loaded (not created: lib/server/db/vectors.ts creates the extension when a search first needs it)
  const db = await PGlite.create({ dataDir: opts.dataDir, extensions: { vector } });
  const password = randomBytes(24).toString('base64url');
  const server = new PgliteServer(db, { password });
  const port = await server.listen(opts.port ?? 0);
  return {
    url: `postgresql://postgres:${password}@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.close();
      await db.close();
    },
  };
}
