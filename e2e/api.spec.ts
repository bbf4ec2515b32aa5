/**
 * The public API as a reader meets it on the running app: the browsable reference at /api-docs
 * (server-rendered from the OpenAPI document the API serves, under the app's CSP, no script
 * error), and the API answering the demo's board and its latest run from the stored figures the
 * pages show.
 */
import { expect, test } from '@playwright/test';
import { DEMO } from './demo';

test('the API reference lists every operation of the OpenAPI document, and the API answers the demo', async ({ page, request }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const doc = (await (await request.get('/api/v1/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
  await page.goto('/api-docs');
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const method of Object.keys(ops)) await expect(page.getByRole('heading', { name: `${method.toUpperCase()} ${path}`, exact: true })).toBeVisible();
  }
  expect(errors).toEqual([]);

  const run = await request.get(`/api/v1/runs/${DEMO.latestRun}`);
  expect(run.status()).toBe(200);
  expect(run.headers()['etag']).toBeTruthy();
  const body = (await run.json()) as { status: string; models: string[] };
  expect(body.status).toBe('completed');
  expect(new Set(body.models)).toEqual(new Set(DEMO.models));
  const board = await request.get('/api/v1/leaderboard');
  expect(board.status()).toBe(200);
});
