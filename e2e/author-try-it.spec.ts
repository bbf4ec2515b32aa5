/**
 * Issue 16, "try it" and the browser check, end to end: `next start` (its own instance) against
 * the fake GitHub (sign-in) and the fake LLM server (which counts calls). An author signs in,
 * loads an example, checks a pasted reply in the browser (verdicts, no call), runs the draft
 * within the budget (the fake's count is the run's), sees the draft run's results, is refused a
 * second run over budget with what was used and when it resets; another reader gets a 404.
 * Screenshots of each step to ASSAY_SCREENS_DIR (default test-results/author-try-it).
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { startAppServer, type AppServer } from './app-server';
import { FakeGitHub } from '@/testing/fakes/github-server';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';

const PORT = Number(process.env.E2E_TRYIT_PORT ?? 3810);
const BASE = `http://127.0.0.1:${PORT}`;
const SHOTS = process.env.ASSAY_SCREENS_DIR ?? 'test-results/author-try-it';
const EXAMPLE = 'weather-tool-call.yml';

let gh: FakeGitHub;
let llm: FakeLlm;
let app: AppServer;

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: BASE });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  llm = await startFakeLlm({ port: Number(process.env.E2E_TRYIT_LLM_PORT ?? 3811), rules: [{ lastUser: 'JSON object', reply: '{"city": "Lisbon", "country": "Portugal"}' }] });
  gh = await FakeGitHub.start({ port: Number(process.env.E2E_TRYIT_GITHUB_PORT ?? 3812), files: { 'README.md': 'x' }, oauth: { clientId: 'e2e-client', clientSecret: 'e2e-client-secret' } });
  app = startAppServer({
    port: PORT,
    env: {
      ASSAY_DATA_DIR: 'memory://',
      ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
      ASSAY_PUBLIC_URL: BASE,
      GITHUB_OAUTH_CLIENT_ID: 'e2e-client',
      GITHUB_OAUTH_CLIENT_SECRET: 'e2e-client-secret',
      GITHUB_OAUTH_URL: gh.url,
      GITHUB_API_URL: gh.url,
      ASSAY_LLM_BASE_URL: llm.url,
      ASSAY_JUDGES: 'openai:judge-a',
      // the example has 2 prompts and no judged point: one model is 2 calls; 3 a day leaves 1
      ASSAY_TRY_MODELS: 'openai:model-a,openai:model-b',
      ASSAY_TRY_DAILY_CALLS: '3',
      ASSAY_TRY_DAILY_COST_USD: '1',
    },
  });
  await app.ready('/author');
});

test.afterAll(async () => {
  await app?.stop();
  await Promise.all([llm?.close(), gh?.close()]);
});

async function signIn(page: Page, login: string) {
  await page.goto('/api/auth/github');
  await page.getByLabel('Username').fill(login);
  await page.getByRole('button', { name: 'Authorize' }).click();
  await page.waitForURL((u) => !u.href.startsWith(gh.url));
}

const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

let draftRunUrl = '';

test('an author checks a pasted reply in the browser: every point has a verdict, nothing is called', async ({ page }) => {
  await signIn(page, 'ada');
  await page.goto(`/author?example=${EXAMPLE}`);
  await expect(page.getByTestId('author-yaml')).toContainText('Tool calls and structured output');
  const panel = page.getByTestId('check-panel');
  await panel.getByLabel('Prompt').selectOption('city-json');
  await panel.getByLabel('Reply to check').fill('{"city": "Lisbon", "country": "Portugal"}');
  await panel.getByRole('button', { name: 'Check the reply' }).click();
  const rows = panel.getByTestId('check-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toHaveAttribute('data-status', 'pass'); // $is_json
  await expect(rows.nth(1)).toHaveAttribute('data-status', 'pass'); // $js, in the browser's sandbox
  await shot(page, '1-check-pass');

  await panel.getByLabel('Reply to check').fill('{"city": "Porto", "country": "Portugal"}');
  await panel.getByRole('button', { name: 'Check the reply' }).click();
  await expect(rows.nth(1)).toHaveAttribute('data-status', 'fail');
  await expect(panel.getByRole('status')).toHaveText('1 of 2 checked points pass.');
  await shot(page, '2-check-fail');
  expect(llm.calls()).toBe(0);
});

test('the author runs the draft within the budget; the fake counts the run\'s calls; the results say "Draft run"', async ({ page }) => {
  await signIn(page, 'ada');
  await page.goto(`/author?example=${EXAMPLE}`);
  const panel = page.getByTestId('try-it-panel');
  await expect(panel.getByTestId('try-allowance')).toContainText('3 of 3 calls left today');
  await expect(panel.getByLabel('openai:model-a')).toBeChecked();
  await shot(page, '3-try-before');
  await panel.getByRole('button', { name: 'Run the draft' }).click();
  await expect(panel.getByTestId('try-run')).toBeVisible();
  await expect(panel.getByTestId('progress-status')).toContainText(/^Completed/i, { timeout: 30_000 });
  await expect(panel.getByTestId('try-allowance')).toContainText('1 of 3 calls left today', { timeout: 10_000 });
  // 2 prompts × 1 model, no judged point: exactly 2 calls reached the provider
  expect(llm.calls()).toBe(2);
  await shot(page, '4-try-done');

  draftRunUrl = (await panel.getByTestId('try-run-link').getAttribute('href'))!;
  await page.goto(draftRunUrl);
  await expect(page.getByTestId('draft-banner')).toContainText('Draft run');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Tool calls and structured output');
  await shot(page, '5-draft-run-results');
  // never on a public list: the home page's recent runs do not link it
  await page.goto('/');
  await expect(page.locator(`a[href^="${draftRunUrl}"]`)).toHaveCount(0);
});

test('a second run over budget is refused, saying what was used and when it resets', async ({ page }) => {
  await signIn(page, 'ada');
  await page.goto(`/author?example=${EXAMPLE}`);
  const panel = page.getByTestId('try-it-panel');
  await expect(panel.getByTestId('try-allowance')).toContainText('1 of 3 calls left today');
  await panel.getByRole('button', { name: 'Run the draft' }).click();
  await expect(panel.getByTestId('try-problem')).toHaveText(
    /^This draft needs at least 2 calls \(2 prompts × 1 model, before judging\) and 1 is left today: pick fewer models or prompts\. Used so far: 2 of 3 calls and \$0\.\d{4} of \$1\.00\. It resets at \d{4}-\d\d-\d\d 00:00 UTC \(in \d+ (h \d+ )?min\)\.$/,
  );
  await shot(page, '6-over-budget');
  expect(llm.calls()).toBe(2);
});

test('a reader who is not the author gets a 404 on the draft run page and its API', async ({ browser }: { browser: Browser }) => {
  const other = await browser.newContext({ baseURL: BASE });
  const page = await other.newPage();
  await signIn(page, 'eve');
  const res = await page.goto(draftRunUrl);
  expect(res?.status()).toBe(404);
  await shot(page, '7-other-reader-404');
  const api = await page.request.get(`/api/runs/${draftRunUrl.split('/')[2]}/progress`);
  expect(api.status()).toBe(404);
  await other.close();
});
