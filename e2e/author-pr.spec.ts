/**
 * "Open a pull request" from /author against the production build: `next start` of its own,
 * configured as a GitHub App for a repository on the fake GitHub (which delivers signed webhooks
 * back to the app). An author starts from an example, connects GitHub (OAuth asking for public_repo), is
 * stopped from overwriting an existing file, opens the pull request — the fake records the
 * fork, the branch, the commit with the exact file and the pull request — and sees Assay's
 * validation check on the page.
 */
import { expect, test } from '@playwright/test';
import { mkdir, readFile } from 'node:fs/promises';
import { type AppServer, FAKE_APP_BOT, fakeGitHubEnv, specGitHubApp, startAppServer } from './app-server';
import { FakeGitHub } from '@/testing/fakes/github-server';

const PORT = Number(process.env.E2E_AUTHOR_PR_PORT ?? 3900);
const GITHUB_PORT = Number(process.env.E2E_AUTHOR_PR_GITHUB_PORT ?? 3901);
const BASE = `http://127.0.0.1:${PORT}`;
const WEBHOOK_SECRET = 'e2e-webhook-secret-author-pr';
// Assay as a GitHub App, the only way it gets check runs (docs/github.md)
const GITHUB_APP = specGitHubApp();
const EXAMPLE = 'multi-turn-support.yml';
const SHOTS = process.env.ASSAY_SCREENS_DIR ?? 'test-results/author-pr';
const EXISTING = 'title: Existing\nmodels: [openai:gpt-4o-mini]\n---\n- id: hi\n  prompt: Say hello\n  should:\n    - $icontains: hello\n';

let gh: FakeGitHub;
let app: AppServer;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await mkdir(SHOTS, { recursive: true });
  gh = await FakeGitHub.start({
    port: GITHUB_PORT,
    app: GITHUB_APP.fake,
    files: { 'README.md': '# blueprints', 'blueprints/existing.yml': EXISTING },
    webhook: { url: `${BASE}/api/webhooks/github`, secret: WEBHOOK_SECRET },
    oauth: { clientId: 'e2e-author-client', clientSecret: 'e2e-author-secret' },
  });
  app = startAppServer({
    port: PORT,
    env: {
      ASSAY_DATA_DIR: 'memory://',
      ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
      ASSAY_PUBLIC_URL: BASE,
      ...fakeGitHubEnv(gh, { app: GITHUB_APP, webhookSecret: WEBHOOK_SECRET, oauth: { clientId: 'e2e-author-client', clientSecret: 'e2e-author-secret' } }),
      GITHUB_OAUTH_URL: gh.url,
      ASSAY_TOKEN_KEY: 'ab'.repeat(32),
    },
  });
  await app.ready('/');
});

test.afterAll(async () => {
  await app?.stop();
  await gh?.close();
});

test.use({ baseURL: BASE });

