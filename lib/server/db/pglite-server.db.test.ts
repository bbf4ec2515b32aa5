/**
 * Named prepared statements through the embedded database's server (issue 15: the run pipeline's
 * hot statements are prepared, db/prepared.ts). Every connection shares PGlite's one session, so
 * the server scopes statement names to their connection: two connections may prepare one name
 * with different texts, and a connection's statements go when it closes.
 */
import type { Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { PgliteServer } from './pglite-server';

const onPglite = process.env.ASSAY_TEST_DB === 'pglite';

describe.runIf(onPglite)('the embedded database server keeps prepared statements per connection', () => {
  let db: PGlite;
  let server: PgliteServer;
  let url: string;
  beforeAll(async () => {
    db = await PGlite.create();
    server = new PgliteServer(db);
    url = `postgresql://postgres@127.0.0.1:${await server.listen(0)}/postgres`;
  });
  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  const statements = async () => (await db.query<{ name: string }>('SELECT name FROM pg_prepared_statements ORDER BY name')).rows.map((r) => r.name);

  it('lets two connections prepare one name with different texts, each running its own, again and again', async () => {
    const a = new pg.Client({ connectionString: url });
    const b = new pg.Client({ connectionString: url });
    await Promise.all([a.connect(), b.connect()]);
    try {
      for (let round = 0; round < 3; round++) {
        const [ra, rb] = await Promise.all([
          a.query<{ v: number }>({ name: 'same-name', text: 'SELECT $1::int + 1 AS v', values: [round] }),
          b.query<{ v: string }>({ name: 'same-name', text: "SELECT $1::text || '!' AS v", values: [`b${round}`] }),
        ]);
        expect(ra.rows[0]!.v).toBe(round + 1);
        expect(rb.rows[0]!.v).toBe(`b${round}!`);
      }
      expect(await statements()).toHaveLength(2);
      // the unnamed statement still works beside them
      expect((await a.query<{ n: number }>('SELECT $1::int AS n', [7])).rows[0]!.n).toBe(7);
    } finally {
      await a.end();
      await b.end();
    }
    // closed connections take their statements with them
    for (let i = 0; i < 50 && (await statements()).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await statements()).toEqual([]);
  });

  it('drops a connection that sends a malformed Bind, and keeps serving the others', async () => {
    const ok = new pg.Client({ connectionString: url });
    await ok.connect();
    try {
      const raw = new pg.Client({ connectionString: url });
      await raw.connect();
      const socket = (raw as unknown as { connection: { stream: Socket } }).connection.stream;
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      raw.on('error', () => undefined);
      // 'B', length 8, then a portal name with no terminating NUL
      socket.write(Buffer.from([0x42, 0, 0, 0, 8, 0x61, 0x62, 0x63, 0x64]));
      await closed;
      expect((await ok.query<{ v: number }>({ name: 'still', text: 'SELECT 1 AS v' })).rows[0]!.v).toBe(1);
    } finally {
      await ok.end();
    }
  });
});

describe.runIf(!onPglite)('the embedded database server (runs on PGlite only)', () => {
  it('is tested in the db-pglite project', () => {
    expect(process.env.ASSAY_TEST_DB).toBe('postgres');
  });
});
