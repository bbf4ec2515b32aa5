/**
 * The browser editor (issue 16), end to end: `next start` of its own (a blueprint folder with
 * an example and a blueprint with a sealed prompt) against the fake GitHub for sign-in. An
 * author signs in, starts from an example, makes a mistake and sees it underlined at its
 * line:col within 300 ms of the keystroke (timed in the page), reads the hint on hover and in
 * the problems list, jumps to it, fixes it while a save fails and is retried, reloads and gets
 * the draft back; "Edit a copy" opens a blueprint without its sealed prompt.
 */
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { placeOf, signIn, timeUntilAfterKey } from './author-kit';
import { startAppServer, type AppServer } from './app-server';
import { FakeGitHub } from '@/testing/fakes/github-server';

const PORT = Number(process.env.E2E_AUTHOR_PORT ?? 3601);
const BASE = `http://127.0.0.1:${PORT}`;
const SHOTS = process.env.ASSAY_SCREENS_DIR ?? 'test-results/author-editor';
const EXAMPLE = 'medical-facts-weights.yml';
const SEALED = `title: Sealed demo
models: [openai:gpt-4o-mini]
prompts:
  - id: open-one
    prompt: What is the capital of France?
    should: [Paris]
  - id: sealed-one
    split: test
    prompt: SECRET-QUESTION-7f3a
    should: [SECRET-ANSWER-7f3a]
`;

let gh: FakeGitHub;
let app: AppServer;

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: BASE });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  mkdirSync(SHOTS, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'assay-author-'));
  writeFileSync(join(dir, 'sealed-demo.yml'), SEALED);
  writeFileSync(join(dir, EXAMPLE), readFileSync(join('blueprints/examples', EXAMPLE), 'utf8'));
  gh = await FakeGitHub.start({ ...(process.env.E2E_AUTHOR_GITHUB_PORT ? { port: Number(process.env.E2E_AUTHOR_GITHUB_PORT) } : {}), files: { 'README.md': '# none' }, oauth: { clientId: 'e2e-author', clientSecret: 'e2e-author-secret' } });
  app = startAppServer({
    port: PORT,
    env: {
      ASSAY_DATA_DIR: 'memory://',
      ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
      ASSAY_PUBLIC_URL: BASE,
      ASSAY_BLUEPRINTS_DIR: dir,
      GITHUB_OAUTH_CLIENT_ID: 'e2e-author',
      GITHUB_OAUTH_CLIENT_SECRET: 'e2e-author-secret',
      GITHUB_OAUTH_URL: gh.url,
      GITHUB_API_URL: gh.url,
    },
  });
  await app.ready('/author');
});

