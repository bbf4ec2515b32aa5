import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';

const alias = { '@': fileURLToPath(new URL('.', import.meta.url)) };

// Test tiers (STYLE.md §12): `*.test.ts` pure and fast; `*.db.test.ts` against a real
// PostgreSQL server AND the embedded PGlite (two projects over the same files).
// Workers for all three projects together (one pool, one group, so a PGlite file's WebAssembly
// overlaps a server file's waits on child processes and timers). Vitest's default, cores - 1,
// is 1 on a 2-core CI machine: every file ran after the previous one while the second core
// idled through each file's process spawns, network round trips and sleeps. One more than the
// cores, since two workers still left a fifth of two cores idle (the suite: 533 s with 2, 481 s
// with 3 on a 2-core machine, every timing check far inside its bound, e.g. the event-loop lag
// while a worker grades 9–20 ms of the 400 allowed). At least 2; at most 4, since each PGlite
// file holds ~800 MB.
const WORKERS = Number(process.env.ASSAY_TEST_WORKERS) || Math.min(4, Math.max(2, availableParallelism() + 1));

/**
 * The files that also run on the embedded PGlite (the default a newcomer gets): everything that
 * talks to the database through its own SQL (the db layer, the run engine's writers, ledgers,
 * leases and jobs, sign-in and drafts), and one whole `assay run` through the CLI. The files
 * above those layers (the other CLI commands, GitHub sync and pull requests, admin actions,
 * the blueprint readers) send no SQL of their own, so a second engine would test the same
 * statements again, for a fifth of the suite's time: they run on the PostgreSQL server only.
 */
const PGLITE_FILES = [
  'lib/server/db/**/*.db.test.ts',
  'lib/server/runs/**/*.db.test.ts',
  'lib/server/jobs/**/*.db.test.ts',
  'lib/server/auth/**/*.db.test.ts',
  'lib/server/authoring/**/*.db.test.ts',
  'lib/server/http/**/*.db.test.ts',
  // exports read through a server-side cursor on a connection of their own: PGlite's socket must carry it too
  'lib/server/exports/**/*.db.test.ts',
  // the review queue is used on the embedded database by default (npm run dev)
  'lib/server/human/**/*.db.test.ts',
  'lib/cli/commands/run.db.test.ts',
];

export default defineConfig({
  resolve: { alias },
  test: {
    maxWorkers: WORKERS,
    // Once per run (not per project or file): names the suites that skip because the Weval
    // corpus or conformance vectors are absent (testing/outside-data.ts).
    globalSetup: ['testing/outside-data.global-setup.ts'],
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['lib/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts', 'e2e/**/*.test.ts', 'components/**/*.test.ts', 'testing/**/*.test.ts'],
          exclude: ['**/*.db.test.ts', 'node_modules/**'],
          testTimeout: 20_000,
          // The unit files share their worker's loaded modules: each file importing the core, zod and
          // the views afresh cost more than its tests (the unit project: 150 s isolated, 89 s shared,
          // on a 2-core machine). They keep no state between files (no database, no server, no
          // process-wide pool); the database files stay isolated.
          isolate: false,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'db-postgres',
          include: ['lib/**/*.db.test.ts', 'scripts/**/*.db.test.ts'],
          env: { ASSAY_TEST_DB: 'postgres' },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'db-pglite',
          include: PGLITE_FILES,
          env: { ASSAY_TEST_DB: 'pglite' },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
