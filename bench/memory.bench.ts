/**
 * Memory of the embedded default (issue 15: "a lean embedded default"), as a newcomer gets it
 * with no DATABASE_URL:
 *  1. `assay run` of the pipeline bench's shape (250 prompts × 8 models = 2,000 model calls,
 *     each reply judged) on the embedded database, through bin/assay.mjs: the peak resident
 *     memory summed over every process the command starts. Target ≤ 500 MB. The data
 *     directory's first start (initdb and the migrations, once per data directory) is
 *     measured before it, as a figure of its own.
 *  2. `npm run dev` idle: on a free port (ASSAY_BENCH_PORT to choose), `/` opened in Chromium
 *     (what a newcomer does), then left to settle with the tab open; the resident memory summed
 *     over the script's process tree (launcher with the embedded database and next; not npm
 *     itself, nor the browser). Target ≤ 700 MB. Then the same with `/`'s HTML fetched once
 *     and nothing after it, as a figure.
 * The fake LLM runs in its own process and is not counted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { launchChromium } from './chromium';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startJudgedFake } from './fake-process';
import { sampleTree, type TreeSampler } from './process-memory';
import { reportFigure, reportTarget } from './targets';

const PROMPTS = 250;
const MODELS = 8;
const LATENCY_MS = 100;
const CONCURRENCY = 20;

function blueprint(): string {
  const prompts = Array.from({ length: PROMPTS }, (_, i) => `- id: p${i}\n  prompt: "Bench question ${i}: explain item ${i}."\n  should:\n    - "Explains item ${i} clearly"\n    - $contains: "Fake reply"`);
  return `title: Memory bench\n---\n${prompts.join('\n')}\n`;
}

/** The environment of a newcomer's shell: no DATABASE_URL, the embedded database in `dataDir`. */
function newcomerEnv(dataDir: string, llmUrl: string): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, ASSAY_DATA_DIR: dataDir, ASSAY_LLM_BASE_URL: llmUrl, NEXT_TELEMETRY_DISABLED: '1' };
  // MEMORY_BENCH_DATABASE_URL: the same run on a PostgreSQL server, to compare the runner alone
  if (process.env.MEMORY_BENCH_DATABASE_URL) e.DATABASE_URL = process.env.MEMORY_BENCH_DATABASE_URL;
  else delete e.DATABASE_URL;
  delete e.NODE_OPTIONS;
  delete e.ASSAY_SEED_DEMO;
  return e;
}

function exited(child: ChildProcess): Promise<number> {
  return new Promise((done) => child.once('exit', (code, signal) => done(code ?? (signal ? 1 : 0))));
}

function printProcesses(label: string, s: TreeSampler): void {
  for (const p of s.processes().sort((a, b) => b.peakMb - a.peakMb)) console.log(`[${label}]   pid ${p.pid}: peak ${p.peakMb.toFixed(0)} MB, last ${p.rssMb.toFixed(0)} MB  ${p.command}`);
}

/** Runs a command of the newcomer's to its end, sampling its process tree; throws on a non-zero exit. */
async function measured(label: string, [command, ...args]: [string, ...string[]], env: NodeJS.ProcessEnv): Promise<{ sampler: TreeSampler; seconds: number }> {
  const started = performance.now();
  const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const sampler = sampleTree(child.pid!, { everyMs: 50 });
  const code = await exited(child);
  sampler.stop();
  if (code !== 0) throw new Error(`${label} exited with ${code}:\n${stderr}`);
  printProcesses(label, sampler);
  return { sampler, seconds: (performance.now() - started) / 1000 };
}

