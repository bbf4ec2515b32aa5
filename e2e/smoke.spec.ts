import { expect, test } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isSoevProjectText } from '@/lib/core';

// every blueprint file of blueprints/; a soev project file names suites and is not one itself
const examples = readdirSync('blueprints', { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.(ya?ml|json)$/.test(f))
  .filter((f) => !isSoevProjectText(readFileSync(join('blueprints', f), 'utf8'), f));

test('home lists every example blueprint with its prompt count, and a card opens its page', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Blueprints' })).toBeVisible();
  // the e2e server also seeds demo blueprints (ASSAY_SEED_DEMO): count the examples only
  const cards = page.getByTestId('blueprint-card').filter({ hasNot: page.locator('a[href^="/blueprints/demo__"]') });
  await expect(cards).toHaveCount(examples.length);
  const pasta = cards.filter({ hasText: 'Recipe help with alternative valid answers' });
  await expect(pasta.getByTestId('prompt-count')).toHaveText('2 prompts');
  await expect(pasta).toContainText('alternative-paths');
  await page.screenshot({ path: 'test-results/home.png', fullPage: true });

  await pasta.getByRole('link').click();
  await expect(page).toHaveURL(/\/blueprints\/examples__pasta-alternative-paths$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Recipe help with alternative valid answers');
  await expect(page.getByRole('cell', { name: 'pasta-dinner' })).toBeVisible();
  await page.screenshot({ path: 'test-results/blueprint.png', fullPage: true });
});

test('the soev example’s suites are listed once each, by the titles the project gives them, each with its demo run', async ({ page }) => {
  await page.goto('/');
  for (const [id, title, runId] of [
    ['soev-example__suites__huur', 'Rent questions, one rule each', 'soev-huur-run-1'],
    ['soev-example__suites__grenzen', 'What the rent assistant declines', 'soev-grenzen-run-1'],
  ]) {
    const card = page.getByTestId('blueprint-card').filter({ has: page.locator(`a[href="/blueprints/${id}"]`) });
    await expect(card).toHaveCount(1);
    await expect(card).toContainText(title!);
    await page.goto(`/blueprints/${id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title!);
    await expect(page.locator(`a[href="/runs/${runId}"]`).first()).toBeVisible();
    await page.goto('/');
  }
  // the run pages show the system under test's scores per category
  await page.goto('/runs/soev-huur-run-1');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Rent questions, one rule each');
  await expect(page.getByText('soev:huurwijzer').first()).toBeVisible();
});

test('an unknown blueprint is a 404 page, not a crash', async ({ page }) => {
  const res = await page.goto('/blueprints/does-not-exist');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Not found' })).toBeVisible();
});
