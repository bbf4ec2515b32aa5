import { defineConfig } from '@playwright/test';

// Debian's Chromium, never a downloaded browser (no network here). The web server is the
// production build (`next start`) on the embedded database, seeded from blueprints/ and
// with the demo runs (ASSAY_SEED_DEMO).
const PORT = Number(process.env.E2E_PORT ?? 3100);

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  timeout: 60_000,
  retries: process.env.CI ? 1 : 0,
  // Two files at a time: about half of the specs start an app of their own (its start-up, seeding
  // and the CLI runs they make are mostly waits on other processes), each on its own port and
  // database, so a second worker fills the first one's waits.
  workers: Number(process.env.E2E_WORKERS) || 2,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
  webServer: {
    command: `node --import tsx scripts/launch.ts next start`,
    url: `http://127.0.0.1:${PORT}`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(PORT),
      ASSAY_DATA_DIR: 'memory://',
      // demo blueprints with completed runs, a live run, sealed prompts and a hostile reply (lib/server/db/seed)
      ASSAY_SEED_DEMO: '1',
      NEXT_TELEMETRY_DISABLED: '1',
      ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
    },
  },
});
