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

test('an unknown blueprint is a 404 page, not a crash', async ({ page }) => {
  const res = await page.goto('/blueprints/does-not-exist');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Not found' })).toBeVisible();
});
