/**
 * The admin area and the GitHub loop, end to end: `next start` (its own instance, configured
 * as a GitHub App for a repository) against the fake GitHub server and the fake LLM server, both real
 * HTTP servers started here. Signing in (admin token, GitHub OAuth), sync status after "Sync
 * now", signed webhooks (a wrong signature is refused), a pull request validated, approved
 * from the admin page, run, and answered with a results comment whose link works; a
 * stranger's `/assay run` spends nothing.
 */
import { expect, test, type Page } from '@playwright/test';
import { createHmac } from 'node:crypto';
import { type AppServer, FAKE_APP_BOT, fakeGitHubEnv, specGitHubApp, startAppServer } from './app-server';
import { FakeGitHub } from '@/testing/fakes/github-server';
import { corpusFiles } from '@/testing/fakes/github-server-corpus';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';

const PORT = Number(process.env.E2E_ADMIN_PORT ?? 3110);
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN_TOKEN = 'e2e-admin-token-0123456789abcdef';
const WEBHOOK_SECRET = 'e2e-webhook-secret';
// Assay as a GitHub App, the only way it gets check runs (docs/github.md)
const GITHUB_APP = specGitHubApp();

const GOOD = `title: Greetings
description: Says hello
models: [openai:gpt-4o-mini]
---
- id: hi
  prompt: Say hello
  should:
    - $icontains: hello
    - $js: "return r.length > 0"
`;
const BROKEN = GOOD.replace('$icontains: hello', '$no_such_function: hello');

let gh: FakeGitHub;
let llm: FakeLlm;
let app: AppServer;

/** A few real blueprints and every model collection the fake serves (the Weval corpus's, or without it this repository's examples and two copied collections: github-server-corpus.ts): a small, realistic repository. */
function repository(): Record<string, string> {
  const corpus = corpusFiles();
  const picked = Object.keys(corpus).filter((p) => p.startsWith('models/')).concat(Object.keys(corpus).filter((p) => p.startsWith('blueprints/') && p.endsWith('.yml')).slice(0, 4));
  return { ...Object.fromEntries(picked.map((p) => [p, corpus[p]!])), 'blueprints/e2e/greetings.yml': GOOD, 'README.md': '# blueprints' };
}

const waitFor = <T>(what: string, probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs?: number) => app.waitFor(what, probe, { timeoutMs });

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000); // this hook's own timeout: it starts `next start`
  llm = await startFakeLlm();
  gh = await FakeGitHub.start({
    app: GITHUB_APP.fake,
    files: repository(),
    webhook: { url: `${BASE}/api/webhooks/github`, secret: WEBHOOK_SECRET },
    oauth: { clientId: 'e2e-client', clientSecret: 'e2e-client-secret' },
  });
  gh.setPermission('maria', 'maintain');
  app = startAppServer({
    port: PORT,
    env: {
      ASSAY_DATA_DIR: 'memory://',
      ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
      ASSAY_PUBLIC_URL: BASE,
      ASSAY_ADMIN_TOKEN: ADMIN_TOKEN,
      ...fakeGitHubEnv(gh, { app: GITHUB_APP, webhookSecret: WEBHOOK_SECRET, oauth: { clientId: 'e2e-client', clientSecret: 'e2e-client-secret' } }),
      GITHUB_OAUTH_URL: gh.url,
      ASSAY_MAINTAINER_LOGINS: 'maria',
      ASSAY_PR_MODELS: 'openai:gpt-4o-mini',
      ASSAY_LLM_BASE_URL: llm.url,
      // A pull request's run has a cost cap, so its models and judges need known prices: a judge
      // with none would make the approval refuse to start the run (unpriced-models.ts).
      ASSAY_JUDGES: 'openai:gpt-4.1-mini',
    },
  });
  await app.ready('/admin/sign-in');
});

test.afterAll(async () => {
  await app?.stop();
  await Promise.all([gh?.close(), llm?.close()]);
});

