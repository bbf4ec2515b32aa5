import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { bundleEntriesIfChanged, bundleFileIfChanged } from './bundle-cache.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ENTRIES = ['lib/server/runs/grading/grading-worker.ts', 'lib/server/untrusted/untrusted-worker.ts', 'lib/server/db/pglite-worker.ts'];

describe('bundled workers', () => {
  it('bundles each worker entry from modules that do not read their own location', () => {
    for (const entry of ENTRIES) {
      const { path } = bundleFileIfChanged(join(root, entry), join(root, 'tsconfig.json'));
      const manifest = JSON.parse(readFileSync(path.replace(/\.mjs$/, '.json'), 'utf8')) as { inputs: [string, number, number][] };
      expect(manifest.inputs.length, entry).toBeGreaterThan(0);
      // a bundled module's import.meta.url and __dirname name the bundle, not the module
      const readers = manifest.inputs.map(([p]) => p).filter((p) => /import\.meta\.url|__dirname|__filename/.test(readFileSync(p, 'utf8')));
      expect(readers, entry).toEqual([]);
    }
  });

  it('uses the bundle while its files are unchanged, bundles again when one changes, and the worker runs it', async () => {
    const top = mkdtempSync(join(tmpdir(), 'assay-bundle-'));
    // a project at another depth than this process's working directory: the bundle's list of
    // inputs must name them from the project, whatever directory the process runs in
    const dir = join(top, 'one', 'two', 'three');
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { paths: { '@/*': ['./*'] } } }));
      writeFileSync(join(dir, 'word.ts'), `export const word: string = 'first';\n`);
      writeFileSync(join(dir, 'entry.ts'), `import { parentPort } from 'node:worker_threads';\nimport { word } from '@/word';\nparentPort!.postMessage(word);\n`);
      const entry = join(dir, 'entry.ts');
      const tsconfig = join(dir, 'tsconfig.json');
      const said = (path: string) => new Promise<string>((resolve, reject) => new Worker(path).once('message', resolve).once('error', reject));

      const first = bundleFileIfChanged(entry, tsconfig);
      expect(first.built).toBe(true);
      expect(await said(first.path)).toBe('first');
      expect(bundleFileIfChanged(entry, tsconfig)).toEqual({ path: first.path, built: false });

      writeFileSync(join(dir, 'word.ts'), `export const word: string = 'second';\n`);
      utimesSync(join(dir, 'word.ts'), new Date(), new Date(Date.now() + 5_000)); // a changed time, whatever the clock's grain
      const again = bundleFileIfChanged(entry, tsconfig);
      expect(again).toEqual({ path: first.path, built: true });
      expect(await said(again.path)).toBe('second');
    } finally {
      rmSync(top, { recursive: true, force: true });
    }
  });

  it('the command: entries bundled with each module at its own location, split so a dynamically imported module loads only when imported', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'assay-bundle-'));
    try {
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { paths: { '@/*': ['./*'] } } }));
      writeFileSync(join(dir, 'late.ts'), `(globalThis as { lateLoaded?: boolean }).lateLoaded = true;\nexport const where: string = import.meta.url;\n`);
      writeFileSync(join(dir, 'main.ts'), `export const here: string = import.meta.url;\nexport const late = () => import('@/late');\n`);
      const tsconfig = join(dir, 'tsconfig.json');
      const first = await bundleEntriesIfChanged('cmd', { main: join(dir, 'main.ts') }, tsconfig);
      expect(first.built).toBe(true);
      const loaded = (await import(pathToFileURL(join(first.dir, 'main.mjs')).href)) as { here: string; late: () => Promise<{ where: string }> };
      expect(loaded.here).toBe(pathToFileURL(join(dir, 'main.ts')).href);
      expect((globalThis as { lateLoaded?: boolean }).lateLoaded).toBeUndefined();
      expect((await loaded.late()).where).toBe(pathToFileURL(join(dir, 'late.ts')).href);
      expect((globalThis as { lateLoaded?: boolean }).lateLoaded).toBe(true);
      expect(await bundleEntriesIfChanged('cmd', { main: join(dir, 'main.ts') }, tsconfig)).toEqual({ dir: first.dir, built: false });
      utimesSync(join(dir, 'late.ts'), new Date(), new Date(Date.now() + 5_000));
      expect((await bundleEntriesIfChanged('cmd', { main: join(dir, 'main.ts') }, tsconfig)).built).toBe(true);
    } finally {
      delete (globalThis as { lateLoaded?: boolean }).lateLoaded;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
