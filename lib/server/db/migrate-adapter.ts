/**
 * The driver adapter that Prisma's wasm schema engine (engine: 'js') uses for the CLI
 * (`prisma migrate dev`, `db push`, `migrate diff`). Prisma 7 and the native engine need the
 * internet; Prisma 6.19.3 with this adapter works offline. It works around three defects
 * of @prisma/adapter-pg 6.19.3 under Migrate (pinned versions: these touch internals):
 *  1. introspection returns `name` (OID 19) and `"char"` (OID 18) columns, which the
 *     adapter cannot deserialise: they are reported as text (OID 25);
 *  2. its shadow connection spreads `{...config, database}` but `connectionString` wins
 *     over `database` in pg, so the "shadow" was the main database: we build discrete fields;
 *  3. it drops the shadow database before closing its own pool: we close first.
 * On PGlite every database name is the same database, so the shadow is a throwaway
 * in-memory PGlite served on its own port.
 */
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';

const TEXT_OID = 25;
let patched = false;

function patchNameColumns(): void {
  if (patched) return;
  patched = true;
  const proto = (pg as unknown as { Result: { prototype: { addFields(fields: { dataTypeID: number }[]): void } } }).Result
    .prototype;
  const addFields = proto.addFields;
  proto.addFields = function (fields) {
    for (const f of fields) if (f.dataTypeID === 19 || f.dataTypeID === 18) f.dataTypeID = TEXT_OID;
    return addFields.call(this, fields);
  };
}

function discreteConfig(connectionString: string, database?: string): pg.PoolConfig {
  const url = new URL(connectionString);
  return {
    host: url.hostname,
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username) || undefined,
    password: decodeURIComponent(url.password) || undefined,
    database: database ?? url.pathname.replace(/^\//, ''),
    allowExitOnIdle: true,
  };
}

async function isPglite(connectionString: string): Promise<boolean> {
  const client = new pg.Client(discreteConfig(connectionString));
  await client.connect();
  try {
    const { rows } = await client.query<{ version: string }>('select version()');
    return rows[0]?.version.includes('wasm32') ?? false;
  } finally {
    await client.end();
  }
}

export async function createMigrateAdapter(connectionString: string): Promise<SqlMigrationAwareDriverAdapterFactory> {
  patchNameColumns();
  const main = new PrismaPg(discreteConfig(connectionString));
  const pglite = await isPglite(connectionString);

  async function connectToShadowDb(): Promise<SqlDriverAdapter> {
    if (pglite) {
      const { startPglite } = await import('./pglite');
      const shadow = await startPglite({ dataDir: 'memory://' });
      const adapter = await new PrismaPg(discreteConfig(shadow.url)).connect();
      return wrapDispose(adapter, async () => shadow.stop());
    }
    const admin = new pg.Client(discreteConfig(connectionString));
    await admin.connect();
    const database = `prisma_shadow_${crypto.randomUUID().replaceAll('-', '')}`;
    await admin.query(`CREATE DATABASE "${database}"`);
    const adapter = await new PrismaPg(discreteConfig(connectionString, database)).connect();
    return wrapDispose(adapter, async () => {
      await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await admin.end();
    });
  }

  return {
    provider: main.provider,
    adapterName: main.adapterName,
    connect: () => main.connect(),
    connectToShadowDb,
  };
}

/** Closes the adapter's own pool before the clean-up that drops its database (defect 3). */
function wrapDispose(adapter: SqlDriverAdapter, afterClose: () => Promise<void>): SqlDriverAdapter {
  const dispose = adapter.dispose.bind(adapter);
  adapter.dispose = async () => {
    await dispose();
    await afterClose();
  };
  return adapter;
}
