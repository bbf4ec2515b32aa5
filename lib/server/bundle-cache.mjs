// Bundles of the project's TypeScript, made by esbuild and kept in node_modules/.cache/, for the
// processes that run outside Next: the `assay` command (bin/assay.mjs) and the worker threads it
// and the tests start (bundled-worker.ts). Plain JavaScript because the command's launcher reads
// it before any TypeScript can be loaded.
//
// A bundle is kept with the list of the files it was made from (size and modification time). A
// process that finds every one unchanged uses it as it is; else it bundles again and swaps the new
// bundle in atomically (a file renamed over the old one, or a new directory the manifest then
// names), so processes starting together never read half a bundle.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * esbuild's version, which a kept bundle must have been made with. esbuild itself is loaded only
 * to bundle: a process whose bundle is fresh (every `assay` command but the first after a change)
 * never loads it.
 */
const esbuildVersion = /** @type {{ version: string }} */ (createRequire(import.meta.url)('esbuild/package.json')).version;

/** Bundle directories of the command older than this are removed when a new one is made (a process may still load chunks of the one it started on). */
const OLD_BUNDLE_MS = 24 * 60 * 60 * 1000;

/** @param {string} root the repository root (where tsconfig.json is) */
export function bundleCacheDir(root) {
  return join(root, 'node_modules', '.cache', 'assay-bundles');
}

/**
 * @param {string} manifestPath
 * @returns {{ esbuild: string, maker: string, out: string, inputs: Array<[string, number, number]> } | null} the manifest when every input is unchanged
 */
function freshManifest(manifestPath) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    if (manifest.esbuild !== esbuildVersion || manifest.maker !== MAKER) return null;
    for (const [path, size, mtimeMs] of manifest.inputs) {
      const s = statSync(path);
      if (s.size !== size || s.mtimeMs !== mtimeMs) return null;
    }
    statSync(manifest.out);
  } catch {
    return null;
  }
  return manifest;
}

/** @param {string} root the build's working directory @param {Record<string, unknown>} inputs esbuild's metafile inputs (paths relative to it) */
function inputList(root, inputs) {
  // a plugin's modules (`require-commonjs:pg`) are made from no file
  return Object.keys(inputs).filter((p) => !p.startsWith('require-commonjs:')).map((p) => {
    const path = join(root, p);
    const s = statSync(path);
    return /** @type {[string, number, number]} */ ([path, s.size, s.mtimeMs]);
  });
}