async function signInWithToken(page: Page, token: string) {
  await page.goto('/admin/sign-in');
  await page.getByLabel('Admin token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

test.use({ baseURL: BASE });

test('the admin area and its API need authentication', async ({ page, request }) => {
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin\/sign-in$/);
  for (const [method, path] of [['POST', '/api/admin/sync'], ['POST', '/api/admin/runs'], ['POST', '/api/admin/pull-requests/1/approve'], ['GET', '/api/admin/status']] as const) {
    const res = await request.fetch(path, { method, data: {} });
    expect(res.status(), `${method} ${path}`).toBe(401);
    expect((await res.json()).error.code).toBe('unauthorized');
  }
  const wrong = await request.post('/api/admin/sync', { headers: { authorization: 'Bearer not-the-token' } });
  expect(wrong.status()).toBe(401);
});

test('signing in with the admin token sets a strict, httpOnly session cookie', async ({ page, context }) => {
  await signInWithToken(page, 'a-wrong-token');
  await expect(page.getByTestId('error-banner')).toHaveText('That is not the admin token.');
  await signInWithToken(page, ADMIN_TOKEN);
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByTestId('signed-in-as')).toHaveText('Signed in as ~admin (admin)');
  const cookie = (await context.cookies()).find((c) => c.name === 'assay_session');
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  expect(cookie!.value).toMatch(/^[\w-]{43}$/);
});

test('"Sync now" syncs the repository and the admin page shows its status', async ({ page }) => {
  await signInWithToken(page, ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByTestId('notice-banner')).toHaveText('Sync requested.');
  const sources = page.getByRole('table', { name: 'Sources' });
  await waitFor('the sync to finish', async () => {
    await page.reload();
    return (await sources.count()) > 0 && (await sources.innerText()).includes(gh.head().sha.slice(0, 7));
  });
  await expect(sources).toContainText(`github:${gh.fullName}@main`);
  await expect(sources.locator('tbody tr td').nth(1)).toHaveText('5');
  await expect(page.getByRole('table', { name: 'Recent syncs' }).locator('tbody tr').first()).toContainText('completed');
  await page.screenshot({ path: 'test-results/admin-sync.png', fullPage: true });
});

test('a webhook with a wrong signature is rejected and changes nothing; a signed push syncs', async ({ request, page }) => {
  const body = JSON.stringify({ ref: 'refs/heads/main', after: 'f'.repeat(40), repository: { full_name: gh.fullName } });
  const forged = await request.post('/api/webhooks/github', {
    data: body,
    headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-github-delivery': 'forged-1', 'x-hub-signature-256': `sha256=${createHmac('sha256', 'guess').update(body).digest('hex')}` },
  });
  expect(forged.status()).toBe(401);
  const before = gh.requests.length;
  const { delivery } = await gh.commit({ 'blueprints/e2e/second.yml': GOOD.replace('Greetings', 'Second greetings') }, 'Add a second blueprint');
  expect(delivery?.status).toBe(200);
  expect(JSON.parse(delivery!.response).outcome).toMatch(/^sync requested at /);
  await signInWithToken(page, ADMIN_TOKEN);
  await expect(page.getByTestId('signed-in-as')).toBeVisible(); // the sign-in's navigation first, or the reload below races it
  await waitFor('the pushed commit to be synced', async () => {
    await page.reload();
    return (await page.getByRole('table', { name: 'Sources' }).innerText()).includes(gh.head().sha.slice(0, 7));
  });
  // the forged delivery made no GitHub request; the signed one fetched exactly the new blob
  expect(gh.requests.slice(before).filter((r) => r.path.includes('/git/blobs/'))).toHaveLength(1);
  // a synced blueprint links to its file at the synced commit
  await page.goto('/blueprints/e2e__second');
  await expect(page.getByTestId('source-link')).toHaveAttribute('href', `https://github.com/${gh.fullName}/blob/${gh.head().sha}/blueprints/e2e/second.yml`);
});

