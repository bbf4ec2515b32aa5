/**
 * Issue 11, finding 3, over real HTTP: a `next start` of its own (embedded database) syncs a
 * folder holding one blueprint per spelling of `split: test` the parser accepts; the source
 * route and the blueprint page (with its source excerpt) show the visible prompt and a note,
 * and nothing of a sealed one. (Run pages, search, diff, model pages and the progress API are
 * checked over the same spellings by lib/server/db/queries/sealed-views.security.db.test.ts.)
 */
import { expect, test } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blueprintIdFromPath } from '../lib/core';
import { SEALED_SPELLINGS } from '../lib/server/blueprints/sealed-spellings.testkit';

let app: ChildProcess;
let appLog = '';
let dir: string;
let base: string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = await mkdtemp(join(tmpdir(), 'assay-sealed-'));
  for (const s of SEALED_SPELLINGS) await writeFile(join(dir, s.file), s.text);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), ASSAY_DATA_DIR: 'memory://', ASSAY_SEED_DEMO: '', ASSAY_BLUEPRINTS_DIR: dir, NEXT_TELEMETRY_DISABLED: '1', GITHUB_REPOSITORY: '', INNGEST_DEV: '', INNGEST_EVENT_KEY: '' };
  delete env.DATABASE_URL;
  app = spawn(process.execPath, ['--import', 'tsx', 'scripts/launch.ts', 'next', 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  app.stdout?.on('data', (d: Buffer) => (appLog += d.toString()));
  app.stderr?.on('data', (d: Buffer) => (appLog += d.toString()));
  const until = Date.now() + 150_000;
  while (!(await fetch(base).catch(() => null))?.ok) {
    if (app.exitCode !== null || Date.now() > until) throw new Error(`the app did not start:\n${appLog.slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
});

test.afterAll(async () => {
  if (app?.pid && app.exitCode === null) {
    const exited = new Promise((done) => app.once('exit', done));
    app.kill('SIGTERM');
    await exited;
  }
  if (dir) await rm(dir, { recursive: true, force: true });
});

test(`${SEALED_SPELLINGS.length} spellings of split: test are hidden from the source route and the blueprint page`, async ({ page, request }) => {
  expect(appLog).toContain(`${SEALED_SPELLINGS.length} added`);
  for (const s of SEALED_SPELLINGS) {
    const id = blueprintIdFromPath(s.file);
    const source = await request.get(`${base}/blueprints/${id}/source`);
    expect(source.status(), s.name).toBe(200);
    const text = await source.text();
    expect(text, s.name).not.toMatch(/SECRET/);
    expect(text, s.name).toContain('OPEN-visible question');
    expect(text, s.name).toContain(`${s.sealed} sealed test prompt`);

    const res = await page.goto(`${base}/blueprints/${id}`);
    expect(res?.status(), s.name).toBe(200);
    // the whole document, including the serialized data the page hydrates from
    const html = await page.content();
    expect(html, s.name).not.toMatch(/SECRET/);
    expect(html, s.name).toContain('OPEN-visible question');
  }
});
