/**
 * `npm run bench`: runs every bench/*.bench.ts module in turn (alphabetical). Each exports
 * `async function bench(): Promise<void>` that prints its own figures. `npm run bench -- pages`
 * runs only the modules whose name contains "pages".
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatTargets, recordedTargets } from './targets';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);

async function main(): Promise<number> {
  const modules = readdirSync(here)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
    .sort();
  if (modules.length === 0) {
    console.error(`no bench/*.bench.ts module${only.length ? ` matching ${only.join(', ')}` : ''}`);
    return 1;
  }
  let failed = 0;
  for (const file of modules) {
    console.log(`\n=== ${file}`);
    const started = Date.now();
    try {
      const mod = (await import(pathToFileURL(join(here, file)).href)) as { bench?: () => Promise<void> };
      if (typeof mod.bench !== 'function') throw new Error(`${file} must export async function bench(): Promise<void>`);
      await mod.bench();
      console.log(`=== ${file}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    } catch (e) {
      failed++;
      console.error(`=== ${file}: failed: ${(e as Error).stack ?? e}`);
    }
  }
  const summary = formatTargets(recordedTargets());
  if (summary) console.log(`\n${summary}`);
  return failed ? 1 : 0;
}

main().then((code) => process.exit(code));