test('a broken pull request gets a failing check with the line; a stranger cannot start its run', async () => {
  const broken = await gh.openPullRequest({ author: 'eve', title: 'Broken blueprint', changes: { 'blueprints/e2e/broken.yml': BROKEN } });
  const check = await waitFor('the check run', () => gh.checkRunsFor(broken.headSha).find((c) => c.status === 'completed'));
  expect(check).toMatchObject({ conclusion: 'failure', by: FAKE_APP_BOT });
  expect(check.output.summary).toContain('blueprints/e2e/broken.yml:8:7');

  const pr = await gh.openPullRequest({ author: 'eve', title: 'Nicer greetings', changes: { 'blueprints/e2e/nicer.yml': GOOD.replace('Greetings', 'Nicer greetings') } });
  await waitFor('the validation comment', () => gh.commentsOn(pr.number).some((c) => c.body.includes('Every file is valid')));
  const calls = llm.calls();
  await gh.commentOn(pr.number, 'eve', '/assay run');
  await waitFor('the refusal', () => gh.commentsOn(pr.number).some((c) => c.body.includes('@eve: only collaborators with write permission')));
  expect(llm.calls()).toBe(calls);
});

test('a maintainer approves a pull request from the admin page; the results comment links a working drill-down', async ({ page }) => {
  const pr = await waitFor('the open pull request', () => [...gh.pulls.values()].find((p) => p.title === 'Nicer greetings'));
  await signInWithToken(page, ADMIN_TOKEN);
  const row = page.getByRole('table', { name: 'Pull requests' }).getByRole('row').filter({ hasText: 'Nicer greetings' });
  await expect(row).toContainText('awaiting approval');
  await page.getByRole('button', { name: `Approve run of #${pr.number}` }).click();
  await expect(page.getByTestId('notice-banner')).toHaveText(`Pull request #${pr.number}: 1 run(s) requested.`);
  await expect(page.getByRole('heading', { name: 'Pull requests' })).toBeVisible();
  await page.screenshot({ path: 'test-results/admin-approved.png', fullPage: true });

  const results = await waitFor('the results comment', () => gh.commentsOn(pr.number).find((c) => c.body.startsWith('### Assay results')), 90_000);
  expect(llm.calls()).toBeGreaterThan(0);
  expect(results.body).toContain('`openai:gpt-4o-mini`');
  const link = /\[Open the drill-down\]\(([^)]+)\)/.exec(results.body)![1]!;
  expect(link).toMatch(new RegExp(`^${BASE}/runs/[\\w-]+$`));
  const res = await page.goto(link);
  expect(res?.status()).toBe(200);
  // the drill-down of the pull request's own blueprint, run at the PR's head commit
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Nicer greetings');
  await page.screenshot({ path: 'test-results/admin-pr-run.png', fullPage: true });
});