async function embeddedRun(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'assay-memory-'));
  const fake = await startJudgedFake(LATENCY_MS);
  try {
    const env = newcomerEnv(join(dir, 'pglite'), fake.url);
    // 1. A new data directory, as `npm run db:migrate` or any first command makes it: from the
    //    migrated snapshot (lib/server/db/pglite-snapshot.ts), which a machine makes once per set of
    //    migrations; the warm-up makes it here when there is none, so its cost is shown apart.
    const warm = await measured('snapshot', [process.execPath, 'bin/assay.mjs', 'migrate'], newcomerEnv(join(dir, 'warm-up'), fake.url));
    reportFigure({ name: 'first data dir on this machine (makes the snapshot if none)', value: warm.seconds, unit: 's', note: `peak ${warm.sampler.peakSumHwmMb().toFixed(0)} MB` });
    const first = await measured('first start', [process.execPath, 'bin/assay.mjs', 'migrate'], env);
    console.log(`[first start] a new data directory ready in ${first.seconds.toFixed(1)} s: peak ${first.sampler.peakSumHwmMb().toFixed(0)} MB`);
    reportTarget({ name: 'new data directory ready (process wall)', value: first.seconds, unit: 's', atMost: 3 });
    reportTarget({ name: 'peak RSS, new data directory', value: first.sampler.peakSumHwmMb(), unit: 'MB', atMost: 300 });

    // 2. The run, through the CLI's entry point as `npx assay run` starts it: the file itself,
    //    so that its #! line (and the node options there) apply.
    const file = join(dir, 'memory-bench.yml');
    writeFileSync(file, blueprint());
    const models = Array.from({ length: MODELS }, (_, i) => `openai:model-${i}`).join(',');
    const run = await measured('embedded run', ['./bin/assay.mjs', 'run', file, '--models', models, '--judges', 'openai:judge', '--concurrency', String(CONCURRENCY), '--quiet'], env);
    const calls = (await fake.admin.stats()).completed;
    const peak = run.sampler.peakSumHwmMb();
    console.log(`[embedded run] ${calls} provider calls in ${run.seconds.toFixed(1)} s (latency ${LATENCY_MS} ms, concurrency ${CONCURRENCY})`);
    console.log(`[embedded run] peak RSS summed over the processes alive at once: ${peak.toFixed(0)} MB (sampled sum of current RSS: ${run.sampler.peakSumRssMb().toFixed(0)} MB)`);
    reportTarget({ name: 'peak RSS, embedded run (2,000 calls)', value: peak, unit: 'MB', atMost: 400, note: `assay run on PGlite, existing data dir, ${calls} calls in ${run.seconds.toFixed(0)} s` });

    // 3. The same run on a data directory it creates itself (no first start before it)
    const fresh = await measured('embedded run, new data dir', ['./bin/assay.mjs', 'run', file, '--models', models, '--judges', 'openai:judge', '--concurrency', String(CONCURRENCY), '--quiet'], newcomerEnv(join(dir, 'pglite-new'), fake.url));
    reportTarget({ name: 'peak RSS, embedded run (2,000 calls), new data dir', value: fresh.sampler.peakSumHwmMb(), unit: 'MB', atMost: 400, note: `${fresh.seconds.toFixed(0)} s` });
  } finally {
    fake.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** How long the tree's memory must stay within 2% to count as settled, and the longest wait. */
const SETTLE_MS = 10_000;
const SETTLE_MAX_MS = 60_000;

/** Resolves once something accepts connections on the port (the server is up, no page asked for yet). */
async function listening(port: number, child: ChildProcess, stderr: () => string): Promise<void> {
  const started = performance.now();
  for (;;) {
    const open = await new Promise<boolean>((done) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), done(true)));
      socket.once('error', () => done(false));
    });
    if (open) return;
    if (child.exitCode !== null || performance.now() - started > 180_000) throw new Error(`npm run dev did not listen on ${port}:\n${stderr()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * `npm run dev`, its first page, then idle. `browser`: the page opened in Chromium, as a
 * newcomer does, its scripts, styles and the dev server's live-reload socket loaded, the tab
 * kept open while the memory settles. `fetch`: only the page's HTML fetched once, nothing
 * after it (a figure of its own: Turbopack then keeps what it compiled in memory until the next
 * request, docs/limits.md).
 */
async function devIdle(firstPage: 'browser' | 'fetch'): Promise<void> {
  const label = firstPage === 'browser' ? 'dev idle' : 'dev idle, HTML only';
  const dir = mkdtempSync(join(tmpdir(), 'assay-memory-dev-'));
  const fake = await startJudgedFake(0);
  const port = Number(process.env.ASSAY_BENCH_PORT) || (await freePort());
  // `npm run dev`, in its own process group, so that stopping it stops next and its workers too
  const child = spawn('npm', ['run', 'dev', '--', '--port', String(port)], {
    env: newcomerEnv(join(dir, 'pglite'), fake.url),
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  // npm's own process is npm's, not Assay's
  const sampler = sampleTree(child.pid!, { everyMs: 250, countRoot: false });
  const browser = firstPage === 'browser' ? await launchChromium() : null;
  try {
    const started = performance.now();
    await listening(port, child, () => stderr);
    const url = `http://127.0.0.1:${port}/`;
    let status: number;
    if (browser) {
      const page = await browser.newPage();
      const res = await page.goto(url, { waitUntil: 'load', timeout: 180_000 });
      status = res?.status() ?? 0;
    } else {
      const res = await fetch(url);
      await res.text();
      status = res.status;
    }
    if (status !== 200) throw new Error(`npm run dev answered / with ${status}:\n${stderr}`);
    const firstPageSeconds = (performance.now() - started) / 1000;
    // settled: the sum moved less than 2% over SETTLE_MS
    const window: number[] = [];
    const settleStart = performance.now();
    for (;;) {
      await new Promise((r) => setTimeout(r, 1000));
      window.push(sampler.currentRssMb());
      if (window.length > SETTLE_MS / 1000) window.shift();
      const lo = Math.min(...window);
      const hi = Math.max(...window);
      if (window.length === SETTLE_MS / 1000 && hi - lo <= lo * 0.02) break;
      if (performance.now() - settleStart > SETTLE_MAX_MS) break;
    }
    const idle = sampler.currentRssMb();
    console.log(`[${label}] first page ${firstPageSeconds.toFixed(1)} s after start; settled ${((performance.now() - settleStart) / 1000).toFixed(0)} s later`);
    printProcesses(label, sampler);
    console.log(`[${label}] RSS summed over the launcher's process tree: ${idle.toFixed(0)} MB (peak while starting: ${sampler.peakSumRssMb().toFixed(0)} MB)`);
    if (browser) {
      reportTarget({ name: 'RSS, npm run dev idle (after first page)', value: idle, unit: 'MB', atMost: 700, note: 'launcher + PGlite + next, fresh data dir, page opened in Chromium' });
      reportFigure({ name: 'peak RSS, npm run dev start-up + first page', value: sampler.peakSumRssMb(), unit: 'MB' });
    } else {
      reportFigure({ name: 'RSS, npm run dev idle after one HTML fetch (no browser)', value: idle, unit: 'MB' });
    }
  } finally {
    await browser?.close();
    sampler.stop();
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      // already gone
    }
    await Promise.race([exited(child), new Promise((r) => setTimeout(r, 10_000))]);
    fake.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function bench(): Promise<void> {
  await embeddedRun();
  await devIdle('browser');
  await devIdle('fetch');
}

/** Each half alone (`npx tsx -e "import('./bench/memory.bench.ts').then((m) => m.devIdleOnly())"`). */
export const embeddedRunOnly = embeddedRun;
export const devIdleOnly = (firstPage: 'browser' | 'fetch' = 'browser') => devIdle(firstPage);
