/**
 * Which database a process uses: `DATABASE_URL` when set, otherwise the embedded PGlite in
 * `ASSAY_DATA_DIR`. PGlite's files can be opened by one process only, so the process that
 * opens them publishes its socket URL in a lock file; another process (the CLI while the dev
 * server runs) connects to that socket instead of opening the files a second time. The URL
 * carries the random password of that start, so the lock file is private to its user (0600).
 */
import { chmodSync, readFileSync, writeFileSync, rmSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Env } from '../env';
import { startPglite } from './pglite';
import { migrate } from './migrate';

export interface OpenDatabase {
  url: string;
  /** `server` (DATABASE_URL), `embedded` (we opened PGlite) or `shared` (another process's PGlite). */
  mode: 'server' | 'embedded' | 'shared';
  close(): Promise<void>;
}

function lockPath(dataDir: string): string {
  return `${resolve(dataDir)}.lock.json`;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function openDatabase(env: Pick<Env, 'DATABASE_URL' | 'ASSAY_DATA_DIR'>, opts: { migrate?: boolean } = {}): Promise<OpenDatabase> {
  let db: OpenDatabase;
  if (env.DATABASE_URL) {
    db = { url: env.DATABASE_URL, mode: 'server', close: async () => {} };
  } else if (env.ASSAY_DATA_DIR.startsWith('memory://')) {
    const embedded = await startPglite({ dataDir: env.ASSAY_DATA_DIR, migrated: true });
    db = { url: embedded.url, mode: 'embedded', close: () => embedded.stop() };
  } else {
    const lock = lockPath(env.ASSAY_DATA_DIR);
    const holder = readLock(lock);
    if (holder && holder.pid !== process.pid && alive(holder.pid)) {
      db = { url: holder.url, mode: 'shared', close: async () => {} };
    } else {
      mkdirSync(dirname(lock), { recursive: true });
      const embedded = await startPglite({ dataDir: env.ASSAY_DATA_DIR, migrated: true });
      // the URL holds this start's password: readable by this user only
      writeFileSync(lock, JSON.stringify({ pid: process.pid, url: embedded.url }), { mode: 0o600 });
      chmodSync(lock, 0o600);
      db = {
        url: embedded.url,
        mode: 'embedded',
        async close() {
          rmSync(lock, { force: true });
          await embedded.stop();
        },
      };
    }
  }
  if (opts.migrate === false) return db;
  const applied = await migrate(db.url);
  // PostgreSQL in WebAssembly keeps every page its memory grew to (WebAssembly memory never
  // shrinks): the migrations of a new data directory grew it by ~150 MB the server would then hold
  // for as long as it runs. Opened again (under a second), it starts from what serving needs.
  if (applied.length > 0 && db.mode === 'embedded' && !env.ASSAY_DATA_DIR.startsWith('memory://')) {
    await db.close();
    return openDatabase(env, { migrate: false });
  }
  return db;
}

function readLock(path: string): { pid: number; url: string } | null {
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown; url?: unknown };
    return typeof v.pid === 'number' && typeof v.url === 'string' ? { pid: v.pid, url: v.url } : null;
  } catch {
    return null;
  }
}
