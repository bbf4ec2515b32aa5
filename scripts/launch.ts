/**
 * `npm run dev` / `npm start`: validates the configuration, opens the database (the
 * embedded PGlite when DATABASE_URL is unset), applies migrations, syncs the local
 * blueprints, then runs `next <dev|start>` with DATABASE_URL pointing at that database:
 * the dev server in this process (scripts/dev-in-process.ts), `next start` as a child.
 *
 *   tsx scripts/launch.ts next dev [next args…]
 *
 * (`npm run db:migrate` is `assay migrate`, lib/cli/commands/migrate.ts.)
 */
import { leanHeap } from '../lib/server/lean-heap';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { env, EnvError, type Env } from '../lib/server/env';
import { openDatabase } from '../lib/server/db/database';
import { createDb } from '../lib/server/db/client';
import { tsxWorker } from '../lib/server/tsx-worker';
import type { SyncWorkerData, SyncWorkerMessage } from './sync-worker';
import { portFromArgs } from './launch-args';
import { inProcessOptions, startDevServer } from './dev-in-process';
import type * as SeedDemo from '../lib/server/db/seed/seed-demo';
import type { DemoProvider } from '../lib/server/db/seed/seed-demo';
import type { Db } from '../lib/server/db/client';

/** Resolves once the app answers HTTP at all (its start-up hooks, such as resuming runs, have run). */
async function serving(port: number, child: { exitCode: number | null }, path: string): Promise<boolean> {
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) return false;
    const res = await fetch(`http://127.0.0.1:${port}${path}`).catch(() => null);
    if (res) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

/**
 * The local blueprints' sync in a worker thread that ends with it (scripts/sync-worker.ts), so
 * that the launcher does not keep what the sync loaded for as long as the app runs (~50 MB).
 */
function syncInWorker(data: SyncWorkerData): Promise<Extract<SyncWorkerMessage, { type: 'synced' }>> {
  const script = new URL('./sync-worker.ts', import.meta.url).href;
  const worker = tsxWorker(script, { workerData: data });
  return new Promise((resolve, reject) => {
    worker.once('message', (m: SyncWorkerMessage) => {
      void worker.terminate();
      if (m.type === 'synced') resolve(m);
      else reject(Object.assign(new Error(`syncing ${data.dir}/: ${m.message}`), { stack: m.stack }));
    });
    worker.once('error', (e) => reject(new Error(`syncing ${data.dir}/: ${e.message}`, { cause: e })));
    worker.once('exit', (code) => reject(new Error(`syncing ${data.dir}/: its worker exited (code ${code})`)));
  });
}

/**
 * A new embedded data directory is created and migrated by a child process (`assay migrate`, the
 * compiled command) that then exits, before this process opens it. Done here, the memory those
 * steps used stayed with the launcher for as long as the app ran, although their worker threads
 * had ended (the C allocator keeps a finished thread's pages): ~100 MB on every first start
 * (docs/limits.md, "Memory").
 */
