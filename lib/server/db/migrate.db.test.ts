import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { freshDatabase, type TestDatabase } from './db.testkit';
import { migrate, readMigrations } from './migrate';

let t: TestDatabase;
beforeAll(async () => {
  t = await freshDatabase();
});
afterAll(async () => t?.close());

describe(`migrations (${process.env.ASSAY_TEST_DB})`, () => {
  it('records every migration in Prisma’s journal with Prisma’s checksum', async () => {
    const client = new pg.Client({ connectionString: t.url });
    await client.connect();
    const { rows } = await client.query('SELECT migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name');
    await client.end();
    expect(rows).toEqual(readMigrations().map((m) => ({ migration_name: m.name, checksum: m.checksum })));
  });

  it('is idempotent: a second run applies nothing', async () => {
    expect(await migrate(t.url)).toEqual([]);
  });

  it('creates the whole domain, usable through the Prisma client', async () => {
    const source = await t.db.blueprintSource.create({ data: { key: 'local:test', kind: 'local', localPath: 'x' } });
    expect(source.kind).toBe('local');
    const tables = await t.db.$queryRawUnsafe<{ table_name: string }[]>(
      "SELECT table_name::text AS table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
    );
    expect(tables.map((r) => r.table_name)).toEqual(
      expect.arrayContaining(['blueprints', 'blueprint_versions', 'runs', 'replies', 'verdicts', 'job_steps', 'users']),
    );
  });
});
