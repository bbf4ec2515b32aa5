/**
 * The retrieval pages over the demo's retrieval run (lib/server/db/seed/seed-retrieval-demo.ts:
 * the example kitchen-search blueprint run by the pipeline against the fake's embeddings): the
 * leaderboard of embedding models on the home page and per tag, the run page's results, and a
 * query's drill-down. Each figure is read on two pages and must agree; screenshots go to
 * test-results/ (or ASSAY_SCREENS_DIR) and the report.
 */
import { expect, test, type Page, type TestInfo } from '@playwright/test';

const RUN = 'kitchen-search-run-1';
const LARGE = 'openai:fake-embed-large';
const SMALL = 'openai:fake-embed-small';
const SCREENS = process.env.ASSAY_SCREENS_DIR ?? 'test-results';

async function shot(page: Page, info: TestInfo, name: string) {
  const path = `${SCREENS}/retrieval-${name}.png`;
  await page.screenshot({ path, fullPage: true });
  await info.attach(name, { path, contentType: 'image/png' });
}

const metric = /^\d\.\d{3}$/;

test('the home page ranks the embedding models apart from the chat board, by the primary metric with its interval and ladder', async ({ page }, info) => {
  await page.goto('/');
  const section = page.locator('section[aria-labelledby="retrieval-board-h"]');
  await expect(section.getByRole('heading', { name: 'Embedding models: retrieval' })).toBeVisible();
  const rows = section.getByTestId('retrieval-board-row');
  await expect(rows).toHaveCount(2);
  // the chat leaderboard does not list embedding models
  await expect(page.locator('section[aria-labelledby="leaderboard-h"]')).not.toContainText('fake-embed');
  await expect(rows.nth(0)).toContainText(LARGE);
  await expect(rows.nth(1)).toContainText(SMALL);
  await expect(section.getByRole('columnheader', { name: 'Kitchen search (embedding retrieval) (ndcg@10)' })).toBeVisible();
  const large = rows.nth(0);
  const value = (await large.getByRole('link', { name: metric }).first().textContent())!.trim();
  const small = (await rows.nth(1).getByRole('link', { name: metric }).first().textContent())!.trim();
  expect(Number(value)).toBeGreaterThan(Number(small));
  await expect(large).toContainText(/\[\d\.\d{3}–\d\.\d{3}\]/);
  await expect(large.getByText(/^(Pass|Warn|Fail)$/)).toBeVisible();
  await shot(page, info, 'leaderboard');

  // per tag: the blueprint's tags keep it; a tag only chat blueprints carry drops the section
  await page.goto('/?tag=cooking');
  await expect(page.locator('section[aria-labelledby="retrieval-board-h"]').getByRole('heading', { name: 'Embedding models: retrieval, tagged “cooking”' })).toBeVisible();
  await expect(page.getByTestId('retrieval-board-row')).toHaveCount(2);
  await page.goto('/?tag=no-such-tag');
  await expect(page.locator('section[aria-labelledby="retrieval-board-h"]')).toHaveCount(0);

  // the board's figure is the run page's: follow it
  await page.goto('/');
  await page.locator('section[aria-labelledby="retrieval-board-h"]').getByTestId('retrieval-board-row').nth(0).getByRole('link', { name: metric }).first().click();
  await expect(page).toHaveURL(new RegExp(`/runs/${RUN}$`));
  const results = page.getByTestId('retrieval-results');
  const first = results.getByTestId('retrieval-model-row').nth(0);
  await expect(first).toContainText(LARGE);
  await expect(first.getByTestId('metric-value').first()).toHaveText(value);
  // every metric of the block, each with an interval over queries; the ladder, the cost
  for (const m of ['ndcg@10 (primary)', 'recall@5', 'precision@5', 'mrr', 'map', 'Ladder', 'Cost']) await expect(results.getByRole('columnheader', { name: m, exact: true })).toBeVisible();
  await expect(first.getByTestId('metric-value')).toHaveCount(5);
  await expect(first.locator('td').nth(1)).toContainText(/\[\d\.\d{3}–\d\.\d{3}\]/);
  await expect(first).toContainText(/\$0\.\d+/);
  await expect(page.getByText('Texts embedded')).toBeVisible();
  await shot(page, info, 'run');
});

test('a query’s page shows its text, each model’s top 10 with scores and relevance, the relevant documents missed and each metric', async ({ page }, info) => {
  await page.goto(`/runs/${RUN}`);
  const row = page.getByTestId('retrieval-query-row').filter({ hasText: 'q-pasta-time' });
  const listed = (await row.locator('td').nth(1).textContent())!.trim();
  await row.getByRole('link', { name: 'q-pasta-time' }).click();
  await expect(page).toHaveURL(new RegExp(`/runs/${RUN}/queries/q-pasta-time$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Query q-pasta-time' })).toBeVisible();
  await expect(page.getByTestId('query-text')).toHaveText('how many minutes to boil spaghetti al dente');
  const models = page.getByTestId('query-model');
  await expect(models).toHaveCount(2);
  const large = models.filter({ has: page.getByRole('heading', { name: LARGE }) });
  await expect(large.getByTestId('retrieved-doc')).toHaveCount(10);
  // its ndcg@10 is the run page's figure for this query
  await expect(large.getByTestId('query-metrics')).toContainText(`ndcg@10 ${listed}`);
  for (const m of ['recall@5', 'precision@5', 'mrr', 'map']) await expect(large.getByTestId('query-metrics')).toContainText(m);
  // the answer note is judged 2 and retrieved, with its score; an unjudged note says so
  const answer = large.getByTestId('retrieved-doc').filter({ hasText: 'pasta-boil' });
  await expect(answer).toContainText('relevant (2)');
  await expect(answer.locator('td').nth(2)).toHaveText(/^-?\d\.\d{4}$/);
  await expect(large.getByTestId('retrieved-doc').filter({ hasText: 'unjudged' }).first()).toBeVisible();
  await shot(page, info, 'query');

  // one model only, and the missed relevant documents of a query the small model gets wrong somewhere
  await page.goto(`/runs/${RUN}/queries/q-pasta-time?model=${encodeURIComponent(SMALL)}`);
  await expect(page.getByTestId('query-model')).toHaveCount(1);
  await expect(page.getByTestId('query-model')).toContainText(SMALL);
  // the query's one relevant note is either in the small model's top 10 or listed as missed, with its rank
  const small = page.getByTestId('query-model');
  const inTop = await small.getByTestId('retrieved-doc').filter({ hasText: 'pasta-boil' }).count();
  const missed = small.getByTestId('missed-docs');
  expect(inTop + (await missed.filter({ hasText: 'pasta-boil' }).count())).toBe(1);
  if (inTop === 0) await expect(missed).toContainText(/pasta-boil \(relevant \(2\), (rank \d+|not retrieved)\)/);
  await page.getByRole('link', { name: 'Next query' }).click();
  await expect(page).toHaveURL(/\/queries\/q-tomato-sauce\?model=/);
  const res = await page.goto(`/runs/${RUN}/queries/no-such-query`);
  expect(res?.status()).toBe(404);
});
