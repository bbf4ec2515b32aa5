import { expect, test } from '@playwright/test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processMemory, processTree, type ProcessMemory } from '../bench/process-memory';
import { freePort, startAppServer, type AppServer } from './app-server';

/** The live descendants of `pid` (not itself), with their command lines. */
function descendants(pid: number): ProcessMemory[] {
  return processTree(pid)
    .filter((p) => p !== pid)
    .flatMap((p) => processMemory(p) ?? []);
}

// `npm run dev` as a newcomer runs it: no DATABASE_URL, a data directory that does not exist yet
test.describe('npm run dev', () => {
  let app: AppServer | null = null;
  let dir = '';
  test.afterEach(async () => {
    await app?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('serves the app from one process, with live reload, on a data directory it creates', async ({ page }) => {
    test.setTimeout(240_000);
    dir = mkdtempSync(join(tmpdir(), 'assay-dev-e2e-'));
    const dataDir = join(dir, 'pglite');
    app = startAppServer({ port: await freePort(), mode: 'dev', env: { ASSAY_DATA_DIR: dataDir, DATABASE_URL: undefined } });
    await app.waitFor('the dev server to listen', () => app!.log().includes('assay: ready on'), { timeoutMs: 180_000 });

    // the new data directory was made and migrated by a child process that has ended
    expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
    expect(existsSync(`${dataDir}.lock.json`)).toBe(true);
    // next's dev server runs in the launcher: no next CLI, no next-server, no other Node process
    // (tsx's esbuild service is the one kind of child it may have)
    const children = descendants(app.process.pid!).filter((p) => !/esbuild.* --service/.test(p.command));
    expect(children, JSON.stringify(children)).toEqual([]);

    const consoleLines: string[] = [];
    page.on('console', (m) => consoleLines.push(m.text()));
    const res = await page.goto(app.url, { timeout: 180_000 });
    // a failing first page says why in the dev server's own words
    expect(res?.status(), app.log().slice(-4000)).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'Blueprints' })).toBeVisible();
    // the browser's live-reload socket reached the in-process dev server
    await expect.poll(() => consoleLines.some((l) => l.includes('[HMR] connected')), { timeout: 30_000 }).toBe(true);

    await app.stop();
    expect(app.process.exitCode).toBe(0);
    // stopped cleanly: the lock that shares the embedded database with the CLI is gone
    expect(existsSync(`${dataDir}.lock.json`)).toBe(false);
    app = null;
  });
});
