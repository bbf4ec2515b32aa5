/**
 * The embedded PostgreSQL (PGlite, PostgreSQL 17 in WebAssembly) served on a local TCP
 * port, so that the same Prisma client, `pg` and migrations work with no server installed.
 * PGlite 0.4.x is pinned: 0.5.x (PostgreSQL 18) crashes Prisma 6.19's schema engine.
 * Each start has its own random password (in the URL, which the lock file shares with the CLI).
 *
 * PGlite runs in a worker thread (pglite-worker.ts): its queries run beside the process's own
 * JavaScript rather than between it. A new data directory is the migrated snapshot
 * (pglite-snapshot.ts) written out as files; without one, initdb runs in a worker of its own that
 * exits afterwards, which gives back the memory it took (a first start held ~900 MB for good when
 * initdb ran in the process; docs/limits.md has the figures).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { bundledWorker } from '../bundled-worker';
import { extractSnapshot, migratedSnapshot, type SnapshotMaker } from './pglite-snapshot';
import type { PgliteWorkerData, PgliteWorkerMessage, PgliteWorkerRequest } from './pglite-worker';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

/** A worker running pglite-worker.ts. */
function startWorker(data: PgliteWorkerData): Worker {
  const script = import.meta.url.replace(/pglite\.ts$/, 'pglite-worker.ts');
  // PGlite's own JavaScript is small and short-lived (protocol buffers pass through it): a young
  // generation of 8 MB instead of V8's default keeps its garbage from adding tens of MB
  return bundledWorker(script, { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: 8 } });
}

/** The worker's next message; its crash or exit before one is an error saying so. */
function nextMessage(worker: Worker, what: string): Promise<PgliteWorkerMessage> {
  return new Promise((resolve, reject) => {
    const done = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (m: PgliteWorkerMessage) => {
      done();
      if (m.type === 'failed') reject(Object.assign(new Error(`${what}: ${m.message}`), { stack: m.stack }));
      else resolve(m);
    };
    const onError = (e: Error) => {
      done();
      reject(new Error(`${what}: ${e.message}`, { cause: e }));
    };
    const onExit = (code: number) => {
      done();
      reject(new Error(`${what}: its worker exited (code ${code})`));
    };
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
  });
}

/** Makes the migrated snapshot in a worker of its own, which takes initdb's memory with it when it exits. */
const makeSnapshotInWorker: SnapshotMaker = async (migrateAt, path) => {
  const password = randomBytes(24).toString('base64url');
  const worker = startWorker({ mode: 'serve', dataDir: 'memory://', password, port: 0 });
  try {
    const ready = await nextMessage(worker, 'creating the embedded database');
    await migrateAt(`postgresql://postgres:${password}@127.0.0.1:${ready.type === 'ready' ? ready.port : 0}/postgres`);
    const dumped = nextMessage(worker, 'saving the migrated embedded database');
    worker.postMessage({ type: 'dump', path } satisfies PgliteWorkerRequest);
    await dumped;
  } finally {
    await worker.terminate();
  }
};

/** The migrated snapshot's path (pglite-snapshot.ts), made in a worker the first time. */
export const embeddedSnapshot = (): Promise<string> => migratedSnapshot(makeSnapshotInWorker);

/** The snapshot, or none where node_modules cannot be written: the new directory then starts from initdb and the migrations run on it, as before. */
async function snapshotIfWritable(): Promise<string | undefined> {
  try {
    return await embeddedSnapshot();
  } catch (e) {
    if (['EACCES', 'EROFS', 'EPERM'].includes((e as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw e;
  }
}

/**
 * `migrated`: a new data directory starts from the migrated snapshot (the served database and
 * the CLI's); without it, from initdb alone (Prisma's shadow database, which must start empty).
 */
export async function startPglite(opts: { dataDir: string; port?: number; migrated?: boolean }): Promise<EmbeddedDatabase> {
  const password = randomBytes(24).toString('base64url');
  const data = { dataDir: opts.dataDir, password, port: opts.port ?? 0 };
  let snapshot: string | undefined;
  if (!opts.dataDir.startsWith('memory://')) {
    mkdirSync(opts.dataDir, { recursive: true });
    if (!existsSync(join(opts.dataDir, 'PG_VERSION'))) {
      const migrated = opts.migrated ? await snapshotIfWritable() : undefined;
      if (migrated) await extractSnapshot(migrated, opts.dataDir);
      else {
        // initdb (no snapshot: Prisma's shadow database, or node_modules not writable)
        const init = startWorker({ ...data, mode: 'init' });
        await nextMessage(init, `creating the embedded database in ${opts.dataDir}`);
        await init.terminate();
      }
      // made: the serving worker opens it as it is
    }
  } else if (opts.migrated) {
    snapshot = await snapshotIfWritable();
  }
  const worker = startWorker({ ...data, mode: 'serve', ...(snapshot ? { snapshot } : {}) });
  let ready: PgliteWorkerMessage;
  try {
    ready = await nextMessage(worker, `opening the embedded database in ${opts.dataDir}`);
  } catch (e) {
    await worker.terminate();
    throw e;
  }
  const port = ready.type === 'ready' ? ready.port : 0;
  let exited = false;
  worker.once('exit', () => (exited = true));
  worker.on('error', (e) => console.error(`assay: the embedded database (${opts.dataDir}) failed:`, e));
  let stopping: Promise<void> | null = null;
  return {
    url: `postgresql://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop() {
      stopping ??= (async () => {
        if (exited) return;
        const closed = nextMessage(worker, 'closing the embedded database').catch(() => undefined);
        worker.postMessage('close');
        await closed;
        await worker.terminate();
      })();
      return stopping;
    },
  };
}