test.afterAll(async () => {
  await app?.stop();
  await gh?.close();
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
const editorReady = (page: Page) => expect(page.getByTestId('author-editor-host')).toHaveAttribute('data-ready', 'true');

/** Puts the cursor at the end of line `n` (1-based) with the keyboard, as an author would. */
async function goToLineEnd(page: Page, n: number) {
  await page.getByTestId('author-editor').click();
  await page.keyboard.press('Control+Home');
  for (let i = 1; i < n; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('End');
}

test('an author writes in the editor: live problems, hints, a jump, a fix and a draft that survives a failed save and a reload', async ({ page }) => {
  // sign in with GitHub (the fake), then start from an example
  await signIn(page, gh.url, 'ana');
  await page.goto('/author');
  await page.getByRole('link', { name: EXAMPLE }).click();
  await expect(page).toHaveURL(`${BASE}/author?example=${EXAMPLE}`);
  await editorReady(page);
  await expect(page.getByTestId('problems-summary')).toHaveText('none: the blueprint is valid');
  await expect(page.getByTestId('author-yaml')).toContainText('weight: 3\n');
  await shot(page, '1-example');

  // the mistake: `weight: 3` (line 24) becomes `weight: 30`; timed in the page from the keystroke to the underline
  await goToLineEnd(page, 24);
  const underlineMs = await timeUntilAfterKey(page, '.cm-lintRange-error');
  await page.keyboard.type('0');
  const lintMs = await underlineMs();
  console.log(`keystroke → underline: ${lintMs.toFixed(0)} ms`);
  expect(lintMs).toBeLessThan(300);
  expect(await placeOf(page, '.cm-lintRange-error')).toEqual({ line: 24, col: 17, text: '30' });
  await shot(page, '2-mistake-underlined');

  // the message and the hint on hover
  await page.locator('.cm-lintRange-error').hover();
  const tip = page.locator('.cm-tooltip-lint');
  await expect(tip).toContainText("24:17 a point's weight must be a number from 0.1 to 10; found 30");
  await expect(tip).toContainText('Weights are relative');
  await shot(page, '3-hint-on-hover');

  // and in the problems list; a click puts the cursor on it
  await expect(page.getByTestId('problems-summary')).toHaveText('1 error, 0 warnings');
  const problem = page.getByTestId('problem');
  await expect(problem).toHaveCount(1);
  await expect(problem).toContainText("error 24:17 a point's weight must be a number from 0.1 to 10; found 30");
  await expect(problem).toContainText('Weights are relative');
  await page.getByTestId('author-editor').click();
  await page.keyboard.press('Control+Home');
  await problem.click();
  await shot(page, '4-problems-list-jump');

  // the fix, typed at the jumped-to position (select "30", type 2.5), while the account save fails once
  let failed = 0;
  await page.route('**/api/author/drafts', async (route) => {
    if (route.request().method() === 'PUT' && failed === 0) {
      failed++;
      await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { code: 'unavailable', message: 'the database is restarting' } }) });
    } else await route.continue();
  });
  await page.keyboard.press('Shift+End');
  await page.keyboard.type('2.5');
  await expect(page.getByTestId('problems-summary')).toHaveText('none: the blueprint is valid');
  await expect(page.locator('.cm-lintRange-error')).toHaveCount(0);
  await expect(page.getByTestId('draft-status')).toHaveText(/^Not saved to your account: the database is restarting\. Your text is kept in this browser; retrying in 2 s\.$/);
  await expect(page.getByTestId('author-yaml')).toContainText('        weight: 2.5\n');
  await shot(page, '5-fixed-save-failed');
  await expect(page.getByTestId('draft-status')).toHaveText(/^Saved to your account at /, { timeout: 10_000 });
  expect(failed).toBe(1);
  await page.unroute('**/api/author/drafts');

  // hover documentation of a point function, from the registry
  const fnBox = await page.evaluate(() => {
    const line = [...document.querySelectorAll('.cm-line')].find((l) => l.textContent?.includes('$contains_at_least_n_of'))!;
    line.scrollIntoView({ block: 'center' });
    const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const i = n.textContent!.indexOf('contains_at_least');
      if (i < 0) continue;
      const r = document.createRange();
      r.setStart(n, i + 2);
      r.setEnd(n, i + 3);
      const b = r.getBoundingClientRect();
      return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    }
    return null;
  });
  await page.mouse.move(fnBox!.x, fnBox!.y);
  await expect(page.getByTestId('editor-doc')).toContainText('Argument: [integer, string[]]');
  await expect(page.getByTestId('editor-doc')).toContainText('Example: - $contains_at_least_n_of: [2, ["apples", "oranges", "pears"]]');
  await shot(page, '6-function-doc');

  // the account has the draft; a reload restores it
  const list = await page.request.get('/api/author/drafts');
  expect((await list.json()).drafts.map((d: { name: string }) => d.name)).toEqual([`blueprints/${EXAMPLE}`]);
  await page.reload();
  await editorReady(page);
  await expect(page.getByTestId('draft-restored')).toContainText('Restored your draft from your account');
  await expect(page.getByTestId('author-yaml')).toContainText('        weight: 2.5\n');
  await expect(page.locator('.cm-content')).toContainText('weight: 2.5');
  await shot(page, '7-reloaded-draft');

  // the drafts API acts only for requests from our own pages, on valid names
  const cross = await page.request.put('/api/author/drafts', { data: { name: 'blueprints/x.yml', yaml: 'a: 1' }, headers: { origin: 'https://elsewhere.example' } });
  expect(cross.status()).toBe(403);
  const badName = await page.request.put('/api/author/drafts', { data: { name: '../outside.yml', yaml: 'a: 1' }, headers: { origin: BASE } });
  expect(badName.status()).toBe(400);
  expect((await badName.json()).error.message).toMatch(/name/);
  expect((await (await page.request.get('/api/author/drafts')).json()).drafts).toHaveLength(1);
});

test('signed out: completion offers the point functions with their argument shape; the draft stays in the browser', async ({ page }) => {
  expect((await page.request.get('/api/author/drafts')).status()).toBe(401);
  await page.goto(`/author?example=${EXAMPLE}`);
  await editorReady(page);
  await goToLineEnd(page, 34);
  await page.keyboard.press('Enter');
  await page.keyboard.type('- $icontains_a');
  const options = page.locator('.cm-tooltip-autocomplete li');
  await expect(options.first()).toBeVisible();
  await expect(page.locator('.cm-tooltip-autocomplete')).toContainText('$icontains_all_of');
  await expect(page.locator('.cm-tooltip-autocomplete')).toContainText('string[]');
  await shot(page, '8-completion');
  await expect(page.getByTestId('draft-status')).toHaveText(/^Kept in this browser at .*Sign in to keep it in your account\.$/);
  await page.reload();
  await editorReady(page);
  await expect(page.getByTestId('draft-restored')).toContainText('Restored your draft from this browser');
  await expect(page.getByTestId('author-yaml')).toContainText('- $icontains_a');
});

test('"Edit a copy" opens a blueprint in the editor without its sealed prompt', async ({ page }) => {
  await app.waitFor('the local sync', async () => (await fetch(`${BASE}/blueprints/sealed-demo`)).ok);
  await page.goto('/blueprints/sealed-demo');
  await page.getByTestId('edit-copy').click();
  await expect(page).toHaveURL(`${BASE}/author?from=sealed-demo`);
  await editorReady(page);
  await expect(page.getByTestId('author-yaml')).toContainText('What is the capital of France?');
  await expect(page.getByTestId('author-yaml')).toContainText('1 sealed test prompt is hidden here');
  expect(await page.content()).not.toContain('SECRET-');
  await expect(page.getByTestId('problems-summary')).toHaveText('none: the blueprint is valid');
  // a pull request may only add files inside blueprints/: the copy's suggested path is there
  await expect(page.getByTestId('open-pr-panel').getByLabel('File path')).toHaveValue('blueprints/sealed-demo.yml');
  await shot(page, '9-edit-a-copy');
});
