/**
 * Issue 16, the browser check (`assay check` in the page): an author loads an example, pastes
 * a reply and sees every point's verdict, with no request leaving the page for it, so it needs
 * no budget and no sign-in. Runs on the config's shared `next start`. "Try it" itself (a run
 * within the budget counted by the fake LLM, the refusal over it, the draft run's page, a 404
 * for anyone else) is in e2e/author-journey.spec.ts, with the fakes it needs.
 * Screenshots of each step to ASSAY_SCREENS_DIR (default test-results/author-try-it).
 */
import { expect, test } from '@playwright/test';
import { shooter } from './author-kit';

const shot = shooter(process.env.ASSAY_SCREENS_DIR ?? 'test-results/author-try-it');
const EXAMPLE = 'weather-tool-call.yml';

test('an author checks a pasted reply in the browser: every point has a verdict, no request is made', async ({ page }) => {
  await page.goto(`/author?example=${EXAMPLE}`);
  await expect(page.getByTestId('author-yaml')).toContainText('Tool calls and structured output');
  await expect(page.getByTestId('author-editor-host')).toHaveAttribute('data-ready', 'true');
  const sent: string[] = [];
  page.on('request', (r) => {
    if (r.method() !== 'GET' || r.url().includes('/api/')) sent.push(`${r.method()} ${r.url()}`);
  });
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
  expect(sent).toEqual([]);
});