test('a maintainer can run any blueprint and see jobs and costs', async ({ page }) => {
  await signInWithToken(page, ADMIN_TOKEN);
  await page.getByRole('combobox', { name: 'Blueprint', exact: true }).selectOption('e2e__greetings');
  await page.getByRole('button', { name: 'Run now' }).click();
  await expect(page.getByTestId('notice-banner')).toContainText('of e2e__greetings requested.');
  const runs = page.getByRole('table', { name: 'Recent runs' });
  await expect(runs.getByRole('row').filter({ hasText: 'e2e__greetings' }).filter({ hasText: 'manual' })).toHaveCount(1);
  await expect(runs.getByRole('row').filter({ hasText: /PR #\d+/ })).toHaveCount(1);
  await expect(page.getByRole('list', { name: 'Cost totals' })).toContainText('last 24 h');
  await page.screenshot({ path: 'test-results/admin-jobs.png', fullPage: true });
});

test('rescoring a finished run from the admin page calls no model and links the new run to its parent; a stranger changes nothing', async ({ page, request }) => {
  test.setTimeout(120_000);
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const runCount = async () => Object.values((await (await request.get('/api/admin/status', { headers: admin })).json()).runsByStatus as Record<string, number>).reduce((a, b) => a + b, 0);
  await signInWithToken(page, ADMIN_TOKEN);
  await expect(page.getByTestId('signed-in-as')).toBeVisible(); // the sign-in's navigation first, or the reload below races it
  // the manual run of the test before: rescore it once it has finished
  const option = page.locator('#rescore-run option').filter({ hasText: 'e2e__greetings' }).filter({ hasText: 'completed' });
  await waitFor('a completed run of e2e__greetings to rescore', async () => {
    await page.reload();
    return (await option.count()) > 0;
  }, 90_000);
  const parentId = await option.first().getAttribute('value');
  expect(parentId).toBeTruthy();
  // the run was graded inside next start: its $js point went to the grading worker of the
  // production bundle (lib/server/runs/grading/grading-pool.ts) and scored, not an error
  await page.goto(`/runs/${parentId}/prompts/hi`);
  const js = page.locator('[data-testid="verdict"][data-kind="function"]').filter({ has: page.getByTestId('point-label').filter({ hasText: '$js' }) });
  await expect(js.first()).toBeVisible();
  const statuses = await js.evaluateAll((els) => els.map((e) => e.getAttribute('data-status')));
  expect(statuses.length).toBeGreaterThan(0);
  expect(new Set(statuses)).toEqual(new Set(['pass']));
  await page.goto('/admin');

  // unauthenticated (JSON and a form post with no session): refused, and no run is made
  const runsBefore = await runCount();
  const anonymous = await request.post('/api/admin/runs/rescore', { data: { runId: parentId }, headers: { authorization: '' } });
  expect(anonymous.status()).toBe(401);
  expect((await anonymous.json()).error.code).toBe('unauthorized');
  const wrongToken = await request.post('/api/admin/runs/rescore', { data: { runId: parentId }, headers: { authorization: 'Bearer not-the-token' } });
  expect(wrongToken.status()).toBe(401);
  expect(await runCount()).toBe(runsBefore);

  const callsBefore = llm.calls();
  const requestsBefore = llm.requests().length;
  await page.locator('#rescore-run').selectOption(parentId!);
  await page.getByRole('button', { name: 'Rescore (no model calls)' }).click();
  const notice = page.getByTestId('notice-banner');
  await expect(notice).toContainText(`of run ${parentId} requested.`);
  const childId = /Rescore (\S+) of run/.exec(await notice.innerText())![1]!;
  expect(childId).not.toBe(parentId);
  expect(await runCount()).toBe(runsBefore + 1);

  const childRow = page.getByRole('table', { name: 'Recent runs' }).getByRole('row').filter({ hasText: childId });
  await waitFor('the rescore to finish', async () => {
    await page.goto('/admin');
    return (await childRow.innerText()).includes('completed');
  }, 90_000);
  await expect(childRow).toContainText('rescore');
  await page.goto(`/runs/${childId}`);
  await expect(page.getByText('stored, re-graded (no model called)')).toBeVisible();
  await expect(page.getByTestId('rescore-parent')).toHaveAttribute('href', `/runs/${parentId}`);
  await page.screenshot({ path: 'test-results/admin-rescore.png', fullPage: true });
  // the parent's page names its rescore
  await page.goto(`/runs/${parentId}`);
  await expect(page.getByTestId('rescore-child')).toHaveAttribute('href', `/runs/${childId}`);
  // no model (and no judge) was called by the rescore
  expect(llm.calls()).toBe(callsBefore);
  expect(llm.requests()).toHaveLength(requestsBefore);
});

test('GitHub sign-in: a listed maintainer may act, anyone else is a reader', async ({ page }) => {
  await page.goto('/admin/sign-in');
  await page.getByRole('link', { name: 'Sign in with GitHub' }).click();
  await page.getByLabel('Username').fill('maria');
  await page.getByRole('button', { name: 'Authorize' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByTestId('signed-in-as')).toHaveText('Signed in as maria (maintainer)');
  await expect(page.getByRole('button', { name: 'Sync now' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/admin\/sign-in$/);

  await page.getByRole('link', { name: 'Sign in with GitHub' }).click();
  await page.getByLabel('Username').fill('randy');
  await page.getByRole('button', { name: 'Authorize' }).click();
  await expect(page.getByTestId('signed-in-as')).toHaveText('Signed in as randy (reader)');
  await expect(page.getByTestId('error-banner')).toContainText('needs the maintainer or admin role');
  await expect(page.getByRole('button', { name: 'Sync now' })).toHaveCount(0);
  const refused = await page.request.post('/api/admin/sync', { headers: { origin: BASE } });
  expect(refused.status()).toBe(403);
});
