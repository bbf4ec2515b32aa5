import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { bundleIfChanged } from './bundled-worker';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ENTRIES = ['lib/server/runs/grading/grading-worker.ts', 'lib/server/untrusted/untrusted-worker.ts', 'lib/server/db/pglite-worker.ts'];

describe('bundled workers', () => {
  it('bundles each worker entry from modules that do not read their own location', () => {
    for (const entry of ENTRIES) {
      const { path } = bundleIfChanged(join(root, entry), join(root, 'tsconfig.json'));
      const manifest = JSON.parse(readFileSync(path.replace(/\.mjs$/, '.json'), 'utf8')) as { inputs: [string, number, number][] };
      expect(manifest.inputs.length, entry).toBeGreaterThan(0);
      // a bundled module's import.meta.url and __dirname name the bundle, not the module
      const readers = manifest.inputs.map(([p]) => p).filter((p) => /import\.meta\.url|__dirname|__filename/.test(readFileSync(p, 'utf8')));
      expect(readers, entry).toEqual([]);
    }
  });

  it('uses the bundle while its files are unchanged, bundles again when one changes, and the worker runs it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'assay-bundle-'));
    try {
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { paths: { '@/*': ['./*'] } } }));
      writeFileSync(join(dir, 'word.ts'), `export const word: string = 'first';\n`);
      writeFileSync(join(dir, 'entry.ts'), `import { parentPort } from 'node:worker_threads';\nimport { word } from '@/word';\nparentPort!.postMessage(word);\n`);
      const entry = join(dir, 'entry.ts');
      const tsconfig = join(dir, 'tsconfig.json');
      const said = (path: string) => new Promise<string>((resolve, reject) => new Worker(path).once('message', resolve).once('error', reject));

      const first = bundleIfChanged(entry, tsconfig);
      expect(first.built).toBe(true);
      expect(await said(first.path)).toBe('first');
      expect(bundleIfChanged(entry, tsconfig)).toEqual({ path: first.path, built: false });

      writeFileSync(join(dir, 'word.ts'), `export const word: string = 'second';\n`);
      utimesSync(join(dir, 'word.ts'), new Date(), new Date(Date.now() + 5_000)); // a changed time, whatever the clock's grain
      const again = bundleIfChanged(entry, tsconfig);
      expect(again).toEqual({ path: first.path, built: true });
      expect(await said(again.path)).toBe('second');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