async function createDataDirApart(config: Env): Promise<void> {
  const dir = config.ASSAY_DATA_DIR;
  if (config.DATABASE_URL || dir.startsWith('memory://') || existsSync(join(dir, 'PG_VERSION'))) return;
  const assay = fileURLToPath(new URL('../bin/assay.mjs', import.meta.url));
  const child = spawn(process.execPath, ['--max-semi-space-size=2', assay, 'migrate'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const code = await new Promise<number>((done) => child.on('exit', (c, s) => done(c ?? (s ? 1 : 0))));
  if (code !== 0) throw new Error(`creating the embedded database in ${dir} failed (its process exited with ${code}; its error is above)`);
}

import { createRedactor, knownSecrets, redactConsole } from '../lib/server/secret-redactor';

// the launcher's log lines (a failed start prints its error) pass the secret redactor too
redactConsole(console as never, createRedactor(knownSecrets(process.env)));

async function main(): Promise<number> {
  // the launcher lives as long as the app: it holds the embedded database
  leanHeap();
  const config = env();
  const [command, ...given] = process.argv.slice(2);
  await createDataDirApart(config);
  const database = await openDatabase(config);
  const where = database.mode === 'server' ? 'PostgreSQL server' : `embedded PGlite (${config.ASSAY_DATA_DIR})`;
  console.log(`assay: database ready: ${where}`);
  // `npm run dev -- -p 3001` wins over PORT (an invalid one stops here, before next starts)
  const { port, rest: args } = portFromArgs(given);
  if (!config.GITHUB_REPOSITORY) {
    const s = await syncInWorker({ url: database.url, dir: config.ASSAY_BLUEPRINTS_DIR });
    console.log(
      `assay: synced ${config.ASSAY_BLUEPRINTS_DIR}/: ${s.added} added, ${s.changed} changed, ${s.unchanged} unchanged, ${s.removed} removed, ${s.invalid} invalid`,
    );
    for (const line of s.errors) console.log(`  ${line}`);
  }
  // The demo is made by the pipeline against the fake provider, which lives in this process
  // for as long as the app does (the live run keeps waiting on it).
  let demo: { db: Db; provider: DemoProvider; live: typeof SeedDemo } | null = null;
  if (config.ASSAY_SEED_DEMO) {
    // loaded only for the demo: the pipeline and the fake provider are not the launcher's to hold otherwise
    const live = await import('../lib/server/db/seed/seed-demo');
    const { startFakeLlm } = await import('../testing/fakes/llm-server');
    const fake = await startFakeLlm();
    const provider: DemoProvider = { url: fake.url, setRules: (rules) => fake.setRules(rules) };
    const db = createDb(database.url);
    const started = Date.now();
    const seeded = await live.seedDemo(db, provider);
    const { seedSoevDemo } = await import('../lib/server/db/seed/seed-soev-demo');
    const soev = await seedSoevDemo(db, provider);
    const { seedRetrievalDemo } = await import('../lib/server/db/seed/seed-retrieval-demo');
    const retrieval = await seedRetrievalDemo(db, provider);
    const runs = [...Object.values(seeded).flatMap((b) => b.runIds), ...soev.runs.map((r) => r.runId), retrieval.runId];
    console.log(`assay: seeded the demo through the pipeline in ${((Date.now() - started) / 1000).toFixed(1)} s (${fake.calls()} calls to the fake provider): ${runs.join(', ')}`);
    demo = { db, provider, live };
  }
  if (command !== 'next') throw new Error('usage: launch.ts next <dev|start> [args…]');
  const appEnv = { DATABASE_URL: database.url, NEXT_TELEMETRY_DISABLED: '1' };
  const appPort = port ?? config.PORT;
  const inProcess = args[0] === 'dev' ? inProcessOptions(args.slice(1)) : null;
  let exited: Promise<number>;
  let appRunning: { exitCode: number | null };
  if (inProcess) {
    // `npm run dev`: next's dev server in this process (scripts/dev-in-process.ts)
    // what next's CLI child was given, on this process now: next and the app read process.env
    Object.assign(process.env, appEnv, { NODE_ENV: 'development' });
    const server = await startDevServer(appPort, inProcess);
    console.log(`assay: ready on ${server.url}`);
    appRunning = { exitCode: null };
    exited = new Promise<number>((done) => {
      // a second Ctrl-C, while this one closes, ends the process at once (Node's default)
      const stop = () =>
        void server.close().then(
          () => done(0),
          (e: unknown) => (console.error('assay: closing the dev server:', e), done(1)),
        );
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  } else {
    // Spawn next directly (not through npx: SIGTERM through npx left next-server running),
    // and asynchronously: a blocking spawn would freeze the embedded database we serve.
    const child = spawn(process.execPath, [join('node_modules', 'next', 'dist', 'bin', 'next'), ...args, '--port', String(appPort)], {
      stdio: 'inherit',
      env: { ...process.env, ...appEnv },
    });
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    process.on('SIGINT', forward('SIGINT'));
    process.on('SIGTERM', forward('SIGTERM'));
    appRunning = child;
    exited = new Promise<number>((done) => child.on('exit', (c, s) => done(c ?? (s ? 1 : 0))));
  }
  if (demo && (await serving(appPort, appRunning, `/api/runs/${demo.live.DEMO_LIVE_RUN}/progress`))) {
    // Only now: a starting server resumes every run it finds running, and this one is ours.
    await demo.live.startDemoLiveRun(demo.db, demo.provider).then(
      (live) => console.log(`assay: demo run ${live.runId} is in progress (${live.waiting} replies waiting on a rate-limited provider)`),
      (e: unknown) => console.error('assay: could not start the demo live run:', e),
    );
  }
  const code = await exited;
  await database.close();
  return code;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof EnvError) console.error(`assay: ${e.message}`);
    else console.error('assay: failed to start:', e);
    process.exit(1);
  },
);
