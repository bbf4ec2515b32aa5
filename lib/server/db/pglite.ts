/**
 * The embedded PostgreSQL (PGlite, PostgreSQL 17 in WebAssembly) served on a local TCP
 * port, so that the same Prisma client, `pg` and migrations work with no server installed.
 * PGlite 0.4.x is pinned: 0.5.x (PostgreSQL 18) crashes Prisma 6.19's schema engine.
 */
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdirSync } from 'node:fs';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export async function startPglite(opts: { dataDir: string; port?: number }): Promise<EmbeddedDatabase> {
  if (!opts.dataDir.startsWith('memory://')) mkdirSync(opts.dataDir, { recursive: true });
  const db = await PGlite.create(opts.dataDir);
  const server = new PGLiteSocketServer({
    db,
    host: '127.0.0.1',
    port: opts.port ?? 0,
    // the default of 1 serialises every pool connection behind one socket
    maxConnections: 50,
  });
  await server.start();
  const conn = server.getServerConn(); // "host:port"
  const port = conn.split(':').pop();
  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
