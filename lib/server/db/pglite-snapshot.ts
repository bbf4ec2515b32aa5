/**
 * The PGlite data directory right after `initdb` and every migration, as one tar dump, made once
 * per set of migrations and PGlite version and kept in node_modules/.cache/assay-pglite. A new
 * embedded database (a first `npm run dev`, an `assay run` on a new data directory, each PGlite
 * test file) starts from it: one tar extraction instead of initdb in WebAssembly (6 s on an idle
 * 2-core machine, over 20 s under load) and then every migration. The first start on a machine,
 * or after a migration is added, still pays for both once, in a worker thread that exits after.
 *
 * Named by a hash of the PGlite version and each migration's name and checksum, so a changed
 * migration makes a new one; written aside and renamed, so two processes making it at once each
 * publish a whole file.
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, createReadStream, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { extract } from 'tar-stream';
import { MIGRATIONS_DIR, migrate, readMigrations } from './migrate';

/** The dependency folder the snapshot is cached under, and PGlite's version from it. */
const NODE_MODULES = join(dirname(dirname(MIGRATIONS_DIR)), 'node_modules');

function snapshotPath(): string {
  const version = (JSON.parse(readFileSync(join(NODE_MODULES, '@electric-sql/pglite/package.json'), 'utf8')) as { version: string }).version;
  const key = createHash('sha256')
    .update(version)
    .update(readMigrations().map((m) => `${m.name}:${m.checksum}`).join('\n'))
    .digest('hex')
    .slice(0, 16);
  return join(NODE_MODULES, '.cache', 'assay-pglite', `migrated-${key}.tar`);
}

/** Makes the dump: a new in-memory database served, `migrateAt` its URL, then dumped to `path`. */
export type SnapshotMaker = (migrateAt: (url: string) => Promise<void>, path: string) => Promise<void>;

let making: Promise<string> | null = null;

/** The path of the migrated snapshot, made first when there is none for these migrations. */
export function migratedSnapshot(make: SnapshotMaker): Promise<string> {
  const path = snapshotPath();
  if (existsSync(path)) return Promise.resolve(path);
  making ??= (async () => {
    try {
      await mkdir(dirname(path), { recursive: true });
      const partial = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
      await make(async (url) => void (await migrate(url)), partial);
      await rename(partial, path);
      return path;
    } finally {
      making = null;
    }
  })();
  return making;
}

/**
 * A new data directory on disk from the snapshot: its files written by Node as they come out of
 * the tar (PGlite's `dumpDataDir` names them from the data directory's root, "/base/1/…"). It was
 * a worker opening PGlite with `loadDataDir`, which wrote the same files one by one through the
 * WebAssembly file system and started PostgreSQL only to stop it: ~2.5 s and a worker's memory
 * for a 42 MB copy. `PG_VERSION`, which says a directory holds a database (pglite.ts), is written
 * last, so a copy cut short is made again at the next start rather than opened.
 */
export async function extractSnapshot(snapshot: string, dataDir: string): Promise<void> {
  const root = resolve(dataDir);
  let version: Buffer | null = null;
  const made = new Set<string>();
  const folder = (path: string) => {
    if (!made.has(path)) mkdirSync(path, { recursive: true });
    made.add(path);
  };
  const entries = extract();
  const reading = pipeline(createReadStream(snapshot, { highWaterMark: 1 << 20 }), entries);
  reading.catch(() => undefined); // awaited below; a refused entry ends the loop first and closes the stream early
  for await (const entry of entries) {
    const path = resolve(root, `.${entry.header.name.startsWith('/') ? '' : '/'}${entry.header.name}`);
    const inside = relative(root, path);
    if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) throw new Error(`the embedded database snapshot ${snapshot} names a file outside its directory: ${entry.header.name}`);
    if (entry.header.type === 'directory') folder(path);
    if (entry.header.type !== 'file') {
      entry.resume();
      continue;
    }
    if (inside === 'PG_VERSION') {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      version = Buffer.concat(chunks);
      continue;
    }
    // written chunk by chunk, synchronously: 1,200 small files through the thread pool took
    // seconds, and a whole file held at once (the 16 MB WAL segment) raised the start's peak
    folder(dirname(path));
    const fd = openSync(path, 'w', 0o600);
    try {
      for await (const chunk of entry) writeSync(fd, chunk as Buffer);
    } finally {
      closeSync(fd);
    }
  }
  await reading;
  if (!version) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`the embedded database snapshot ${snapshot} has no PG_VERSION: remove it and start again to make it anew`);
  }
  writeFileSync(join(root, 'PG_VERSION'), version, { mode: 0o600 });
}
