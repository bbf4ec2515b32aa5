/**
 * Issue 11, finding 3, over real HTTP: a `next start` of its own (embedded database) syncs a
 * folder holding one blueprint per spelling of `split: test` the parser accepts; the source
 * route and the blueprint page (with its source excerpt) show the visible prompt and a note,
 * and nothing of a sealed one. (Run pages, search, diff, model pages and the progress API are
 * checked over the same spellings by lib/server/db/queries/sealed-views.security.db.test.ts.)
 */
import { expect, test } from '@playwright/test';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blueprintIdFromPath } from '../lib/core';
import { SEALED_SPELLINGS } from '../lib/server/blueprints/sealed-spellings.testkit';
import { freePort, startAppServer, type AppServer } from './app-server';

let app: AppServer;
let dir: string;
let base: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dir = await mkdtemp(join(tmpdir(), 'assay-sealed-'));
  for (const s of SEALED_SPELLINGS) await writeFile(join(dir, s.file), s.text);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  app = startAppServer({ port, env: { ASSAY_DATA_DIR: 'memory://', ASSAY_BLUEPRINTS_DIR: dir, GITHUB_REPOSITORY: '', DATABASE_URL: undefined } });
  await app.ready('/');
});

test.afterAll(async () => {
  await app?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test(`${SEALED_SPELLINGS.length} spellings of split: test are hidden from the source route and the blueprint page`, async ({ page, request }) => {
  expect(app.log()).toContain(`${SEALED_SPELLINGS.length} added`);
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
