/**
 * `assay export` of the page benchmark's 100,000-verdict run (500 prompts × 20 models × 10
 * points, made by the pipeline against the fake provider: bench/pages-seed.ts) on the PostgreSQL
 * server: for JSONL and CSV of the verdicts, the process's wall time, its throughput in verdicts
 * per second, and its peak resident memory (sampled every 20 ms from /proc, and the kernel's own
 * high-water mark). The targets: throughput ≥ 20,000 verdicts/s, peak ≤ 100 MB, and a peak that
 * does not grow with the run (the 1,000-verdict run's export beside it). BENCH_EXPORT_DB=<url>
 * measures on a kept database that already holds the runs (made and migrated by the caller: `assay migrate`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb } from '@/lib/server/db/client';
import { freshDatabase } from '@/lib/server/db/db.testkit';
import { findSeeded, seedBenchBlueprint } from './pages-seed';
import { sampleTree } from './process-memory';
import { reportFigure, reportTarget } from './targets';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Measured {
  wallS: number;
  peakMb: number;
  hwmMb: number;
  bytes: number;
}

async function exportOnce(url: string, runId: string, args: string[], out: string): Promise<Measured> {
  const started = performance.now();
  // run as a user runs it (`npx assay`, `./bin/assay.mjs`): through its shebang, with the V8 flags it sets
  const child = spawn(join(ROOT, 'bin', 'assay.mjs'), ['export', runId, ...args, '--out', out], { cwd: ROOT, env: { ...process.env, DATABASE_URL: url, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
  const sampler = sampleTree(child.pid!, { everyMs: 20 });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const wallS = (performance.now() - started) / 1000;
  sampler.stop();
  if (code !== 0) throw new Error(`assay export ${args.join(' ')} exited ${code}: ${stderr}`);
  return { wallS, peakMb: sampler.peakSumRssMb(), hwmMb: sampler.peakSumHwmMb(), bytes: statSync(out).size };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

export async function bench(): Promise<void> {
  const kept = process.env.BENCH_EXPORT_DB;
  const t = kept ? null : await freshDatabase('postgres');
  const url = kept ?? t!.url;
  const db = createDb(url);
  const dir = mkdtempSync(join(tmpdir(), 'assay-export-bench-'));
  const repeat = Math.max(1, Number(process.env.BENCH_REPEAT ?? 3));
  try {
    const sizes = [
      { slug: 'small', title: 'Bench: small run', prompts: 100, models: 1, runs: 1 },
      { slug: 'large', title: 'Bench: large run', prompts: 500, models: 20, runs: 1 },
    ];
    const runs: Array<{ runId: string; verdicts: number }> = [];
    for (const size of sizes) {
      const t0 = Date.now();
      const s = (await findSeeded(db, size)) ?? (await seedBenchBlueprint(db, size));
      runs.push({ runId: s.runIds[0]!, verdicts: s.verdictsPerRun[0]! });
      console.log(`${size.slug}: ${s.verdictsPerRun[0]!.toLocaleString('en')} verdicts (${((Date.now() - t0) / 1000).toFixed(1)} s to make or find)`);
    }
    const [small, large] = runs as [(typeof runs)[0], (typeof runs)[0]];
    console.log(`assay export of the verdicts, median of ${repeat} (PostgreSQL server; the whole process: start, cursor, encoding, file)`);
    const results: Record<string, Measured> = {};
    for (const [label, run, args] of [
      ['jsonl', large, ['--format', 'jsonl']],
      ['csv', large, ['--format', 'csv']],
      ['csv gzip', large, ['--format', 'csv', '--gzip']],
      ['jsonl small', small, ['--format', 'jsonl']],
    ] as const) {
      const out = join(dir, `${label.replace(' ', '-')}.out`);
      await exportOnce(url, run.runId, [...args], out); // warm-up: the bundle, the page cache
      const all: Measured[] = [];
      for (let i = 0; i < repeat; i++) all.push(await exportOnce(url, run.runId, [...args], out));
      const m = { wallS: median(all.map((x) => x.wallS)), peakMb: Math.max(...all.map((x) => x.peakMb)), hwmMb: Math.max(...all.map((x) => x.hwmMb)), bytes: all[0]!.bytes };
      results[label] = m;
      console.log(`  ${label.padEnd(12)} ${run.verdicts.toLocaleString('en').padStart(8)} verdicts  ${m.wallS.toFixed(2)} s  ${Math.round(run.verdicts / m.wallS).toLocaleString('en').padStart(7)} verdicts/s  peak ${m.peakMb.toFixed(0)} MB (high-water ${m.hwmMb.toFixed(0)} MB)  ${(m.bytes / 1e6).toFixed(1)} MB written`);
    }
    for (const label of ['jsonl', 'csv'] as const) {
      const m = results[label]!;
      reportTarget({ name: `export ${label}, 100k verdicts: throughput`, value: Math.round(large.verdicts / m.wallS), unit: 'verdicts/s', atLeast: 20_000, note: `${m.wallS.toFixed(2)} s for ${large.verdicts.toLocaleString('en')}, the whole process` });
      reportTarget({ name: `export ${label}, 100k verdicts: peak memory`, value: Math.round(m.hwmMb), unit: 'MB', atMost: 100, note: `sampled RSS ${m.peakMb.toFixed(0)} MB` });
    }
    reportFigure({ name: 'export peak, 100k ÷ 1k verdicts (jsonl)', value: Number((results.jsonl!.hwmMb / results['jsonl small']!.hwmMb).toFixed(2)), unit: '×', note: `${results['jsonl small']!.hwmMb.toFixed(0)} MB for ${small.verdicts.toLocaleString('en')} verdicts` });
    reportFigure({ name: 'export csv gzip, 100k verdicts', value: Number(results['csv gzip']!.wallS.toFixed(2)), unit: 's', note: `${(results['csv gzip']!.bytes / 1e6).toFixed(1)} MB against ${(results.csv!.bytes / 1e6).toFixed(1)} MB plain` });
  } finally {
    await db.$disconnect();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
