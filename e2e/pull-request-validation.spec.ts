/**
 * Hostile pull requests against the production build: `next start` configured as a GitHub App
 * for a repository on the fake GitHub, which delivers signed webhooks to /api/webhooks/github. A
 * pull request with a 469-byte alias bomb and 10,000-deep JSON is checked in the validation
 * worker (bundled by `next build`: this is the test that the worker file resolves there), the
 * App's check run fails with each problem at its line and column, and the server keeps answering
 * pages while it checks.
 */
import { expect, test } from '@playwright/test';
import { type AppServer, FAKE_APP_BOT, fakeGitHubEnv, specGitHubApp, startAppServer } from './app-server';
import { FakeGitHub } from '@/testing/fakes/github-server';
import { hostileBlueprints } from '@/lib/core';

// a port of its own: specs run side by side (two workers), each spec-owned app on its own port
const PORT = Number(process.env.E2E_PR_VALIDATION_PORT ?? 3115);
const BASE = `http://127.0.0.1:${PORT}`;
const WEBHOOK_SECRET = 'e2e-webhook-secret-validation';
// Assay as a GitHub App, the only way it gets check runs (docs/github.md)
const GITHUB_APP = specGitHubApp();
const GOOD = 'title: Greetings\nmodels: [openai:gpt-4o-mini]\n---\n- id: hi\n  prompt: Say hello\n  should:\n    - $icontains: hello\n';

let gh: FakeGitHub;
let app: AppServer;

const waitFor = <T>(what: string, probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs?: number) => app.waitFor(what, probe, { timeoutMs, intervalMs: 100 });

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  gh = await FakeGitHub.start({ app: GITHUB_APP.fake, files: { 'blueprints/greet.yml': GOOD, 'README.md': '# blueprints' }, webhook: { url: `${BASE}/api/webhooks/github`, secret: WEBHOOK_SECRET } });
  app = startAppServer({
    port: PORT,
    env: {
      ASSAY_DATA_DIR: 'memory://',
      ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
      ASSAY_PUBLIC_URL: BASE,
      ...fakeGitHubEnv(gh, { app: GITHUB_APP, webhookSecret: WEBHOOK_SECRET }),
    },
  });
  await app.ready('/');
});

test.afterAll(async () => {
  await app?.stop();
  await gh?.close();
});

test('a pull request with an alias bomb and 10,000-deep JSON fails its check at line:col, and the server keeps answering', async () => {
  // a first pull request starts the server's validation worker
  const warm = await gh.openPullRequest({ author: 'eve', title: 'Add a greeting', changes: { 'blueprints/hello.yml': GOOD } });
  expect(warm.delivery?.status).toBe(200);
  const warmCheck = await waitFor('the first check', () => gh.checkRunsFor(warm.headSha).find((c) => c.status === 'completed'));
  expect(warmCheck).toMatchObject({ conclusion: 'success', output: expect.objectContaining({ title: '1 file valid' }) });

  const t0 = Date.now();
  const pr = await gh.openPullRequest({
    author: 'eve',
    title: 'Laughs',
    changes: { 'blueprints/bomb.yml': hostileBlueprints.ALIAS_BOMB_469, 'blueprints/deep.json': hostileBlueprints.deepJson(10_000) },
  });
  expect(pr.delivery?.status).toBe(200);
  // while it is checked: pages are served
  const pages: number[] = [];
  for (let i = 0; i < 3; i++) {
    const s = Date.now();
    const res = await fetch(`${BASE}/`);
    expect(res.status).toBe(200);
    pages.push(Date.now() - s);
  }
  const check = await waitFor('the check of the hostile pull request', () => gh.checkRunsFor(pr.headSha).find((c) => c.status === 'completed'), 30_000);
  console.log(`hostile PR: check completed ${Date.now() - t0} ms after the push; pages meanwhile in ${pages.join(', ')} ms`);
  expect(check).toMatchObject({ conclusion: 'failure', by: FAKE_APP_BOT, output: expect.objectContaining({ title: '2 errors in 2 files' }) });
  expect(check.output.summary).toContain('blueprints/bomb.yml:7:8: the file expands to more than 100,000 values (lists, mappings and scalars) while expanding the alias `*e`');
  expect(check.output.summary).toContain('blueprints/deep.json:1:98: lists and mappings are nested more than 64 deep here');
  expect(check.annotations.map((a) => [a.path, a.start_line, a.start_column])).toEqual([
    ['blueprints/bomb.yml', 7, 8],
    ['blueprints/deep.json', 1, 98],
  ]);
  expect(app.log()).not.toMatch(/Cannot find module|validation stopped/);
});
