/**
 * A worker thread running a TypeScript module from source, as one JavaScript file bundled by
 * esbuild (the engine tsx itself uses), for the CLI, the launcher's app and the tests. The Next
 * server bundles its workers itself (`new Worker(new URL(…))` at each caller).
 *
 * Why not tsx inside the worker (lib/server/tsx-worker.ts): each worker then registered tsx's
 * loader (a thread of its own) and loaded its ~175 modules one by one through it, ~1 s of CPU
 * per worker start, and `assay run` starts three (the grading worker and two for untrusted
 * content). A bundled worker starts on ~0.3 s of CPU; a small `assay run` against the fake
 * provider took 2.7 s instead of 4.3 s (4.0 s of CPU instead of 6.8 s) on a 2-core machine.
 *
 * The bundle is kept in node_modules/.cache/assay-bundles/workers/ (bundle-cache.mjs) with the
 * list of the files it was made from (size and modification time); a process that finds every one
 * unchanged uses it as it is, else it bundles again (~0.3 s) and replaces it atomically, so
 * processes starting together never read half a file. Packages stay imports, resolved from
 * node_modules, but for the plain-JavaScript ones bundle-cache.mjs bundles in. Only modules that
 * do not read their own location (`import.meta.url`, `__dirname`) may be bundled this way (a synchronous build takes no
 * plugin to keep it, as the command's bundle does): bundled-worker.test.ts checks the three
 * worker entries.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { bundleFileIfChanged } from './bundle-cache.mjs';
import { tsxWorker } from './tsx-worker';

/** Bundles already checked by this process: the entry → the bundle's path. */
const checked = new Map<string, string>();

/** The bundle of `entry` (a file path), checked once per process. */
export function workerBundle(entry: string, tsconfig: string): string {
  let out = checked.get(entry);
  if (!out) checked.set(entry, (out = bundleFileIfChanged(entry, tsconfig).path));
  return out;
}

/**
 * The project's tsconfig.json (its `@/…` paths), found from this file's place in the repository
 * (string edits, not `new URL(…)`: Next's bundler would take any `new URL(…, import.meta.url)` for an asset).
 */
const TSCONFIG_URL = import.meta.url.replace(/lib\/server\/bundled-worker\.ts$/, 'tsconfig.json');

/**
 * A worker running `moduleUrl` (a file URL as a string) bundled. Where node_modules cannot be
 * written (an installation read-only to its user), the module runs through tsx as before, slower
 * to start but the same code.
 */
export function bundledWorker(moduleUrl: string, options: WorkerOptions, tsconfigUrl = TSCONFIG_URL): Worker {
  let bundle: string;
  try {
    bundle = workerBundle(fileURLToPath(moduleUrl), fileURLToPath(tsconfigUrl));
  } catch (e) {
    if (['EACCES', 'EROFS', 'EPERM'].includes((e as NodeJS.ErrnoException).code ?? '')) return tsxWorker(moduleUrl, options, tsconfigUrl);
    throw e;
  }
  return new Worker(pathToFileURL(bundle), options);
}