test('an author connects GitHub, opens a pull request with the example, and sees its validation check', async ({ page, context }) => {
  test.setTimeout(120_000);
  const example = await readFile(`blueprints/examples/${EXAMPLE}`, 'utf8');
  await page.goto(`/author?example=${EXAMPLE}`);
  const panel = page.getByTestId('open-pr-panel');
  const connect = panel.getByTestId('connect-github');
  await expect(connect).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Open pull request' })).toBeDisabled();
  await page.screenshot({ path: `${SHOTS}/1-not-connected.png`, fullPage: true });

  // GitHub's consent (the fake's sign-in page), asking for public_repo, then back to the draft
  gh.browserUser = 'amy';
  await connect.click();
  await expect(page).toHaveURL(`${BASE}/author?example=${EXAMPLE}`);
  await expect(panel.getByTestId('github-connected')).toHaveText('GitHub connected as amy.');
  const authorize = gh.requests.find((r) => r.path === '/login/oauth/authorize');
  expect(authorize).toBeTruthy();
  // the token stayed on the server: no cookie or page holds it
  const cookies = await context.cookies();
  expect(cookies.some((c) => c.value.startsWith('gho_'))).toBe(false);
  expect(await page.content()).not.toContain('gho_');
  await page.screenshot({ path: `${SHOTS}/2-connected.png`, fullPage: true });

  // an existing file is not replaced without saying so, and nothing is made on GitHub
  const path = panel.getByLabel('File path');
  await expect(path).toHaveValue(`blueprints/${EXAMPLE}`);
  await path.fill('blueprints/../x.yml');
  await expect(panel.getByRole('alert')).toContainText('may not contain ".."');
  await path.fill('blueprints/existing.yml');
  const before = gh.requests.length;
  await panel.getByRole('button', { name: 'Open pull request' }).click();
  await expect(panel.getByTestId('pr-error')).toContainText('blueprints/existing.yml already exists on weval-org/configs@main');
  expect(gh.requests.slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
  expect(gh.forks.has('amy')).toBe(false);
  await page.screenshot({ path: `${SHOTS}/3-exists.png`, fullPage: true });

  // a new path, while GitHub's rate limit for amy is used up: the reset time, nothing lost
  const target = 'blueprints/community/multi-turn-support.yml';
  await path.fill(target);
  await panel.getByLabel('Pull request title').fill('Add a multi-turn support blueprint');
  gh.rateLimitedUntil = Math.floor(Date.now() / 1000) + 90;
  await panel.getByRole('button', { name: 'Open pull request' }).click();
  await expect(panel.getByTestId('pr-error')).toContainText(`GitHub's rate limit for your account is used up until ${new Date(gh.rateLimitedUntil * 1000).toISOString().slice(11, 19)} UTC`);
  expect(gh.pulls.size).toBe(0);
  expect(await page.getByTestId('author-yaml').textContent()).toBe(example);
  await page.screenshot({ path: `${SHOTS}/3b-rate-limited.png`, fullPage: true });

  // the limit resets: the same button opens the pull request
  gh.rateLimitedUntil = null;
  await panel.getByRole('button', { name: 'Open pull request' }).click();
  const link = panel.getByTestId('pr-link');
  await expect(link).toBeVisible({ timeout: 30_000 });
  const pull = [...gh.pulls.values()].find((p) => p.title === 'Add a multi-turn support blueprint')!;
  await expect(link).toHaveAttribute('href', `https://github.com/weval-org/configs/pull/${pull.number}`);
  await page.screenshot({ path: `${SHOTS}/4-opened.png`, fullPage: true });

  // what the fake GitHub recorded: the branch in the fork, the commit with the exact file, the PR
  const mirror = (await page.getByTestId('author-yaml').textContent()) ?? '';
  expect(mirror).toBe(example);
  const writes = gh.requests.filter((r) => r.method !== 'GET' && r.by === 'amy').map((r) => ({ ...r, path: decodeURIComponent(r.path) }));
  expect(writes.map((w) => `${w.method} ${w.path} ${w.status}`)).toEqual([
    'POST /repos/weval-org/configs/forks 202',
    'POST /repos/amy/configs/git/refs 201',
    `PUT /repos/amy/configs/contents/${target} 201`,
    'POST /repos/weval-org/configs/pulls 201',
  ]);
  const put = writes[2]!.body as { content: string; branch: string };
  expect(Buffer.from(put.content, 'base64').toString('utf8')).toBe(example);
  expect(put.branch).toMatch(/^assay\/multi-turn-support-[0-9a-f]{8}$/);
  expect(pull).toMatchObject({ author: 'amy', headOwner: 'amy', headRef: put.branch, baseRef: 'main' });
  const blob = gh.git.commits.get(pull.headSha)!.files.get(target)!;
  expect(gh.git.blobs.get(blob)!.toString('utf8')).toBe(example);
  expect(pull.body).toMatch(/\d+ prompts?, \d+ points?/);

  // the existing flow takes over: the webhook, Assay's validation, its check run, shown here
  await expect(panel.getByTestId('pr-final')).toBeVisible({ timeout: 60_000 });
  await expect(panel.getByTestId('pr-checks')).toContainText('Assay: blueprints: success');
  await expect(panel.getByTestId('pr-assay-state')).toHaveText('Assay: awaiting approval');
  expect(gh.checkRunsFor(pull.headSha)).toMatchObject([{ name: 'Assay: blueprints', conclusion: 'success', by: FAKE_APP_BOT }]);
  await page.screenshot({ path: `${SHOTS}/5-checked.png`, fullPage: true });
});
