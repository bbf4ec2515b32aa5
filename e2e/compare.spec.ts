/**
 * Comparisons on the seeded demo (the real pipeline against the fake provider): tied bands on
 * the leaderboard, a two-model comparison reached from it ("vs leader" and the form), down to
 * a cell; the same comparison on a blueprint page and on a model page. Screenshots of each.
 */
import { expect, test } from '@playwright/test';
import { DEMO, modelPath, SEALED_TEXT, screenshot } from './demo';

const [STRONG, VERBOSE, , CAUTIOUS, WEAK] = DEMO.models as [string, string, string, string, string];

test('the leaderboard shows tied bands, cost and latency, and separates what is clearly apart', async ({ page }, info) => {
  await page.goto('/');
  const board = page.getByTestId('leaderboard');
  await expect(board.getByTestId('leaderboard-row')).toHaveCount(DEMO.models.length);
  // the explanation sits beside the table, outside its sideways-scrolling box
  await expect(page.locator('#leaderboard-about')).toContainText('Holm-corrected');
  const bands = await board.getByTestId('rank-band').allTextContents();
  expect(bands).toHaveLength(DEMO.models.length);
  for (const b of bands) expect(b).toMatch(/^rank \d+(–\d+)?$/);
  // at least one band of tied models, and at least two bands that do not overlap
  await expect(board.locator('[data-testid="rank-band"][data-tied="true"]').first()).toBeVisible();
  const ranges = bands.map((b) => b.replace('rank ', '').split('–').map(Number)).map(([lo, hi]) => [lo!, hi ?? lo!] as const);
  expect(ranges.some(([, hi], i) => ranges.some(([lo2], j) => j !== i && hi < lo2))).toBe(true);
  // cost and latency beside quality
  for (const c of await board.getByTestId('cost-per-prompt').allTextContents()) expect(c).toMatch(/^(\$|<\$|—)/);
  for (const l of await board.getByTestId('latency').allTextContents()) expect(l).toMatch(/^(\d+ ms|\d+\.\d s|—)$/);
  // the leader has no "vs leader" link, every other ranked model does
  await expect(board.getByTestId('compare-with-leader')).toHaveCount(DEMO.models.length - 1);
  await screenshot(page, info, 'compare-1-leaderboard-bands');
});

test('a two-model comparison reached from the leaderboard, down to the cells that differ', async ({ page }, info) => {
  await page.goto('/');
  const board = page.getByTestId('leaderboard');
  const second = board.getByTestId('leaderboard-row').nth(1);
  await second.getByTestId('compare-with-leader').click();
  await expect(page).toHaveURL(/\/compare\?a=.+&b=.+/);
  const result = page.getByTestId('compare-result');
  await expect(result).toBeVisible();
  const facts = page.getByTestId('compare-facts');
  await expect(facts).toContainText('Mean difference (A − B, points)');
  await expect(facts).toContainText(/95% interval \(paired t\):\s*[+−±]\d+\.\d to [+−±]\d+\.\d/);
  await expect(facts).toContainText(/Paired t-test:\s*p [=<] \d/);
  await expect(facts).toContainText(/Correlation of per-prompt scores:\s*(−|-)?\d\.\d\d|—/);
  await expect(facts).toContainText(/n:\s*\d+ shared prompts on \d+ blueprints?/);
  await expect(facts).toContainText(/Wins \/ losses \/ ties \(A\):\s*\d+ \/ \d+ \/ \d+/);
  await expect(page.getByTestId('compare-verdict')).toContainText(/ahead of|cannot be told apart/);
  const rows = page.getByTestId('compare-differing-row');
  expect(await rows.count()).toBeGreaterThan(0);
  expect(await result.textContent()).not.toMatch(SEALED_TEXT);
  await screenshot(page, info, 'compare-2-vs-leader');

  // a cell link opens that model's reply on the prompt page
  const cell = rows.first().getByTestId('cell-link-a');
  const target = await cell.getAttribute('href');
  expect(target).toMatch(/\/runs\/[^/]+\/prompts\/[^/?]+\?model=.+#cell$/);
  await cell.click();
  await expect(page).toHaveURL(/\/prompts\//);
  await expect(page.locator('#cell')).toBeVisible();

  // the form on the leaderboard: pick any two
  await page.goto('/');
  await page.getByTestId('compare-a').selectOption(STRONG);
  await page.getByTestId('compare-b').selectOption(WEAK);
  await page.getByTestId('compare-submit').click();
  await expect(page).toHaveURL(/\/compare\?a=/);
  await expect(page.getByTestId('compare-verdict')).toContainText('is ahead of');
  await expect(page.getByTestId('compare-facts')).toContainText(/Paired t-test:\s*p < 0\.001|p = 0\.00\d/);

  // a tag's board keeps its tag; bad or unknown parameters get a message, not an error
  await page.goto(`/compare?a=${encodeURIComponent(STRONG)}&b=${encodeURIComponent(VERBOSE)}&tag=coding`);
  await expect(page.getByRole('link', { name: /Leaderboard: coding/ })).toBeVisible();
  await expect(page.getByTestId('compare-result')).toBeVisible();
  await page.goto('/compare?a=nobody&b=');
  await expect(page.getByTestId('compare-message')).toContainText('No score here for nobody');
  await page.goto(`/compare?a=${encodeURIComponent(STRONG)}&b=${encodeURIComponent(STRONG)}`);
  await expect(page.getByTestId('compare-message')).toHaveText('Pick two different models.');
});

test('the same comparison on a blueprint page and on a model page', async ({ page }, info) => {
  await page.goto(`/blueprints/${DEMO.blueprintId}`);
  const section = page.getByTestId('comparison-section');
  await section.getByTestId('compare-a').selectOption(STRONG);
  await section.getByTestId('compare-b').selectOption(CAUTIOUS);
  await section.getByTestId('compare-submit').click();
  await expect(page).toHaveURL(new RegExp(`/blueprints/${DEMO.blueprintId}\\?a=.+&b=.+#compare-h$`));
  await expect(page.getByTestId('compare-facts')).toContainText(/n:\s*\d+ shared prompts on 1 blueprint(?!s)/);
  await expect(page.getByTestId('compare-differing-row').first()).toBeVisible();
  // on one blueprint both cells come from the same run: the prompt links to both replies side by side
  await expect(page.getByTestId('compare-differing').getByRole('rowheader').first().getByRole('link')).toBeVisible();
  expect(await page.getByTestId('compare-result').textContent()).not.toMatch(SEALED_TEXT);
  await page.getByTestId('compare-result').scrollIntoViewIfNeeded();
  await screenshot(page, info, 'compare-3-blueprint');

  await page.goto(`/models/${modelPath(VERBOSE)}`);
  const mine = page.getByTestId('comparison-section');
  await expect(mine.getByTestId('compare-a')).toHaveCount(0);
  await mine.getByTestId('compare-b').selectOption(STRONG);
  await mine.getByTestId('compare-submit').click();
  await expect(page).toHaveURL(/\?vs=.+#compare-h$/);
  await expect(page.getByTestId('compare-result')).toContainText('(A, ');
  await expect(page.getByTestId('compare-facts')).toContainText(/n:\s*\d+ shared prompts on \d+ blueprints/);
  await screenshot(page, info, 'compare-4-model');
});
