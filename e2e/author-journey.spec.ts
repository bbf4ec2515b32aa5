/**
 * The authoring workflow as one author's journey, on the production build (`next start` of its
 * own, configured as a GitHub App) against the fake GitHub (sign-in, the repository, signed
 * webhooks back to the app) and the fake LLM server (which counts calls). The author signs in,
 * starts from an example, makes a mistake in the editor and sees it underlined at its line:col
 * within 300 ms of the keystroke (timed in the page), fixes it, edits a point in the form view
 * (that line only changes, the comment stays), runs "try it" within the budget (the fake's count
 * is the run's), is refused a second run over budget, opens a pull request — the fake records the
 * fork, the branch, the commit with exactly the edited file, and the pull request whose
 * description links the try-it run — and sees Assay's validation check. The draft run is marked
 * as one, on no public list, and another signed-in reader gets a 404 for it. Screenshots of each
 * step to ASSAY_SCREENS_DIR (default test-results/author-journey) and /work/shots/journey when it
 * exists.
 */
import { expect, test } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { changedLines, placeOf, shooter, signIn, timeUntilAfterKey } from './author-kit';
import { type AppServer, FAKE_APP_BOT, fakeGitHubEnv, specGitHubApp, startAppServer } from './app-server';
import { FakeGitHub } from '@/testing/fakes/github-server';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';

const PORT = Number(process.env.E2E_JOURNEY_PORT ?? 4210);
const LLM_PORT = Number(process.env.E2E_JOURNEY_LLM_PORT ?? 4211);
const GITHUB_PORT = Number(process.env.E2E_JOURNEY_GITHUB_PORT ?? 4212);
const BASE = `http://127.0.0.1:${PORT}`;
const WEBHOOK_SECRET = 'e2e-webhook-secret-journey';
// Assay as a GitHub App, the only way it gets check runs (docs/github.md)
const GITHUB_APP = specGitHubApp();
const EXAMPLE = 'weather-tool-call.yml';
const shot = shooter(process.env.ASSAY_SCREENS_DIR ?? 'test-results/author-journey', ...(existsSync('/work/shots') ? ['/work/shots/journey'] : []));

let gh: FakeGitHub;
let llm: FakeLlm;
let app: AppServer;

