/**
 * Issue 11, Low: the embedded database listened on TCP with the password `postgres` (and PGlite
 * accepted any password at all). Now each start has a random password; the CLI still shares a
 * running server's database through the lock file, which only its user can read.
 */
import { execFile } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type OpenDatabase } from './database';
import { embeddedSnapshot, startPglite } from './pglite';
import { extractSnapshot } from './pglite-snapshot';
import { pack as tarPack } from 'tar-stream';
import { readMigrations } from './migrate';

const onPglite = process.env.ASSAY_TEST_DB === 'pglite';
const dir = mkdtempSync(join(tmpdir(), 'assay-pglite-sec-'));
const opened: OpenDatabase[] = [];
afterAll(async () => {
  for (const d of opened) await d.close();
  rmSync(dir, { recursive: true, force: true });
});

async function connect(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    const r = await client.query<{ ok: number }>('SELECT 1 AS ok');
    return `ok ${r.rows[0]!.ok}`;
  } catch (e) {
    return `refused: ${(e as { code?: string }).code ?? ''} ${(e as Error).message}`;
  } finally {
    await client.end().catch(() => {});
  }
}

describe.runIf(onPglite)('the embedded database needs this start\'s password', () => {
  it('refuses `postgres`, no password and a near miss; accepts the URL it published; a new start has a new password', async () => {
    const a = await startPglite({ dataDir: 'memory://' });
    try {
      const url = new URL(a.url);
      expect(url.password).not.toBe('postgres');
      expect(url.password.length).toBeGreaterThanOrEqual(32);
      const withPassword = (p: string) => Object.assign(new URL(a.url), { password: p }).toString();
      expect(await connect(withPassword('postgres'))).toMatch(/^refused: 28P01 password authentication failed/);
      // one character off (a password that ends in x gets a y: the same password would be let in)
      const nearMiss = `${url.password.slice(0, -1)}${url.password.endsWith('x') ? 'y' : 'x'}`;
      expect(await connect(withPassword(nearMiss))).toMatch(/^refused: 28P01/);
      expect(await connect(Object.assign(new URL(a.url), { password: '' }).toString())).toMatch(/^refused/);
      expect(await connect(a.url)).toBe('ok 1');
      const b = await startPglite({ dataDir: 'memory://' });
      expect(new URL(b.url).password).not.toBe(url.password);
      await b.stop();
    } finally {
      await a.stop();
    }
  });

  it('a new database starts from the migrated snapshot (every migration recorded before any migrate), an unmigrated one from initdb alone', async () => {
    const journal = async (url: string) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const { rows } = await client.query<{ t: string | null }>(`SELECT to_regclass('"_prisma_migrations"')::text AS t`);
        if (rows[0]!.t === null) return 'no journal';
        return (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM "_prisma_migrations" WHERE finished_at IS NOT NULL')).rows[0]!.n;
      } finally {
        await client.end();
      }
    };
    for (const dataDir of [join(dir, 'from-snapshot'), 'memory://']) {
      const d = await startPglite({ dataDir, migrated: true });
      try {
        expect(await journal(d.url), dataDir).toBe(readMigrations().length);
      } finally {
        await d.stop();
      }
    }
    // Prisma's shadow database must start empty: it applies the migrations itself
    const shadow = await startPglite({ dataDir: join(dir, 'empty') });
    try {
      expect(await journal(shadow.url)).toBe('no journal');
    } finally {
      await shadow.stop();
    }
  });

  it('writes the snapshot out as the data directory, PG_VERSION last: a copy cut short is made again, a snapshot naming a file outside it is refused', async () => {
    const snapshot = await embeddedSnapshot();
    // a start that stopped mid-copy left files but no PG_VERSION: the next start copies again and serves
    const cut = join(dir, 'cut-short');
    mkdirSync(join(cut, 'base'), { recursive: true });
    writeFileSync(join(cut, 'base', 'half-written'), 'x');
    const d = await startPglite({ dataDir: cut, migrated: true });
    try {
      expect(await connect(d.url)).toBe('ok 1');
      expect(readFileSync(join(cut, 'PG_VERSION'), 'utf8').trim()).toBe('17');
    } finally {
      await d.stop();
    }
    expect(statSync(snapshot).size).toBeGreaterThan(0);
    // a tar whose entry climbs out of the directory writes nothing there
    const hostile = join(dir, 'hostile.tar');
    const pack = tarPack();
    pack.entry({ name: '/../escaped' }, 'x');
    pack.finalize();
    await pipeline(pack, createWriteStream(hostile));
    await expect(extractSnapshot(hostile, join(dir, 'hostile'))).rejects.toThrow(/names a file outside its directory: \/\.\.\/escaped/);
    expect(existsSync(join(dir, 'escaped'))).toBe(false);
  });

  it('opens a new data directory again once its migrations ran, and its lock file names the start that serves', async () => {
    const dataDir = join(dir, 'fresh');
    const d = await openDatabase({ ASSAY_DATA_DIR: dataDir });
    opened.push(d);
    expect(d.mode).toBe('embedded');
    expect(JSON.parse(readFileSync(`${dataDir}.lock.json`, 'utf8'))).toEqual({ pid: process.pid, url: d.url });
    const client = new pg.Client({ connectionString: d.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM "_prisma_migrations" WHERE finished_at IS NOT NULL');
      expect(rows[0]!.n).toBe(readMigrations().length);
    } finally {
      await client.end();
    }
  });

  it('shares the running database with another process (the CLI) through a lock file only its user can read', async () => {
    const dataDir = join(dir, 'pglite');
    const server = await openDatabase({ ASSAY_DATA_DIR: dataDir }, { migrate: false });
    opened.push(server);
    const lock = `${dataDir}.lock.json`;
    expect(statSync(lock).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(lock, 'utf8')).url).toBe(server.url);
    // another process opens the same data dir, as `assay` does while `npm run dev` runs
    const child = `
      import { openDatabase } from './lib/server/db/database.ts';
      import pg from 'pg';
      const d = await openDatabase({ ASSAY_DATA_DIR: ${JSON.stringify(dataDir)} }, { migrate: false });
      const c = new pg.Client(d.url); await c.connect();
      const r = await c.query('SELECT 41 + 1 AS n'); await c.end();
      console.log(JSON.stringify({ mode: d.mode, n: r.rows[0].n }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', child], { cwd: process.cwd(), timeout: 60_000 });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ mode: 'shared', n: 42 });
  });
});

describe.runIf(!onPglite)('the embedded database password (runs on PGlite only)', () => {
  it('is tested in the db-pglite project', () => {
    expect(process.env.ASSAY_TEST_DB).toBe('postgres');
  });
});
