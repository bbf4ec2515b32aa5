#!/usr/bin/env -S node --max-semi-space-size=2
// The `assay` command. It runs the TypeScript sources bundled by esbuild (a dependency), kept in
// node_modules/.cache/ and made again when a source changes (lib/server/bundle-cache.mjs), so
// `npx assay` works right after `npm install` with no build step and starts without compiling:
// ~1 s the first time after a change, then as fast as plain JavaScript. Where node_modules cannot
// be written, or with ASSAY_CLI_SOURCE=1 (stack traces that name the sources' lines), it runs the
// sources through tsx: slower to start, the same code.
// --max-semi-space-size=2 (MB): V8's young generation, 16 MB a half by default, is sized when the
// process starts, so it can only be given here. A run allocates fast and keeps little, and the
// default's three 16 MB halves plus the old generation they promote into held ~100 MB more at
// the peak of the memory bench's embedded run (575–605 MB against 470–490 MB, for the same CPU:
// docs/limits.md, "Memory"). `env -S` splits the line (Linux coreutils ≥ 8.30, macOS).
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleEntriesIfChanged } from '../lib/server/bundle-cache.mjs';

// A command is a short process: V8 re-compiles a WebAssembly function with its optimising
// compiler once it has run a budget of code, in background threads. The database client's query
// planner (Prisma's query compiler, WebAssembly) reaches the default budget within a small run, and
// those compiles took ~0.25 s of a 1 s `assay run --fixtures` on two cores (bench/cli-start.bench.ts,
// measured with and without: 1.04 s against 0.80 s) for code the process then barely used. A budget
// 33× the default still optimises what a long run keeps calling (the flag is read as a module is
// instantiated, so it can be set here, before any is; a flag on the command line wins).
if (!process.execArgv.some((a) => a.startsWith('--wasm-tiering-budget'))) setFlagsFromString('--wasm-tiering-budget=60000000');

const root = fileURLToPath(new URL('..', import.meta.url));
const tsconfig = join(root, 'tsconfig.json');
const SOURCES = { 'lean-heap': 'lib/server/lean-heap.ts', main: 'lib/cli/main.ts' };

/** @returns {Promise<(name: keyof typeof SOURCES) => Promise<any>>} */
async function loader() {
  if (process.env.ASSAY_CLI_SOURCE === '1') return fromSource();
  try {
    const entries = Object.fromEntries(Object.entries(SOURCES).map(([name, file]) => [name, join(root, file)]));
    const { dir } = await bundleEntriesIfChanged('assay-cli', entries, tsconfig);
    return (name) => import(pathToFileURL(join(dir, `${name}.mjs`)).href);
  } catch (e) {
    if (!['EACCES', 'EROFS', 'EPERM'].includes(e?.code)) throw e;
    return fromSource();
  }
}

async function fromSource() {
  const { register } = await import('tsx/esm/api');
  register({ tsconfig });
  return (/** @type {keyof typeof SOURCES} */ name) => import(pathToFileURL(join(root, SOURCES[name])).href);
}

const load = await loader();
(await load('lean-heap')).leanHeap();
process.exitCode = await (await load('main')).main(process.argv.slice(2));