test.use({ baseURL: BASE });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  llm = await startFakeLlm({ port: LLM_PORT, rules: [{ lastUser: 'JSON object', reply: '{"city": "Lisbon", "country": "Portugal"}' }] });
  gh = await FakeGitHub.start({
    port: GITHUB_PORT,
    app: GITHUB_APP.fake,
    files: { 'README.md': '# blueprints' },
    webhook: { url: `${BASE}/api/webhooks/github`, secret: WEBHOOK_SECRET },
    oauth: { clientId: 'e2e-journey-client', clientSecret: 'e2e-journey-secret' },
  });
  app = startAppServer({
    port: PORT,
    env: {
      ASSAY_DATA_DIR: 'memory://',
      ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
      ASSAY_PUBLIC_URL: BASE,
      ...fakeGitHubEnv(gh, { app: GITHUB_APP, webhookSecret: WEBHOOK_SECRET, oauth: { clientId: 'e2e-journey-client', clientSecret: 'e2e-journey-secret' } }),
      GITHUB_OAUTH_URL: gh.url,
      ASSAY_TOKEN_KEY: 'cd'.repeat(32),
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

test('an author signs in, writes, fixes, edits in the form, tries the draft on a budget, opens a pull request and sees its check', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const example = readFileSync(`blueprints/examples/${EXAMPLE}`, 'utf8');
  const yamlOf = async () => (await page.getByTestId('author-yaml').textContent()) ?? '';

  // 1. sign in with GitHub, start from an example
  await signIn(page, gh.url, 'amy');
  await page.goto('/author');
  await page.getByRole('link', { name: EXAMPLE }).click();
  await expect(page).toHaveURL(`${BASE}/author?example=${EXAMPLE}`);
  await expect(page.getByTestId('author-editor-host')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('problems-summary')).toHaveText('none: the blueprint is valid');
  expect(await yamlOf()).toBe(example);
  await shot(page, '1-signed-in-example');

  // 2. the mistake: line 40 `- $is_json: true` becomes `truex`, timed in the page from the keystroke to the underline
  // (CodeMirror draws only the lines in view: go to the end first, then click on the line)
  await page.getByTestId('author-editor').click();
  await page.keyboard.press('Control+End');
  await page.locator('.cm-line', { hasText: '$is_json: true' }).click({ timeout: 5000 });
  await page.keyboard.press('End');
  const underlineMs = await timeUntilAfterKey(page, '.cm-lintRange-error');
  await page.keyboard.type('x');
  const ms = await underlineMs();
  console.log(`keystroke → underline: ${ms.toFixed(0)} ms`);
  expect(ms).toBeLessThan(300);
  expect(await placeOf(page, '.cm-lintRange-error')).toEqual({ line: 40, col: 19, text: 'truex' });
  await expect(page.getByTestId('problem')).toHaveText(/error 40:19 \$is_json got a string, which is not a valid argument/);
  await shot(page, '2-mistake-underlined');

  // 3. the fix: the text is the example's again
  await page.keyboard.press('Backspace');
  await expect(page.getByTestId('problems-summary')).toHaveText('none: the blueprint is valid');
  await expect(page.locator('.cm-lintRange-error')).toHaveCount(0);
  expect(await yamlOf()).toBe(example);
  await shot(page, '3-fixed');

  // 4. the form view: the tool-call count's range [1, 2] becomes [1, 3], on that line only; the comment stays
  const args = page.getByTestId('form-view').getByLabel('Arguments of point 2 in prompt weather-lisbon');
  await expect(args).toHaveValue('[1,2]');
  await args.fill('[1, 3]');
  await args.press('Enter');
  await expect.poll(yamlOf).not.toBe(example);
  const edited = await yamlOf();
  expect(changedLines(example, edited)).toEqual([{ line: 36, before: '      - $tool_call_count_between: [1, 2]', after: expect.stringMatching(/^ {6}- \$tool_call_count_between: \[ ?1, 3 ?\]$/) }]);
  expect(edited.split('\n')[0]).toBe('# yaml-language-server: $schema=../../schema/blueprint.json');
  await expect(page.locator('.cm-content')).toContainText(/\$tool_call_count_between: \[ ?1, 3 ?\]/);
  await expect(page.getByTestId('problems-summary')).toHaveText('none: the blueprint is valid');
  await shot(page, '4-form-edit');

  // 5. try it within the budget: 2 prompts × 1 model, no judged point — exactly 2 calls reach the provider
  const tryIt = page.getByTestId('try-it-panel');
  await expect(tryIt.getByTestId('try-allowance')).toContainText('3 of 3 calls left today');
  await expect(tryIt.getByLabel('openai:model-a')).toBeChecked();
  expect(llm.calls()).toBe(0);
  await tryIt.getByRole('button', { name: 'Run the draft' }).click();
  await expect(tryIt.getByTestId('progress-status')).toContainText(/^Completed/i, { timeout: 30_000 });
  await expect(tryIt.getByTestId('try-allowance')).toContainText('1 of 3 calls left today', { timeout: 10_000 });
  expect(llm.calls()).toBe(2);
  const runUrl = (await tryIt.getByTestId('try-run-link').getAttribute('href'))!;
  expect(runUrl).toMatch(/^\/runs\/[^/]+/);
  await shot(page, '5-tried-within-budget');

  // 6. a second run is over the budget: refused, saying why and when it resets; no call made
  await tryIt.getByRole('button', { name: 'Run the draft' }).click();
  await expect(tryIt.getByTestId('try-problem')).toHaveText(
    /^This draft needs at least 2 calls \(2 prompts × 1 model, before judging\) and 1 is left today: pick fewer models or prompts\. Used so far: 2 of 3 calls and \$0\.\d{4} of \$1\.00\. It resets at \d{4}-\d\d-\d\d 00:00 UTC \(in \d+ (h \d+ )?min\)\.$/,
  );
  expect(llm.calls()).toBe(2);
  await shot(page, '6-over-budget-refused');

  // 7. the draft run's results: marked as a draft, on no public list, nobody else's to see
  await page.goto(runUrl);
  await expect(page.getByTestId('draft-banner')).toContainText('Draft run');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Tool calls and structured output');
  await shot(page, '7-draft-run-results');
  await page.goto('/');
  await expect(page.locator(`a[href^="${runUrl}"]`)).toHaveCount(0);
  const other = await browser.newContext({ baseURL: BASE });
  const eve = await other.newPage();
  await signIn(eve, gh.url, 'eve');
  expect((await eve.goto(runUrl))?.status()).toBe(404);
  await shot(eve, '7b-other-reader-404');
  expect((await eve.request.get(`/api/runs/${runUrl.split('/')[2]}/progress`)).status()).toBe(404);
  await other.close();

  // back to the draft: the account has it, edited
  await page.goto(`/author?example=${EXAMPLE}`);
  await expect(page.getByTestId('draft-restored')).toContainText('Restored your draft from your account');
  await expect.poll(yamlOf).toBe(edited);

  // 8. connect GitHub for the pull request (public_repo asked only here), then open it
  const pr = page.getByTestId('open-pr-panel');
  gh.browserUser = 'amy';
  await pr.getByTestId('connect-github').click();
  await expect(page).toHaveURL(`${BASE}/author?example=${EXAMPLE}`);
  await expect(pr.getByTestId('github-connected')).toHaveText('GitHub connected as amy.');
  // the draft came back from the account after the round trip to GitHub, edited, not the example
  await expect.poll(yamlOf).toBe(edited);
  await expect(pr.getByLabel('File path')).toHaveValue(`blueprints/${EXAMPLE}`);
  await shot(page, '8-github-connected');
  const before = gh.requests.length;
  await pr.getByRole('button', { name: 'Open pull request' }).click();
  await expect(pr.getByTestId('pr-link')).toBeVisible({ timeout: 30_000 });
  const pull = [...gh.pulls.values()].find((p) => p.author === 'amy')!;
  await expect(pr.getByTestId('pr-link')).toHaveAttribute('href', `https://github.com/weval-org/configs/pull/${pull.number}`);
  await shot(page, '9-pull-request-opened');

  // what the fake GitHub recorded: the fork, the branch, the commit with exactly the edited file, the pull request
  const target = `blueprints/${EXAMPLE}`;
  const writes = gh.requests.slice(before).filter((r) => r.method !== 'GET' && r.by === 'amy').map((r) => ({ ...r, path: decodeURIComponent(r.path) }));
  expect(writes.map((w) => `${w.method} ${w.path} ${w.status}`)).toEqual([
    'POST /repos/weval-org/configs/forks 202',
    'POST /repos/amy/configs/git/refs 201',
    `PUT /repos/amy/configs/contents/${target} 201`,
    'POST /repos/weval-org/configs/pulls 201',
  ]);
  expect(gh.forks.has('amy')).toBe(true);
  const put = writes[2]!.body as { content: string; branch: string };
  expect(Buffer.from(put.content, 'base64').toString('utf8')).toBe(edited);
  expect(pull).toMatchObject({ headOwner: 'amy', headRef: put.branch, baseRef: 'main' });
  const blob = gh.git.commits.get(pull.headSha)!.files.get(target)!;
  expect(gh.git.blobs.get(blob)!.toString('utf8')).toBe(edited);
  expect(pull.body).toMatch(/- 2 prompts, \d+ points/);
  expect(pull.body).toContain(`- Try-it results: [the draft's run](${BASE}${runUrl})`);

  // 10. Assay's validation of the pull request (webhook → check run), shown on the page
  await expect(pr.getByTestId('pr-final')).toBeVisible({ timeout: 60_000 });
  await expect(pr.getByTestId('pr-checks')).toContainText('Assay: blueprints: success');
  expect(gh.checkRunsFor(pull.headSha)).toMatchObject([{ name: 'Assay: blueprints', conclusion: 'success', by: FAKE_APP_BOT }]);
  await shot(page, '10-validation-check');
});