/** @param {string} path @param {string} text written beside, then renamed over `path` */
function writeAtomically(path, text) {
  const tmp = `${path}.${process.pid}-${Date.now()}`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/**
 * Packages bundled into the command's and the worker threads' files, not imported from
 * node_modules at run time: plain JavaScript that never looks for files beside itself. Loaded as
 * hundreds of small modules (zod alone is 99 files, yaml 73), resolving and linking them was most
 * of `assay validate`'s start-up. Every other package (the Prisma client, PGlite and QuickJS with their WebAssembly
 * files, the provider SDKs, esbuild) stays an import.
 */
const BUNDLED_PACKAGES = new Set(['zod', 'yaml', 'pure-rand', 'jstat', 'json-p3', 're2js', 'safe-stable-stringify', '@noble/hashes', 'p-limit', 'cli-progress', 'diff']);

/**
 * esbuild's options for what stays an import: every package the project depends on but
 * BUNDLED_PACKAGES (a name in `external` covers its subpaths too). Read from package.json, since
 * `buildSync` takes no plugins; the bundled packages' own dependencies (yocto-queue under p-limit)
 * are bundled with them. A folder without a package.json keeps every package an import.
 * @param {string} root
 * @returns {{ external: string[] } | { packages: 'external' }}
 */
function externalPackages(root) {
  let pkg;
  try {
    pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  } catch (e) {
    if (/** @type {NodeJS.ErrnoException} */ (e).code === 'ENOENT') return { packages: 'external' };
    throw e;
  }
  return { external: Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((name) => !BUNDLED_PACKAGES.has(name)) };
}

/** A bundled CommonJS package's require() of a Node module: esbuild's ESM output has no `require`. */
const REQUIRE_BANNER = { js: "import { createRequire as __assayCreateRequire } from 'node:module'; const require = __assayCreateRequire(import.meta.url);" };

/** The settings both kinds of bundle are made with. */
const COMMON = /** @type {const} */ ({ bundle: true, platform: 'node', format: 'esm', target: 'node20', banner: REQUIRE_BANNER, logLevel: 'silent' });

/**
 * The settings, hashed into each manifest: a bundle made with other settings (what is bundled,
 * what stays an import) is made again, though none of its sources changed.
 */
const MAKER = createHash('sha256')
  .update(JSON.stringify({ COMMON, bundled: [...BUNDLED_PACKAGES], split: 'chunks/[name]-[hash]', commonJs: 'required' }))
  .digest('hex')
  .slice(0, 12);

/**
 * One module bundled into one file (a worker thread's entry): packages other than
 * BUNDLED_PACKAGES stay imports, resolved from node_modules. Only modules that do not read their
 * own location (`import.meta.url`) may be bundled this way (bundled-worker.test.ts checks the worker entries).
 * @param {string} entry a .ts file
 * @param {string} tsconfig the project's tsconfig.json
 * @returns {{ path: string, built: boolean }}
 */
export function bundleFileIfChanged(entry, tsconfig) {
  const root = dirname(tsconfig);
  const dir = join(bundleCacheDir(root), 'workers');
  const name = `${basename(entry).replace(/\.ts$/, '')}-${createHash('sha256').update(entry).digest('hex').slice(0, 12)}`;
  const out = join(dir, `${name}.mjs`);
  const manifestPath = join(dir, `${name}.json`);
  if (freshManifest(manifestPath)) return { path: out, built: false };
  mkdirSync(dir, { recursive: true });
  const { buildSync } = createRequire(import.meta.url)('esbuild');
  const result = buildSync({ ...COMMON, entryPoints: [entry], absWorkingDir: root, tsconfig, metafile: true, write: false, ...externalPackages(root) });
  writeAtomically(out, result.outputFiles[0].contents);
  writeAtomically(manifestPath, JSON.stringify({ esbuild: esbuildVersion, maker: MAKER, out, inputs: inputList(root, result.metafile.inputs) }));
  return { path: out, built: true };
}

/**
 * Each module's `import.meta.url` is its source file's URL, as when it runs from source: the
 * modules that find files beside them (the Prisma client, the worker pools, the demo seeds) find
 * them where they are, not beside the bundle.
 * @type {import('esbuild').Plugin}
 */
const sourceLocation = {
  name: 'source-location',
  setup(b) {
    b.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const contents = text.includes('import.meta.url') ? text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)) : text;
      return { contents, loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
    });
  },
};

/**
 * @param {string} file a package's file, as `require` resolves it
 * @returns {boolean} whether Node loads it as CommonJS (.cjs, or .js in a package not of "type": "module")
 */
function isCommonJsFile(file) {
  if (file.endsWith('.cjs')) return true;
  if (!file.endsWith('.js')) return false;
  return packageOf(file)?.json.type !== 'module';
}

/** @param {string} file @returns {{ dir: string, json: any } | null} the nearest package.json above `file` and its folder */
function packageOf(file) {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      return { dir, json: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) };
    } catch (e) {
      if (/** @type {NodeJS.ErrnoException} */ (e).code !== 'ENOENT') throw e;
    }
  }
  return null;
}

/**
 * Whether an external import of `specifier` from `resolveDir` can be a `require()` of the same
 * file: what `require` finds is CommonJS, and the package's `exports` (if any) send Node's
 * `import` to that same file, not to an ES module build of its own.
 * @param {string} specifier @param {string} resolveDir
 */
export function onlyCommonJs(specifier, resolveDir) {
  let file;
  try {
    file = createRequire(join(resolveDir, 'index.js')).resolve(specifier);
  } catch {
    return false;
  }
  if (!isCommonJsFile(file)) return false;
  const pkg = packageOf(file);
  if (!pkg || pkg.json.exports === undefined) return true; // no exports: `import` finds `main`, as `require` does
  const name = specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
  const subpath = `.${specifier.slice(name.length)}`;
  const imported = exportsTarget(pkg.json.exports, subpath, ['node', 'import', 'node-addons', 'default']);
  const required = exportsTarget(pkg.json.exports, subpath, ['node', 'require', 'node-addons', 'default']);
  return imported !== null && imported === required;
}

