/**
 * What the `assay` command costs around its own work: `assay validate` of one file, and `assay
 * run --fixtures` of a small run (4 prompts × 2 models, fixed replies, function points only) on
 * the PostgreSQL server and on an existing embedded data directory, the whole process against the
 * run's own recorded time. Each as the
 * command runs it (bundled, bin/assay.mjs) and through the sources with tsx (ASSAY_CLI_SOURCE=1),
 * after one warm-up that makes the bundle. Wall time is the median of the repetitions; CPU is the
 * children's user+system time from /proc (Linux). `BENCH_REPEAT` sets the repetitions (default 7).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshDatabase } from '@/lib/server/db/db.testkit';
import { reportFigure, reportTarget } from './targets';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const BLUEPRINT = `title: Start-up probe
models: [openai:alpha, openai:beta]
---
${['one', 'two', 'three', 'four'].map((id) => `- id: ${id}\n  prompt: Say ${id}.\n  should:\n    - $icontains: ${id}\n`).join('')}`;
const FIXTURES = { responses: Object.fromEntries(['one', 'two', 'three', 'four'].map((id) => [id, { default: `I say ${id}.` }])) };

/** Children's CPU seconds so far (user + system of waited-for children), or null off Linux. */
function childrenCpuS(): number | null {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    // after "pid (comm) ": state is field 0, so cutime and cstime (fields 16 and 17 of stat) are 13 and 14
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}

/** `env`'s undefined values are taken out of the command's environment (no DATABASE_URL: the embedded database). */
function timed(args: string[], env: Record<string, string | undefined>): { ms: number; cpuS: number | null; stdout: string } {
  const cpu0 = childrenCpuS();
  const start = performance.now();
  const childEnv = Object.fromEntries(Object.entries({ ...process.env, NO_COLOR: '1', ...env }).filter(([, v]) => v !== undefined)) as NodeJS.ProcessEnv;
  const r = spawnSync(process.execPath, ['bin/assay.mjs', ...args], { cwd: ROOT, env: childEnv, encoding: 'utf8' });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`assay ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  const cpu1 = childrenCpuS();
  return { ms, cpuS: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0, stdout: r.stdout };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

function measure(label: string, repeat: number, args: () => string[], env: Record<string, string | undefined>, after?: (stdout: string) => number) {
  timed(args(), env); // warm-up: the bundle made, files in the page cache
  const runs = Array.from({ length: repeat }, () => {
    const r = timed(args(), env);
    return { ...r, own: after ? after(r.stdout) : 0 };
  });
  const wall = median(runs.map((r) => r.ms));
  const cpu = runs.every((r) => r.cpuS !== null) ? median(runs.map((r) => r.cpuS!)) : null;
  const overhead = median(runs.map((r) => r.ms - r.own));
  console.log(`  ${label.padEnd(44)} wall ${wall.toFixed(0).padStart(5)} ms   CPU ${cpu === null ? '—' : `${(cpu * 1000).toFixed(0)} ms`}${after ? `   around the run's own time ${overhead.toFixed(0)} ms` : ''}`);
  return { wall, cpu, overhead };
}

export async function bench(): Promise<void> {
  const repeat = Math.max(1, Number(process.env.BENCH_REPEAT ?? 7));
  const dir = mkdtempSync(join(tmpdir(), 'assay-cli-start-'));
  const t = await freshDatabase('postgres');
  try {
    writeFileSync(join(dir, 'probe.yml'), BLUEPRINT);
    writeFileSync(join(dir, 'fixtures.json'), JSON.stringify(FIXTURES));
    console.log(`assay start-up, median of ${repeat} after a warm-up (the run: 4 prompts × 2 models from fixtures, PostgreSQL server)`);
    const validate = ['validate', join(dir, 'probe.yml')];
    const runArgs = () => ['run', join(dir, 'probe.yml'), '--fixtures', join(dir, 'fixtures.json'), '--json', '-', '--quiet'];
    const env = { DATABASE_URL: t.url };
    // the run's own time, as it recorded it (started → finished)
    const ownMs = (stdout: string) => {
      const doc = JSON.parse(stdout) as { run: { startedAt?: string; finishedAt?: string } };
      return doc.run.startedAt && doc.run.finishedAt ? Date.parse(doc.run.finishedAt) - Date.parse(doc.run.startedAt) : 0;
    };
    const bundled = measure('assay validate (one file), bundled', repeat, () => validate, {});
    const source = measure('assay validate (one file), sources via tsx', repeat, () => validate, { ASSAY_CLI_SOURCE: '1' });
    const run = measure('assay run --fixtures, bundled', repeat, runArgs, env, ownMs);
    const runSource = measure('assay run --fixtures, sources via tsx', repeat, runArgs, { ...env, ASSAY_CLI_SOURCE: '1' }, ownMs);
    // the embedded default on an existing data directory (the warm-up run makes it)
    const embeddedEnv = { DATABASE_URL: undefined, ASSAY_DATA_DIR: join(dir, 'pglite') };
    const embedded = measure('assay run --fixtures, embedded (existing dir)', repeat, runArgs, embeddedEnv, ownMs);
    reportTarget({ name: 'assay validate of one file (wall)', value: bundled.wall / 1000, unit: 's', atMost: 0.3, note: `through the sources ${(source.wall / 1000).toFixed(2)} s` });
    reportTarget({ name: 'assay run --fixtures, 8 replies, PostgreSQL server (wall)', value: run.wall / 1000, unit: 's', atMost: 1, note: `through the sources ${(runSource.wall / 1000).toFixed(2)} s` });
    reportTarget({ name: "assay run: the process beyond the run's own time (server)", value: run.overhead / 1000, unit: 's', atMost: 1 });
    reportTarget({ name: "assay run: the process beyond the run's own time (existing embedded dir)", value: embedded.overhead / 1000, unit: 's', atMost: 2, note: `wall ${(embedded.wall / 1000).toFixed(2)} s` });
    if (bundled.cpu !== null) reportFigure({ name: 'assay validate CPU, bundled / sources', value: bundled.cpu / (source.cpu ?? 1), unit: '×', note: `${(bundled.cpu * 1000).toFixed(0)} ms / ${((source.cpu ?? 0) * 1000).toFixed(0)} ms` });
  } finally {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
