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
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
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