/**
 * The file a package's `exports` map `subpath` to under Node's `conditions` (conditions are
 * tried in the map's own order, as Node does); null for what this reading does not cover
 * (patterns with `*`, arrays), which then stays an import.
 * @param {unknown} exports @param {string} subpath @param {string[]} conditions
 * @returns {string | null}
 */
export function exportsTarget(exports, subpath, conditions) {
  const isSubpathMap = typeof exports === 'object' && exports !== null && !Array.isArray(exports) && Object.keys(exports).some((k) => k.startsWith('.'));
  let target = isSubpathMap ? /** @type {Record<string, unknown>} */ (exports)[subpath] : subpath === '.' ? exports : undefined;
  while (target !== undefined) {
    if (typeof target === 'string') return target;
    if (typeof target !== 'object' || target === null || Array.isArray(target)) return null;
    const entry = Object.entries(target).find(([condition]) => conditions.includes(condition));
    target = entry?.[1];
  }
  return null;
}

/**
 * An `import` of a CommonJS package from ES module code makes Node scan the package's whole
 * source for the names it exports (cjs-module-lexer) and wrap it as a module; a `require()` of it
 * does neither. For the Prisma client's runtime (one large CommonJS file) that was ~75 ms of every
 * `assay` command that opens the database (bench/cli-start.bench.ts: `assay run --fixtures` 0.78 s
 * against 0.70 s). Such imports become `require()`s of the same file (esbuild's interop gives the
 * importing code the same names); packages that ship an ES module build stay imports.
 * @type {import('esbuild').Plugin}
 */
const requireCommonJs = {
  name: 'require-commonjs',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.namespace === 'require-commonjs') return { path: args.path, external: true };
      if (args.kind !== 'import-statement' || args.path.startsWith('node:') || isBundled(args.path) || !onlyCommonJs(args.path, args.resolveDir)) return undefined;
      return { path: args.path, namespace: 'require-commonjs' };
    });
    b.onLoad({ filter: /.*/, namespace: 'require-commonjs' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

/** @param {string} specifier */
function isBundled(specifier) {
  const parts = specifier.split('/');
  return BUNDLED_PACKAGES.has(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
}

/**
 * Entry points bundled together, split at every dynamic `import()` so a module (and the packages
 * it imports) loads only when the code that imports it runs: `assay validate` loads no database
 * client. Each build goes to a new directory, which the manifest then names.
 * @param {string} name the bundle's name in the cache
 * @param {Record<string, string>} entries output name → .ts file
 * @param {string} tsconfig the project's tsconfig.json
 * @returns {Promise<{ dir: string, built: boolean }>} the directory holding `<output name>.mjs` for each entry
 */
export async function bundleEntriesIfChanged(name, entries, tsconfig) {
  const root = dirname(tsconfig);
  const cache = bundleCacheDir(root);
  const manifestPath = join(cache, `${name}.json`);
  const fresh = freshManifest(manifestPath);
  if (fresh) return { dir: fresh.out, built: false };
  mkdirSync(cache, { recursive: true });
  const { build } = await import('esbuild');
  const result = await build({
    ...COMMON,
    entryPoints: entries,
    absWorkingDir: root,
    splitting: true,
    tsconfig,
    metafile: true,
    write: false,
    outdir: join(cache, name),
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    ...externalPackages(root),
    plugins: [sourceLocation, requireCommonJs],
  });
  const inputs = inputList(root, result.metafile.inputs);
  const dir = join(cache, `${name}-${createHash('sha256').update(JSON.stringify(inputs)).digest('hex').slice(0, 12)}-${process.pid}`);
  const staging = `${dir}.staging`;
  for (const file of result.outputFiles) {
    const path = join(staging, file.path.slice(join(cache, name).length + 1));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.contents);
  }
  renameSync(staging, dir);
  writeAtomically(manifestPath, JSON.stringify({ esbuild: esbuildVersion, maker: MAKER, out: dir, inputs }));
  for (const other of readdirSync(cache)) {
    const path = join(cache, other);
    if (other.startsWith(`${name}-`) && path !== dir && Date.now() - statSync(path).mtimeMs > OLD_BUNDLE_MS) rmSync(path, { recursive: true, force: true });
  }
  return { dir, built: true };
}
