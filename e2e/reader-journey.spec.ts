/**
 * A reader's walk on the seeded demo: home → blueprint → run → prompt → cell → model page,
 * checking what each page shows and keeping a screenshot of each; then every deep link.
 */
import { expect, test } from '@playwright/test';
import { DEMO, modelPath, screenshot } from './demo';

test('home → blueprint → run → prompt → cell → model page', async ({ page }, info) => {
  // Home: the overall leaderboard above recent runs and the blueprint list
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Leaderboards and blueprints');
  const board = page.getByTestId('leaderboard');
  await expect(board.getByTestId('leaderboard-row')).toHaveCount(DEMO.models.length);
  await expect(page.locator('#leaderboard-about')).toContainText('95% interval');
  const firstScore = Number(await board.getByTestId('score').first().textContent());
  const lastScore = Number(await board.getByTestId('score').last().textContent());
  expect(firstScore).toBeGreaterThanOrEqual(lastScore);
  await expect(board.getByRole('columnheader')).toHaveText(['Rank', 'Model', 'Score', '95% interval', 'Band', 'Blueprints scored', 'Verdict coverage', 'Judges α', 'Cost / prompt', 'Latency p50', 'Errors', 'Compare']);
  await expect(page.getByTestId('recent-runs').getByRole('link').first()).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Leaderboard by tag' }).getByRole('link', { name: /^health/ })).toBeVisible();
  await screenshot(page, info, '1-home');

  // a tag's own leaderboard
  await page.getByRole('navigation', { name: 'Leaderboard by tag' }).getByRole('link', { name: /^coding/ }).click();
  await expect(page).toHaveURL(/\?tag=coding$/);
  await expect(page.getByRole('heading', { name: 'Leaderboard: coding' })).toBeVisible();
  await expect(page.getByTestId('leaderboard-row')).toHaveCount(4);

  // Blueprint
  await page.goto('/');
  await page.getByTestId('blueprint-card').filter({ hasText: DEMO.blueprintTitle }).getByRole('link').click();
  await expect(page).toHaveURL(`/blueprints/${DEMO.blueprintId}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(DEMO.blueprintTitle);
  await expect(page.locator('.markdown strong').first()).toHaveText('accuracy'); // description rendered as Markdown
  await expect(page.locator('dt', { hasText: 'Author' })).toBeVisible();
  // the demo's source is a folder of this repository (lib/server/db/seed/demo/): named, never linked to a
  // GitHub repository it does not come from (admin.spec checks the link of a GitHub-synced blueprint)
  await expect(page.locator('dd', { hasText: /^demo\/everyday-answers\.yml$/ })).toBeVisible();
  await expect(page.getByTestId('source-link')).toHaveCount(0);
  await expect(page.getByTestId('ranking').locator('tbody tr')).toHaveCount(DEMO.models.length);
  await expect(page.getByTestId('run-history').locator('tbody tr')).toHaveCount(4);
  await expect(page.getByTestId('trend-chart').locator('.recharts-line')).toHaveCount(DEMO.models.length);
  await expect(page.getByText('1 sealed test prompt is scored but not shown.')).toBeVisible();
  await page.getByText(/^demo\/everyday-answers\.yml \(\d+ lines\)$/).click();
  await expect(page.getByTestId('source-text')).toContainText('paracetamol');
  await expect(page.getByTestId('source-text')).toContainText('1 sealed test prompt is hidden here');
  await screenshot(page, info, '2-blueprint');

  // Run: the heatmap, one link per cell
  await page.getByTestId('latest-run-link').click();
  await expect(page).toHaveURL(`/runs/${DEMO.latestRun}`);
  const heatmap = page.getByTestId('heatmap');
  await expect(heatmap.locator('tbody tr')).toHaveCount(DEMO.visiblePrompts);
  await expect(heatmap.locator('tbody a.hm-cell')).toHaveCount(DEMO.visiblePrompts * DEMO.models.length);
  await expect(page.getByText('1 sealed test prompt is scored in every model’s total but not shown.')).toBeVisible();
  const cell = heatmap.getByRole('link', { name: /^paracetamol-max-dose × gpt-4o: / });
  await expect(cell).toHaveAttribute('href', `/runs/${DEMO.latestRun}/prompts/paracetamol-max-dose?model=openrouter%3Aopenai%2Fgpt-4o#cell`);
  await screenshot(page, info, '3-run-heatmap');

  // Prompt: the conversation, the points × models grid, replies side by side
  await heatmap.getByRole('link', { name: 'paracetamol-max-dose', exact: true }).click();
  await expect(page).toHaveURL(`/runs/${DEMO.latestRun}/prompts/paracetamol-max-dose`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Prompt paracetamol-max-dose');
  await expect(page.getByRole('list', { name: 'Conversation' })).toContainText('maximum amount of paracetamol');
  await expect(page.getByTestId('points-grid').locator('tbody th[scope="row"]')).toHaveCount(5 + 1);
  await expect(page.getByTestId('reply')).toHaveCount(4);
  await expect(page.getByTestId('reply').first().getByTestId('verdict')).toHaveCount(5);
  await screenshot(page, info, '4-prompt');

  // Cell: one model's reply in focus, every verdict with the judges' reasoning and distribution
  await page.getByTestId('points-grid').getByRole('columnheader').getByRole('link', { name: 'gpt-4o', exact: true }).click();
  await expect(page).toHaveURL(/\?model=openrouter%3Aopenai%2Fgpt-4o#cell$/);
  const focused = page.getByTestId('focused-reply');
  await expect(focused).toBeVisible();
  await expect(focused).toHaveAttribute('data-model', 'openrouter:openai/gpt-4o');
  const judged = focused.locator('[data-testid=verdict][data-status=pass], [data-testid=verdict][data-status=fail]').first();
  await expect(judged).toContainText('The reply');
  await judged.locator('summary').click();
  await expect(judged.getByText('Consensus distribution over the labels')).toBeVisible();
  await expect(judged.getByText('Fully present').first()).toBeVisible();
  await expect(judged.getByText('openai:gpt-4.1-mini', { exact: true })).toBeVisible();
  await expect(page.getByTestId('reply')).toHaveCount(3);
  await screenshot(page, info, '5-cell');

  // the model within the run, then the model's own page
  await focused.getByRole('link', { name: 'all prompts' }).click();
  await expect(page).toHaveURL(`/runs/${DEMO.latestRun}/models/${modelPath('openrouter:openai/gpt-4o')}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('gpt-4o');
  await expect(page.getByTestId('model-prompts').locator('tbody tr')).toHaveCount(DEMO.visiblePrompts);
  await expect(page.getByText(/1 sealed test prompt scored \(mean [\d.]+\), counted in the total, not shown\./)).toBeVisible();
  await screenshot(page, info, '6-run-model');
  await page.getByRole('link', { name: 'gpt-4o across every blueprint' }).click();
  await expect(page).toHaveURL(`/models/${modelPath('openrouter:openai/gpt-4o')}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('gpt-4o');
  await expect(page.getByTestId('model-overall')).toHaveText(/^\d+\.\d$/);
  // gpt-4o is in all five demo blueprints, nine distinct tags between them
  await expect(page.getByTestId('model-blueprints').locator('tbody tr')).toHaveCount(5);
  await expect(page.getByTestId('model-tags').locator('tbody tr')).toHaveCount(9);
  await expect(page.getByTestId('history-chart').locator('.recharts-line')).toHaveCount(5);
  await expect(page.getByTestId('strongest').or(page.getByTestId('weakest')).first()).toBeVisible();
  await screenshot(page, info, '7-model');
});

test('every view has a deep link that opens it directly', async ({ page }, info) => {
  const run = `/runs/${DEMO.latestRun}`;
  const llama = DEMO.models[2] as string;

  // a cell, and a point anchor inside it
  await page.goto(`${run}/prompts/capital-of-australia?model=${encodeURIComponent(llama)}#point-1`);
  await expect(page.getByTestId('focused-reply')).toHaveAttribute('data-model', llama);
  await expect(page.locator('#point-1')).toBeInViewport();
  // a point anchor without a model targets the grid row
  await page.goto(`${run}/prompts/capital-of-australia#point-0`);
  await expect(page.locator('#point-0')).toContainText('Answers Canberra');

  // the point view: every model on one criterion
  await page.goto(`${run}/prompts/capital-of-australia/points/0`);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Point 1 of prompt');
  await expect(page.getByTestId('point-verdicts').getByTestId('verdict')).toHaveCount(DEMO.models.length);
  await screenshot(page, info, '8-point');

  // the run's other views
  await page.goto(`${run}?view=models`);
  await expect(page.getByTestId('ranking').locator('tbody tr')).toHaveCount(DEMO.models.length);
  await expect(page.getByRole('link', { name: 'Models', exact: true })).toHaveAttribute('aria-current', 'page');
  await page.goto(`${run}?view=points`);
  await expect(page.getByTestId('points-list').locator('section')).toHaveCount(10);
  await page.getByRole('navigation', { name: 'Prompt pages' }).getByRole('link', { name: 'Next' }).click();
  await expect(page).toHaveURL(`${run}?view=points&page=2`);
  await expect(page.getByTestId('points-list').locator('section')).toHaveCount(2);
  await page.goto(`${run}?sort=hardest`);
  await expect(page.getByRole('link', { name: 'Hardest first' })).toHaveAttribute('aria-current', 'true');

  // the diff of two runs of the same blueprint
  await page.goto(run);
  await page.getByText('Compare with another run').click();
  await page.getByRole('link', { name: /^Run of .*/ }).last().click();
  await expect(page).toHaveURL(`${run}/diff/${DEMO.olderRun}`);
  await expect(page.getByTestId('diff-models').locator('tbody tr')).toHaveCount(DEMO.models.length);
  await expect(page.getByTestId('diff-cells').locator('tbody tr').first()).toBeVisible();
  await screenshot(page, info, '9-diff');

  // model ids with ':' and '/' work encoded or not
  for (const url of [`/models/${modelPath(llama)}`, `/models/${llama}`, `${run}/models/${llama}`]) {
    const res = await page.goto(url);
    expect(res?.status(), url).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('llama-3.1-70b-instruct');
  }

  // search across replies, with matches marked, leading to the cell
  await page.goto('/');
  await page.getByRole('search').first().getByRole('searchbox').fill('Canberra');
  await page.getByRole('search').first().getByRole('searchbox').press('Enter');
  await expect(page).toHaveURL('/search?q=Canberra');
  await expect(page.getByTestId('search-results').locator('mark').first()).toHaveText(/canberra/i);
  await screenshot(page, info, '10-search');
  await page.getByTestId('search-results').getByRole('link').first().click();
  await expect(page).toHaveURL(/\/prompts\/capital-of-australia[^?]*\?model=.*#cell$/);
  await expect(page.getByTestId('focused-reply')).toContainText(/canberra/i);
});

test('keyboard: every heatmap cell is reachable and opens with Enter', async ({ page }) => {
  await page.goto(`/runs/${DEMO.latestRun}`);
  const target = page.getByTestId('heatmap').locator('a.hm-cell').first();
  await page.waitForLoadState('networkidle');
  // Sections stream in: focus again if a late swap replaced the element that held focus.
  await expect(async () => {
    await target.focus();
    await expect(target).toBeFocused({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  const outline = await target.evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).not.toBe('none');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#cell$/);
  await expect(page.getByTestId('focused-reply')).toBeVisible();
});

test('the live progress view polls its JSON route while the run works', async ({ page }, info) => {
  const polled = page.waitForResponse((r) => r.url().endsWith(`/api/runs/${DEMO.liveRun}/progress`));
  await page.goto(`/runs/${DEMO.liveRun}/progress`);
  await expect(page.getByTestId('progress-status')).toHaveText('Generating replies');
  await expect(page.getByTestId('progress-replies')).toHaveText(/^\d+ of 65 \(\d+%\)$/);
  await expect(page.getByRole('progressbar')).toHaveCount(2);
  const res = await polled;
  expect(res.status()).toBe(200);
  expect(await res.json()).toMatchObject({ runId: DEMO.liveRun, status: 'running', totalCalls: 65 });
  await screenshot(page, info, '11-progress');
  const missing = await page.request.get('/api/runs/no-such-run/progress');
  expect(missing.status()).toBe(404);
});

test('unknown runs, prompts, points and models are 404 pages', async ({ page }) => {
  const run = `/runs/${DEMO.latestRun}`;
  for (const url of ['/runs/no-such-run', `${run}/prompts/no-such-prompt`, `${run}/prompts/paracetamol-max-dose/points/99`, `${run}/prompts/paracetamol-max-dose/points/x`, `${run}/models/nobody:none`, '/models/nobody:none', `${run}/diff/no-such-run`, '/runs/no-such-run/progress']) {
    const res = await page.goto(url);
    expect(res?.status(), url).toBe(404);
    await expect(page.getByRole('heading', { name: 'Not found' })).toBeVisible();
  }
});

test('dark mode follows the system setting; narrow screens do not scroll sideways', async ({ browser }, info) => {
  const dark = await browser.newPage({ colorScheme: 'dark' });
  await dark.goto('/');
  // the browser's own reading of the computed colour (Tailwind 4 writes lab()/oklch())
  const [r, g, b] = await dark.evaluate(() => {
    const ctx = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
    ctx.fillStyle = getComputedStyle(document.body).backgroundColor;
    ctx.fillRect(0, 0, 1, 1);
    return [...ctx.getImageData(0, 0, 1, 1).data];
  });
  expect((r ?? 255) + (g ?? 255) + (b ?? 255)).toBeLessThan(60);
  await screenshot(dark, info, '12-home-dark');
  await dark.goto(`/runs/${DEMO.latestRun}/prompts/paracetamol-max-dose?model=${encodeURIComponent(DEMO.models[0] as string)}`);
  await dark.getByTestId('focused-reply').waitFor();
  await screenshot(dark, info, '13-cell-dark');
  await dark.close();

  const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
  const cell = `/runs/${DEMO.latestRun}/prompts/paracetamol-max-dose?model=${encodeURIComponent(DEMO.models[0] as string)}`;
  for (const url of ['/', `/blueprints/${DEMO.blueprintId}`, `/runs/${DEMO.latestRun}`, `/runs/${DEMO.latestRun}/prompts/paracetamol-max-dose`, cell, `/models/${DEMO.models[0]}`]) {
    await phone.goto(url);
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, url).toBeLessThanOrEqual(1);
  }
  await screenshot(phone, info, '14-run-phone');
  await phone.close();
});
