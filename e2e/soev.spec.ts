/**
 * A soev project end to end in the browser (issue 12, "Must show"): `assay run
 * blueprints/soev-example/project.yml` as a child process (the real pipeline, the fake LLM
 * server as the soev system under test — an HTTP system whose replies cite — and as the judge,
 * scripted by testing/fakes/soev-example-rules.ts) into a fresh PostgreSQL database, served by
 * `next start`. The run page shows the scores per category and per rule with the per-attempt
 * pass; a criterion verdict's page shows its status and detail (an error, a fail with the
 * cited ids, a not-applicable). Screenshots go to /work/shots/soev/ (SHOTS_DIR to change).
 */
import { expect, test } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { freshDatabase, type TestDatabase } from '@/lib/server/db/db.testkit';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { SOEV_EXAMPLE_RULES } from '@/testing/fakes/soev-example-rules';
import { runAssay as assay, startAppServer, type AppServer } from './app-server';

const PORT = Number(process.env.E2E_SOEV_PORT ?? 4140);
const BASE = `http://127.0.0.1:${PORT}`;
const SHOTS = process.env.SHOTS_DIR ?? '/work/shots/soev';

let llm: FakeLlm;
let store: TestDatabase;
let app: AppServer;
let huurRun: string;


test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  await mkdir(SHOTS, { recursive: true });
  llm = await startFakeLlm({ rules: SOEV_EXAMPLE_RULES, port: PORT + 1 });
  store = await freshDatabase('postgres');
  const env = {
    DATABASE_URL: store.url,
    ASSAY_LLM_BASE_URL: llm.url,
    ASSAY_DATA_DIR: 'memory://',
    OPENAI_API_KEY: 'sk-test',
    SOEV_URL: `${llm.origin}/soev`,
    SOEV_TOKEN: 'tok-soev',
    SOEV_SUBJECT: 'tester',
    ASSAY_HTTP_MODEL_ORIGINS: llm.origin,
    ASSAY_HTTP_MODEL_ENV: `SOEV_TOKEN@${llm.origin},SOEV_SUBJECT@${llm.origin}`,
  };
  app = startAppServer({ port: PORT, env: { DATABASE_URL: store.url, ASSAY_DATA_DIR: 'memory://', ASSAY_PUBLIC_URL: BASE } });
  const run = await assay(['run', 'blueprints/soev-example/project.yml', '--judges', 'openai:judge', '--quiet'], env);
  expect(run.code, run.out).toBe(0);
  const runs = await store.db.run.findMany({ select: { id: true, blueprintId: true, status: true } });
  expect(runs.map((r) => [r.blueprintId, r.status]).sort()).toEqual([
    ['soev-example__suites__grenzen', 'completed'],
    ['soev-example__suites__huur', 'completed'],
  ]);
  huurRun = runs.find((r) => r.blueprintId.endsWith('huur'))!.id;
  await app.ready('/');
});

test.afterAll(async () => {
  await app?.stop();
  await Promise.all([llm?.close(), store?.close()]);
});

test.use({ baseURL: BASE });

test('the run page shows the scores per category and per rule, and the attempts that passed', async ({ page }) => {
  await page.goto(`/runs/${huurRun}`);
  const groups = page.getByTestId('group-scores');
  await expect(groups).toBeVisible();
  // R1-01 5/7 (its nuggets fail, weight 2), R1-02 1, R2-01 3/7 (soev scoring over non-gate criteria)
  const row = (axis: string, key: string) => groups.getByTestId(`group-table-${axis}`).locator(`[data-testid="group-row"][data-key="${key}"]`);
  await expect(row('category', 'deposit')).toContainText('85.7');
  await expect(row('category', 'deposit')).toContainText('50% (2 of 4)');
  await expect(row('category', 'maintenance')).toContainText('42.9');
  await expect(row('rule', 'R1')).toContainText('85.7');
  await expect(row('rule', 'R2')).toContainText('0% (0 of 2)');
  await expect(groups.getByTestId('attempt-pass')).toContainText('(2 of 6)');
  await groups.scrollIntoViewIfNeeded();
  await groups.screenshot({ path: join(SHOTS, 'run-groups.png') });
  await page.screenshot({ path: join(SHOTS, 'run-page.png'), fullPage: true });
});

test("a criterion verdict's page shows its status and detail: an error, a fail with the cited ids, a not-applicable", async ({ page }) => {
  // R2-01's points: 0 max_length, 1 forbidden, 2 language, 3 mentions_in_corpus, 4 contains, 5 unseen, 6 substance, 7 structured, 8 rubric
  await page.goto(`/runs/${huurRun}/prompts/R2-01/points/8`);
  const error = page.getByTestId('point-verdicts').getByTestId('verdict').first();
  await expect(error).toHaveAttribute('data-status', 'error');
  await expect(error.getByTestId('verdict-detail')).toContainText('HTTP 400: judge unavailable');
  await page.screenshot({ path: join(SHOTS, 'verdict-error.png'), fullPage: true });

  await page.goto(`/runs/${huurRun}/prompts/R2-01/points/5`);
  const unseen = page.getByTestId('point-verdicts').getByTestId('verdict').first();
  await expect(unseen).toHaveAttribute('data-status', 'fail');
  await expect(unseen.getByTestId('verdict-detail')).toContainText('1 cited source the case does not name: bw7/7');
  await page.screenshot({ path: join(SHOTS, 'verdict-fail-unseen.png'), fullPage: true });

  await page.goto(`/runs/${huurRun}/prompts/R1-01/points/1`);
  const na = page.getByTestId('point-verdicts').getByTestId('verdict').first();
  await expect(na).toHaveAttribute('data-status', 'not_applicable');
  await expect(na.getByTestId('verdict-detail')).toContainText('the case forbids no sources');
  await page.screenshot({ path: join(SHOTS, 'verdict-not-applicable.png'), fullPage: true });
});
