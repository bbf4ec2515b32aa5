/**
 * Token-only mode (docs/github.md) as its users see it, on the production build: `next start`
 * with GITHUB_TOKEN and no GitHub App, against the fake GitHub, which like GitHub refuses check
 * runs to a token. A broken pull request gets Assay's comment with the error at its line and
 * column (posted as the token's account), settles as invalid on the admin page and on its own
 * page (never stuck "validating"), and Assay asks for no check run at all; a fixing push edits
 * the same comment and the pull request settles as awaiting approval. An author's pull request
 * opened from /author, which has no check run to wait for, is final in the panel once Assay's
 * state has settled.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { type AppServer, fakeGitHubEnv, startAppServer } from './app-server';
import { FakeGitHub } from '@/testing/fakes/github-server';

const PORT = Number(process.env.E2E_TOKEN_ONLY_PORT ?? 3120);
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN_TOKEN = 'e2e-admin-token-token-only-0123456789';
const WEBHOOK_SECRET = 'e2e-webhook-secret-token-only';
const GITHUB_TOKEN = 'ghp_e2e_fake_token_token_only';
/** The account the fake GitHub gives a plain token: Assay's comments are posted as it. */
const TOKEN_ACCOUNT = 'assay-bot';
const OAUTH = { clientId: 'e2e-token-only-client', clientSecret: 'e2e-token-only-secret' };
const EXAMPLE = 'multi-turn-support.yml';

const GOOD = 'title: Greetings\ndescription: Says hello\nmodels: [openai:gpt-4o-mini]\n---\n- id: hi\n  prompt: Say hello\n  should:\n    - $icontains: hello\n';
const BROKEN = GOOD.replace('$icontains: hello', '$no_such_function: hello');

let gh: FakeGitHub;
let app: AppServer;

const waitFor = <T>(what: string, probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs?: number) => app.waitFor(what, probe, { timeoutMs });

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: BASE });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  gh = await FakeGitHub.start({ token: GITHUB_TOKEN, files: { 'blueprints/greet.yml': GOOD, 'README.md': '# blueprints' }, webhook: { url: `${BASE}/api/webhooks/github`, secret: WEBHOOK_SECRET }, oauth: OAUTH });
  app = startAppServer({
    port: PORT,
    env: {
      ASSAY_DATA_DIR: 'memory://',
      ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
      ASSAY_PUBLIC_URL: BASE,
      ASSAY_ADMIN_TOKEN: ADMIN_TOKEN,
      ...fakeGitHubEnv(gh, { token: GITHUB_TOKEN, webhookSecret: WEBHOOK_SECRET, oauth: OAUTH }),
      GITHUB_OAUTH_URL: gh.url,
      ASSAY_TOKEN_KEY: 'ef'.repeat(32),
    },
  });
  await app.ready('/');
});

test.afterAll(async () => {
  await app?.stop();
  await gh?.close();
});

async function signInAsAdmin(page: Page) {
  await page.goto('/admin/sign-in');
  await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('signed-in-as')).toBeVisible();
}

/** The admin page's "Pull requests" row of the pull request at `headSha` (one row per pushed head). */
function adminRow(page: Page, headSha: string): Locator {
  return page.getByRole('table', { name: 'Pull requests' }).getByRole('row').filter({ hasText: headSha.slice(0, 7) });
}

test('with GITHUB_TOKEN alone, a broken pull request gets Assay’s comment and settles; a fix edits the comment', async ({ page }) => {
  test.setTimeout(120_000);
  const pr = await gh.openPullRequest({ author: 'eve', title: 'Broken blueprint', changes: { 'blueprints/e2e/broken.yml': BROKEN } });
  expect(pr.delivery?.status).toBe(200);

  // the pull request's author sees Assay's comment, with the error where it is
  const comment = await waitFor('Assay’s comment', () => gh.commentsOn(pr.number).find((c) => c.user === TOKEN_ACCOUNT));
  expect(comment.body).toContain(`blueprint check at ${pr.headSha.slice(0, 7)}`);
  expect(comment.body).toContain('blueprints/e2e/broken.yml:8:7');
  expect(comment.body).toContain('fix them and push again');
  // no check run, nor any attempt at one: GitHub would refuse it to a token
  expect(gh.checkRunsFor(pr.headSha)).toEqual([]);
  expect(gh.requests.filter((r) => r.path.includes('/check-runs'))).toEqual([]);
  expect(app.log()).toContain('checked by comment only');

  // settled, not "validating": on the admin page and on the pull request's own page
  await signInAsAdmin(page);
  await page.goto('/admin');
  const row = adminRow(page, pr.headSha);
  await expect(row).toContainText('Broken blueprint');
  await expect(row.getByRole('cell').nth(4)).toHaveText('invalid');
  await page.screenshot({ path: 'test-results/token-only-admin.png', fullPage: true });
  expect((await page.goto(`/pull-requests/${pr.number}`))?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Pull request #${pr.number}: Broken blueprint`);
  await expect(page.getByText(`checked at ${pr.headSha.slice(0, 7)} (invalid)`)).toBeVisible();
  await expect(page.locator('pre')).toContainText('blueprints/e2e/broken.yml:8:7:');

  // the author fixes it: the same comment, edited in place, says every file is valid
  const fix = await gh.pushToPullRequest(pr.number, { 'blueprints/e2e/broken.yml': GOOD });
  expect(fix.delivery?.status).toBe(200);
  await waitFor('the comment to be edited for the fix', () => gh.commentsOn(pr.number).find((c) => c.id === comment.id && c.body.includes(`blueprint check at ${fix.headSha.slice(0, 7)}`)));
  const assays = gh.commentsOn(pr.number).filter((c) => c.user === TOKEN_ACCOUNT);
  expect(assays).toHaveLength(1);
  expect(assays[0]!.body).toContain('Every file is valid');
  expect(gh.requests.filter((r) => r.path.includes('/check-runs'))).toEqual([]);
  await expect(async () => {
    await page.goto('/admin');
    await expect(adminRow(page, fix.headSha).getByRole('cell').nth(4)).toHaveText('awaiting approval', { timeout: 2000 });
  }).toPass({ timeout: 60_000 });
});

test('an author’s pull request from /author is final in the panel without any check run', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto(`/author?example=${EXAMPLE}`);
  const panel = page.getByTestId('open-pr-panel');
  gh.browserUser = 'amy';
  await panel.getByTestId('connect-github').click();
  await expect(panel.getByTestId('github-connected')).toHaveText('GitHub connected as amy.');
  await panel.getByRole('button', { name: 'Open pull request' }).click();
  await expect(panel.getByTestId('pr-link')).toBeVisible({ timeout: 30_000 });
  const pull = [...gh.pulls.values()].find((p) => p.author === 'amy')!;

  await expect(panel.getByTestId('pr-final')).toBeVisible({ timeout: 60_000 });
  await expect(panel.getByTestId('pr-assay-state')).toHaveText('Assay: awaiting approval');
  await page.screenshot({ path: 'test-results/token-only-author-panel.png', fullPage: true });
  expect(gh.checkRunsFor(pull.headSha)).toEqual([]);
  expect(gh.commentsOn(pull.number).filter((c) => c.user === TOKEN_ACCOUNT).map((c) => c.body)).toEqual([expect.stringContaining('Every file is valid')]);
});
