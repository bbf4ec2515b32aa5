/**
 * A worker thread running a TypeScript module from source, through tsx registered inside the
 * worker (a worker's `--import tsx` is not applied on Node 20): for tsx, vitest, the CLI and the
 * launcher. The Next server bundles its workers instead (`new Worker(new URL(…))` at each caller).
 * `moduleUrl` and `tsconfigUrl` are file URLs as strings: the bundler would take any
 * `new URL(…, import.meta.url)` for an asset.
 */
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function tsxWorker(moduleUrl: string, options: WorkerOptions = {}, tsconfigUrl?: string): Worker {
  const register = tsconfigUrl ? `tsx.register({ tsconfig: ${JSON.stringify(fileURLToPath(tsconfigUrl))} })` : 'tsx.register()';
  return new Worker(`import('tsx/esm/api').then((tsx) => { ${register}; return import(${JSON.stringify(moduleUrl)}); });`, { ...options, eval: true });
}
