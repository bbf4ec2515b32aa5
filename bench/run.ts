/**
 * `npm run bench`: runs every bench/*.bench.ts module in turn (alphabetical). Each exports
 * `async function bench(): Promise<void>` that prints its own figures. `npm run bench -- pages`
 * runs only the modules whose name contains "pages".
 *
 * Each module runs in a process of its own (this file again, with `--module`), which hands its
 * recorded targets back through a file: a module measured after others in one process inherited
 * their heap, and its figures their garbage collections (the loader, alone 0.93–0.96× the plain
 * parse, measured 1.14× after eight other modules, its rounds spread 0.67–2.14×).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { formatTargets, recordedTargets, type Target } from './targets';

const here = dirname(fileURLToPath(import.meta.url));

/** One module, in this process: its targets written to `out`. */
async function runModule(file: string, out: string): Promise<number> {
  const mod = (await import(pathToFileURL(join(here, file)).href)) as { bench?: () => Promise<void> };
  if (typeof mod.bench !== 'function') throw new Error(`${file} must export async function bench(): Promise<void>`);
  await mod.bench();
  writeFileSync(out, JSON.stringify(recordedTargets()));
  return 0;
}

async function main(args: string[]): Promise<number> {
  if (args[0] === '--module') return runModule(args[1]!, args[2]!);
  const modules = readdirSync(here)
    .filter((f) => f.endsWith('.bench.ts'))
    .filter((f) => args.length === 0 || args.some((o) => f.includes(o)))
    .sort();
  if (modules.length === 0) {
    console.error(`no bench/*.bench.ts module${args.length ? ` matching ${args.join(', ')}` : ''}`);
    return 1;
  }
  const dir = mkdtempSync(join(tmpdir(), 'assay-bench-'));
  const targets: Target[] = [];
  let failed = 0;
  try {
    for (const file of modules) {
      console.log(`\n=== ${file}`);
      const started = Date.now();
      const out = join(dir, `${file}.json`);
      // the same node and loader (tsx) as this process
      const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--module', file, out], { stdio: 'inherit' });
      const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
      if (code !== 0) {
        failed++;
        console.error(`=== ${file}: failed (exit ${code})`);
        continue;
      }
      targets.push(...(JSON.parse(readFileSync(out, 'utf8')) as Target[]));
      console.log(`=== ${file}: done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const summary = formatTargets(targets);
  if (summary) console.log(`\n${summary}`);
  return failed ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error((e as Error).stack ?? e);
    process.exit(1);
  },
);
