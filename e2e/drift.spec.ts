/**
 * Drift on the seeded demo: between the two scheduled runs of the everyday blueprint, the fake
 * provider swapped the cautious model's snapshot (new served model and fingerprint, a few facts
 * now wrong); the real pipeline's finish stored the drift checks. The drift page shows the flag
 * with its numbers and the provider's change, filters, and links to the cells that moved; the
 * blueprint page shows the sample-size planner.
 */
import { expect, test } from '@playwright/test';
import { DEMO, SEALED_TEXT, screenshot } from './demo';

const CAUTIOUS = 'openrouter:google/gemini-2.0-flash-001';
const PREVIOUS_SCHEDULED = 'everyday-answers-run-2';
/** The prompts the swapped snapshot gets wrong (lib/server/db/seed/demo-models.ts SWAPPED_WRONG). */
const SWAPPED_WRONG = ['capital-of-australia', 'marathon-in-km', 'london-tokyo-time', 'boiling-at-altitude', 'summarise-study'];

test('the drift page flags the model whose provider changed it, with its numbers and the cells that moved', async ({ page }, info) => {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Drift' }).click();
  await expect(page).toHaveURL('/drift');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Drift between scheduled runs');

  const flagged = page.locator(`[data-testid="drift-check"][data-model="${CAUTIOUS}"]`);
  await expect(flagged).toHaveCount(1);
  await expect(flagged).toHaveAttribute('data-flagged', 'true');
  await expect(flagged.getByText('Drift', { exact: true })).toBeVisible();
  await expect(flagged.getByTestId('served-change')).toContainText('The provider changed the model behind the id');
  await expect(flagged.getByTestId('served-change')).toContainText('served model google/gemini-2.0-flash-001 → google/gemini-2.0-flash-001-2026-11-18');
  await expect(flagged.getByTestId('served-change')).toContainText('→ fp_gemini_1118');
  // the change is a drop, its interval excludes 0 on the same side, and the MDE is named
  await expect(flagged.getByTestId('drift-difference')).toHaveText(/^−\d+\.\d points$/);
  const interval = await flagged.getByTestId('drift-interval').innerText();
  const [low, high] = /^(−\d+\.\d) to (−\d+\.\d) points \(95%\)$/.exec(interval)!.slice(1).map((x) => -Number(x.slice(1)));
  expect(low!).toBeLessThan(high!);
  expect(high!).toBeLessThan(0);
  const mde = Number(/±(\d+\.\d) points/.exec(await flagged.getByTestId('drift-mde').innerText())![1]);
  expect(mde).toBeGreaterThan(0);
  expect(Math.abs(low!)).toBeGreaterThanOrEqual(mde);
  await expect(flagged).toContainText(/excludes 0 and reaches the blueprint's MDE/);

  // the prompts that moved most are the swapped snapshot's new mistakes, each with both cells
  const moved = flagged.getByTestId('drift-moved').locator('li');
  await expect(moved).toHaveCount(SWAPPED_WRONG.length);
  for (const key of SWAPPED_WRONG) await expect(flagged.getByTestId('drift-moved')).toContainText(key);
  await expect(page.locator('body')).not.toContainText(SEALED_TEXT);
  await screenshot(page, info, 'drift-page');

  const first = (await moved.first().locator('.font-mono').innerText()).trim();
  await flagged.getByRole('link', { name: `${first}: the reply after` }).click();
  await expect(page).toHaveURL(`/runs/${DEMO.latestRun}/prompts/${first}?model=${encodeURIComponent(CAUTIOUS)}#cell`);
  await expect(page.locator(`[data-model="${CAUTIOUS}"]`).first()).toBeVisible();
  await page.goBack();
  await page.getByRole('link', { name: `${first}: the reply before` }).first().click();
  await expect(page).toHaveURL(`/runs/${PREVIOUS_SCHEDULED}/prompts/${first}?model=${encodeURIComponent(CAUTIOUS)}#cell`);
});

test('the drift page filters by model and blueprint, and shows the checks that found nothing on request', async ({ page }, info) => {
  await page.goto('/drift');
  const checks = page.getByTestId('drift-check');
  await expect(checks.first()).toBeVisible();
  const flaggedCount = await checks.count();
  expect(flaggedCount).toBeGreaterThanOrEqual(1);
  for (const c of await checks.all()) await expect(c).toHaveAttribute('data-flagged', 'true');

  // every check, one per model of the everyday blueprint
  await page.getByLabel('Show checks that found no drift').check();
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/all=1/);
  // visible, not only in the DOM: a streamed section is in the document before it is swapped in
  await expect(checks.last()).toBeVisible();
  await expect(checks).toHaveCount(DEMO.models.length);
  await expect(page.locator('[data-testid="drift-check"][data-flagged="false"]').first()).toContainText(/includes 0|inside ±|reaches/);
  await screenshot(page, info, 'drift-all-checks');

  // one model
  await page.getByLabel('Model').selectOption(CAUTIOUS);
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(checks.first()).toBeVisible();
  await expect(checks).toHaveCount(1);
  await expect(checks.first()).toHaveAttribute('data-model', CAUTIOUS);

  // a blueprint with no drift checks (its runs were not two scheduled ones)
  await page.goto(`/drift?blueprint=demo__coding-help&all=1`);
  await expect(checks).toHaveCount(0);
  await expect(page.getByText('No drift checks match these filters.')).toBeVisible();
  await page.goto(`/drift?blueprint=${DEMO.blueprintId}&model=${encodeURIComponent(CAUTIOUS)}`);
  await expect(checks.first()).toBeVisible();
  await expect(checks).toHaveCount(1);
});

test('the blueprint page shows the sample-size planner from its latest run', async ({ page }, info) => {
  await page.goto(`/blueprints/${DEMO.blueprintId}`);
  const section = page.getByRole('region', { name: 'How small a difference can it see?' });
  const planner = section.getByTestId('planner');
  await expect(planner).toBeVisible();
  const mde = Number(/^(\d+\.\d) points$/.exec((await planner.getByTestId('planner-mde').innerText()).trim())![1]);
  expect(mde).toBeGreaterThan(0);
  expect(mde).toBeLessThan(100);
  await expect(planner).toContainText(/tells two models apart \(at 80% power, α = 0.05\) when their scores differ by at least \d+\.\d points/);
  const needed = planner.getByTestId('planner-needed').locator('tbody tr');
  await expect(needed).toHaveCount(4);
  // halving the difference needs about four times the prompts
  const prompts = async (i: number) => Number((await needed.nth(i).locator('td').last().innerText()).replace(/,/g, ''));
  const at10 = await prompts(0);
  const at5 = await prompts(1);
  expect(at5).toBeGreaterThanOrEqual(4 * at10 - 4);
  expect(at5).toBeLessThanOrEqual(4 * at10 + 4);
  await planner.getByText('Per pair of models').click();
  await expect(planner.locator('details tbody tr')).toHaveCount((DEMO.models.length * (DEMO.models.length - 1)) / 2);
  await section.scrollIntoViewIfNeeded();
  await screenshot(page, info, 'blueprint-planner');
});
