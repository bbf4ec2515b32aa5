/**
 * The embedded database's worker thread (started by pglite.ts): opens PGlite in its data
 * directory and serves it on a local TCP port, or, in `init` mode, only creates the data
 * directory with PostgreSQL's initdb and exits, so that the second WebAssembly instance goes with
 * this thread instead of staying in the process (a directory made from the migrated snapshot is
 * written out as files, pglite-snapshot.ts). A serving worker of an in-memory database starts
 * from the snapshot; asked to dump, it writes its database as a tar file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { createPglite } from './pglite-instance';
import { PgliteServer } from './pglite-server';

export interface PgliteWorkerData {
  mode: 'init' | 'serve';
  dataDir: string;
  password: string;
  port: number;
  /** A dump to start an in-memory database from (the migrated snapshot, pglite-snapshot.ts). */
  snapshot?: string;
}

/** What the host asks of a serving worker: to close, or to dump the database to a file and close. */
export type PgliteWorkerRequest = 'close' | { type: 'dump'; path: string };

/** What the worker tells its host: started (with its port), closed, or why it could not start. */
export type PgliteWorkerMessage = { type: 'ready'; port: number } | { type: 'closed' } | { type: 'failed'; message: string; stack?: string };

const port = parentPort!;
const post = (m: PgliteWorkerMessage) => port.postMessage(m);

async function main({ mode, dataDir, password, port: tcpPort, snapshot }: PgliteWorkerData): Promise<void> {
  const db = await createPglite(dataDir, snapshot ? { loadDataDir: new Blob([readFileSync(snapshot)]) } : {});
  if (mode === 'init') {
    await db.close();
    post({ type: 'closed' });
    return;
  }
  const server = new PgliteServer(db, { password });
  const listening = await server.listen(tcpPort);
  port.once('message', (request: PgliteWorkerRequest) => {
    void (async () => {
      await server.close();
      if (request !== 'close') writeFileSync(request.path, Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer()));
      await db.close();
      post({ type: 'closed' });
      port.close();
    })();
  });
  post({ type: 'ready', port: listening });
}

main(workerData as PgliteWorkerData).catch((e: unknown) => {
  const err = e instanceof Error ? e : new Error(String(e));
  post({ type: 'failed', message: err.message, stack: err.stack });
});
