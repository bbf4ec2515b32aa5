import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const alias = { '@': fileURLToPath(new URL('.', import.meta.url)) };

// Test tiers (STYLE.md §12): `*.test.ts` pure and fast; `*.db.test.ts` against a real
// PostgreSQL server AND the embedded PGlite (two projects over the same files).
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['lib/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts', 'e2e/**/*.test.ts', 'components/**/*.test.ts', 'testing/**/*.test.ts'],
          exclude: ['**/*.db.test.ts', 'node_modules/**'],
          testTimeout: 20_000,
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
          include: ['lib/**/*.db.test.ts', 'scripts/**/*.db.test.ts'],
          env: { ASSAY_TEST_DB: 'pglite' },
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // each file boots its own PGlite (~800 MB): keep them from piling up on 2 cores
          maxWorkers: 1,
        },
      },
    ],
  },
});
