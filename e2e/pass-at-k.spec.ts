/**
 * pass@k and intervals that say how they were made, on the demo's repeated blueprint
 * (lib/server/db/seed/demo/repeated-answers.yml: four attempts per prompt, pass_threshold 0.75,
 * run by the pipeline against the fake provider, whose scripted attempts differ per model:
 * demo-models.ts REPEAT_FLIPS). The erratic model passes 3, 2, 4 and 1 of the four attempts
 * of its four prompts, so its figures are computed by hand below.
 */
import { expect, test, type Locator } from '@playwright/test';
import { DEMO, modelPath, screenshot } from './demo';

const BLUEPRINT = 'demo__repeated-answers';
const RUN = 'repeated-answers-run-1';
const ERRATIC = 'openrouter:meta-llama/llama-3.1-70b-instruct';

// The erratic model, c of n = 4 per prompt: 3, 2, 4, 1 (mean over the 4 prompts).
//   k=1: pass@1 = pass^1 = 10/16 = 62.5% → 63%
//   k=2: pass@2 = (1 + (1 − C(2,2)/C(4,2)) + 1 + (1 − C(3,2)/C(4,2)))/4 = (1 + 5/6 + 1 + 1/2)/4 = 83%
//        pass^2 = (C(3,2) + C(2,2) + C(4,2) + C(1,2))/C(4,2)/4 = (3 + 1 + 6 + 0)/24 = 42%
//   k=3: pass@3 = (1 + 1 + 1 + (1 − C(3,3)/C(4,3)))/4 = 3.75/4 = 94%;  pass^3 = (C(3,3) + 0 + C(4,3) + 0)/C(4,3)/4 = 5/16 = 31%
//   k=4: pass@4 = 100% (every prompt passed some attempt);  pass^4 = 1/4 = 25% (only one prompt passed all four)
const ERRATIC_TABLE = [
  ['1', '63%', '63%'],
  ['2', '83%', '42%'],
  ['3', '94%', '31%'],
  ['4', '100%', '25%'],
];

async function passTable(scope: Locator, modelId: string) {
  const table = scope.locator(`[data-testid="pass-at-k-model"][data-model="${modelId}"]`);
  await expect(table).toBeVisible();
  return table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent?.trim() ?? '')));
}

test('the run page shows pass@k / pass^k per model and every interval with its method, prompts and attempts', async ({ page }, info) => {
  await page.goto(`/runs/${RUN}?view=models`);
  const ranking = page.getByTestId('ranking');
  await expect(ranking.locator('tbody tr')).toHaveCount(DEMO.models.length);
  const notes = ranking.getByTestId('interval-note');
  await expect(notes).toHaveCount(DEMO.models.length);
  // four prompts, four attempts each: every interval is clustered by prompt
  // over 4 prompts (under 5) each interval is said to be rough first, as `assay run` warns
  for (const text of await notes.allTextContents()) expect(text).toMatch(/^rough: only 4 prompts \(under 5\) · 4 prompts, 16 attempts · clustered · (BCa bootstrap|Wilson score)$/);
  // gpt-4o passed every attempt (Wilson over its 4 prompts); the erratic model's attempts disagree (BCa)
  await expect(ranking.locator('tr', { hasText: 'openrouter:openai/gpt-4o' }).getByTestId('interval-note')).toHaveAttribute('data-method', 'wilson');
  await expect(ranking.locator('tr', { hasText: ERRATIC }).getByTestId('interval-note')).toHaveAttribute('data-method', 'bca-bootstrap');

  const pass = page.getByTestId('pass-at-k');
  await expect(page.getByRole('heading', { name: 'pass@k and pass^k (k = 1–4)' })).toBeVisible();
  await expect(pass).toContainText('An attempt passes at a score of 0.75 or more');
  await expect(pass.getByTestId('pass-at-k-model')).toHaveCount(DEMO.models.length);
  expect(await passTable(pass, ERRATIC)).toEqual(ERRATIC_TABLE);
  expect(await passTable(pass, 'openrouter:openai/gpt-4o')).toEqual([1, 2, 3, 4].map((k) => [String(k), '100%', '100%']));
  await pass.scrollIntoViewIfNeeded();
  await screenshot(page, info, 'pass-at-k-run');
});

test('the blueprint page shows the latest run’s pass@k and its intervals with n and clusters', async ({ page }, info) => {
  await page.goto(`/blueprints/${BLUEPRINT}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Repeated answers: the same question four times');
  await expect(page.getByTestId('ranking').getByTestId('interval-note').first()).toHaveText(/^rough: only 4 prompts \(under 5\) · 4 prompts, 16 attempts · clustered · /);
  const pass = page.getByTestId('pass-at-k');
  await expect(pass.getByTestId('pass-at-k-model')).toHaveCount(DEMO.models.length);
  expect(await passTable(pass, ERRATIC)).toEqual(ERRATIC_TABLE);
  await screenshot(page, info, 'pass-at-k-blueprint');
});

test('one model in the run: its interval with level, method and basis, and its pass@k', async ({ page }, info) => {
  await page.goto(`/runs/${RUN}/models/${modelPath(ERRATIC)}`);
  await expect(page.getByTestId('interval-note')).toHaveText(/^95% CI \d+\.\d–\d+\.\d · rough: only 4 prompts \(under 5\) · 4 prompts, 16 attempts · clustered · BCa bootstrap$/);
  await expect(page.getByTestId('interval-note')).toHaveAttribute('title', /1,000 resamples/);
  expect(await passTable(page.locator('body'), ERRATIC)).toEqual(ERRATIC_TABLE);
  await screenshot(page, info, 'pass-at-k-run-model');
});

test('a blueprint with one attempt per prompt shows no pass@k, and its intervals are not clustered', async ({ page }) => {
  await page.goto(`/runs/${DEMO.latestRun}?view=models`);
  await expect(page.getByTestId('ranking').locator('tbody tr')).toHaveCount(DEMO.models.length);
  await expect(page.getByTestId('pass-at-k')).toHaveCount(0);
  for (const text of await page.getByTestId('ranking').getByTestId('interval-note').allTextContents()) expect(text).not.toMatch(/clustered/);
});
