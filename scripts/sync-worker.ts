/**
 * The launcher's sync of the local blueprints, in a worker thread of its own (scripts/launch.ts):
 * the sync loads the database client, the blueprint loader and the use cases, ~50 MB that the
 * launcher, which then only serves the embedded database for as long as the app runs, would
 * otherwise keep. The worker ends when the sync does, and its heap goes with it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createDb } from '../lib/server/db/client';
import { localFolderReader } from '../lib/server/blueprints/local-folder-reader';
import { syncSource } from '../lib/server/blueprints/sync-source';

export interface SyncWorkerData {
  url: string;
  dir: string;
}

/** What the worker posts: the sync's counts and error lines, or why it failed. */
export type SyncWorkerMessage =
  | { type: 'synced'; added: number; changed: number; unchanged: number; removed: number; invalid: number; errors: string[] }
  | { type: 'failed'; message: string; stack?: string };

async function main({ url, dir }: SyncWorkerData): Promise<SyncWorkerMessage> {
  const db = createDb(url);
  try {
    const s = await syncSource({ db }, localFolderReader(dir), { trigger: 'start' });
    return { type: 'synced', added: s.added, changed: s.changed, unchanged: s.unchanged, removed: s.removed, invalid: s.invalid, errors: s.errors };
  } finally {
    await db.$disconnect();
  }
}

main(workerData as SyncWorkerData).then(
  (m) => parentPort!.postMessage(m),
  (e: unknown) => {
    const err = e instanceof Error ? e : new Error(String(e));
    parentPort!.postMessage({ type: 'failed', message: err.message, stack: err.stack } satisfies SyncWorkerMessage);
  },
);
