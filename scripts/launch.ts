/**
 * `npm run dev` / `npm start`: validates the configuration, opens the database (the
 * embedded PGlite when DATABASE_URL is unset), applies migrations, syncs the local
 * blueprints, then runs `next <dev|start>` with DATABASE_URL pointing at that database.
 *
 *   tsx scripts/launch.ts next dev [next args…]
 *   tsx scripts/launch.ts --migrate-only
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { env, EnvError } from '../lib/server/env';
import { openDatabase } from '../lib/server/db/database';
import { createDb } from '../lib/server/db/client';
import { syncLocalFolder } from '../lib/server/blueprints/sync-local';
import { seedDemo } from '../lib/server/db/seed/seed-demo';
import { createRedactor, knownSecrets, redactConsole } from '../lib/server/secret-redactor';

// the launcher's log lines (a failed start prints its error) pass the secret redactor too
redactConsole(console as never, createRedactor(knownSecrets(process.env)));

async function main(): Promise<number> {
  const config = env();
  const database = await openDatabase(config);
  const where = database.mode === 'server' ? 'PostgreSQL server' : `embedded PGlite (${config.ASSAY_DATA_DIR})`;
  console.log(`assay: database ready: ${where}`);
  const [command, ...args] = process.argv.slice(2);
  if (command === '--migrate-only') {
    await database.close();
    return 0;
  }
  if (!config.GITHUB_REPOSITORY) {
    const db = createDb(database.url);
    try {
      const s = await syncLocalFolder(db, config.ASSAY_BLUEPRINTS_DIR, 'start');
      console.log(
        `assay: synced ${config.ASSAY_BLUEPRINTS_DIR}/: ${s.added} added, ${s.changed} changed, ${s.unchanged} unchanged, ${s.removed} removed, ${s.invalid} invalid`,
      );
      for (const line of s.errors) console.log(`  ${line}`);
    } finally {
      await db.$disconnect();
    }
  }
  if (config.ASSAY_SEED_DEMO) {
    const db = createDb(database.url);
    try {
      const demo = await seedDemo(db);
      console.log(`assay: seeded demo runs: ${[...demo.support.runIds, ...demo.coding.runIds].join(', ')}`);
    } finally {
      await db.$disconnect();
    }
  }
  if (command !== 'next') throw new Error('usage: launch.ts next <dev|start> [args…] | --migrate-only');
  // Spawn next directly (not through npx: SIGTERM through npx left next-server running),
  // and asynchronously: a blocking spawn would freeze the embedded database we serve.
  const child = spawn(process.execPath, [join('node_modules', 'next', 'dist', 'bin', 'next'), ...args, '--port', String(config.PORT)], {
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: database.url, NEXT_TELEMETRY_DISABLED: '1' },
  });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  process.on('SIGINT', forward('SIGINT'));
  process.on('SIGTERM', forward('SIGTERM'));
  const code = await new Promise<number>((done) => child.on('exit', (c, s) => done(c ?? (s ? 1 : 0))));
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
