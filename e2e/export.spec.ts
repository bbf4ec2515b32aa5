/**
 * The run page's "Download data" links give the reader the run's records: the demo's latest run
 * (made by the pipeline against the fake provider), its verdicts downloaded as CSV through the
 * browser, read back by a CSV parser: the documented columns, a row for every visible prompt ×
 * model, nothing of the sealed prompt.
 */
import { expect, test } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { parse as parseCsv } from 'csv-parse/sync';
import { exportColumns } from '@/lib/core';
import { DEMO, SEALED_TEXT } from './demo';

test('a run\'s verdicts download as CSV from its page, with every documented column and no sealed prompt', async ({ page }) => {
  await page.goto(`/runs/${DEMO.latestRun}`);
  const downloads = page.getByTestId('run-downloads');
  await downloads.getByText('Download data').click();
  const [download] = await Promise.all([page.waitForEvent('download'), downloads.getByRole('link', { name: /^Verdicts .*, CSV$/ }).click()]);
  expect(download.suggestedFilename()).toBe(`${DEMO.latestRun}-verdicts.csv`);
  const text = await readFile((await download.path())!, 'utf8');
  expect(text).not.toMatch(SEALED_TEXT);
  const rows = parseCsv(text, { columns: true }) as Record<string, string>[];
  expect(Object.keys(rows[0]!)).toEqual(exportColumns('verdicts').map((c) => c.name));
  expect(new Set(rows.map((r) => r.run_id))).toEqual(new Set([DEMO.latestRun]));
  expect(new Set(rows.map((r) => r.model_id))).toEqual(new Set(DEMO.models));
  expect(new Set(rows.map((r) => r.prompt_key)).size).toBe(DEMO.visiblePrompts);
  for (const r of rows) expect(['pass', 'fail', 'not_applicable', 'error']).toContain(r.status);
});
