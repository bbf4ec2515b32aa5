/**
 * Judge reliability on the seeded demo (two judges, answering through the fake provider, on
 * every judged point the pipeline graded): the blueprint page's judge panel, α beside the
 * judged scores on the run page and a model's page in the run, the leaderboard's pooled α in
 * each model's row, each run's α on the run diff, and the methodology page reached from a
 * "How to read this" link and from the header. Every α shown carries its figure and rests on at
 * least ALPHA_MIN_UNITS verdicts; a tag's board over fewer says "too few verdicts to tell", and a
 * prompt's page shows each verdict's judges' answers and spread, no α.
 */
import { expect, test, type Page } from '@playwright/test';
import { ALPHA_MIN_UNITS } from '@/lib/core';
import { DEMO, modelPath, screenshot } from './demo';

const JUDGES = ['gpt-4.1-mini', 'qwen-2.5-72b-instruct (prompt-aware)'];
const ALPHA = /^α (0\.\d\d|1\.00)$/;

/** Every α figure on the page rests on at least the minimum of verdicts, and shows the number its data-value says. */
async function expectAlphaFiguresAboveMinimum(page: Page) {
  for (const el of await page.locator('[data-figure^="alpha|"]').all()) {
    expect(Number(await el.getAttribute('data-units'))).toBeGreaterThanOrEqual(ALPHA_MIN_UNITS);
    await expect(el).toHaveText(`α ${await el.getAttribute('data-value')}`);
  }
}

test('the blueprint page summarises its judge panel', async ({ page }, info) => {
  await page.goto(`/blueprints/${DEMO.blueprintId}`);
  const panel = page.getByTestId('judge-panel');
  await expect(panel).toBeVisible();
  const rows = panel.getByTestId('judge-row');
  await expect(rows).toHaveCount(2);
  for (const [i, label] of JUDGES.entries()) {
    await expect(rows.nth(i).locator('td').first()).toContainText(label);
    // every judged verdict of the latest run got an assessment from each judge
    expect(Number((await rows.nth(i).locator('td').nth(1).textContent())!.replace(/,/g, ''))).toBeGreaterThan(50);
  }
  const alpha = panel.getByTestId('judge-alpha');
  await expect(alpha).toHaveText(ALPHA);
  await expect(alpha).toHaveAttribute('data-figure', `alpha|blueprint=${DEMO.blueprintId}`);
  await expect(panel).toContainText(/over \d+ units · \d+ pairs/);
  await expect(panel).toContainText('reliable (α ≥ 0.80)');
  await expect(panel).toContainText(/\d+ judged verdicts, \d+ with ≥ 2 judges/);
  await expect(panel).toContainText('0% flagged as disagreement');
  // the OpenAI judge grading the OpenAI models is flagged as self-judging (same maker)
  await expect(panel.getByTestId('self-judging')).toContainText('Self-judging: gpt-4.1-mini judges gpt-4o, a model of the same maker.');
  await expect(rows.nth(0)).toContainText('judges gpt-4o-mini (same maker), gpt-4o (same maker)');
  await expect(rows.nth(1)).toContainText('—');
  await panel.scrollIntoViewIfNeeded();
  await screenshot(page, info, 'judges-1-blueprint-panel');
});

test('α sits beside the judged scores on the run page and on a model’s page in the run', async ({ page }, info) => {
  await page.goto(`/runs/${DEMO.latestRun}?view=models`);
  await expect(page.getByTestId('judge-reliability').first()).toContainText('Judges in this run');
  const table = page.getByTestId('judge-reliability-by-model');
  await expect(table.locator('tbody tr')).toHaveCount(DEMO.models.length);
  for (const row of await table.locator('tbody tr').all()) await expect(row.getByTestId('judge-alpha')).toHaveText(ALPHA);
  await expectAlphaFiguresAboveMinimum(page);
  await expect(table.locator('tbody tr', { hasText: 'gpt-4o-mini' }).getByTestId('self-judging')).toContainText('same maker');
  await expect(table.locator('tbody tr', { hasText: 'claude' }).getByTestId('self-judging')).toHaveCount(0);
  await screenshot(page, info, 'judges-2-run-models');

  // the model's page in the run: its score, and how far the judges agreed on it
  await table.getByRole('link', { name: 'gpt-4o-mini' }).click();
  await expect(page).toHaveURL(`/runs/${DEMO.latestRun}/models/${modelPath('openai:gpt-4o-mini')}`);
  await expect(page.getByTestId('model-score')).toBeVisible();
  const line = page.getByTestId('judge-reliability');
  await expect(line).toContainText('Judges of this score');
  await expect(line.getByTestId('judge-alpha')).toHaveText(ALPHA);
  await screenshot(page, info, 'judges-3-run-model');
});

test('the leaderboard shows each model’s pooled judge α', async ({ page }, info) => {
  await page.goto('/');
  const board = page.getByTestId('leaderboard');
  const rows = board.getByTestId('leaderboard-row');
  await expect(rows).toHaveCount(DEMO.models.length);
  // in every model's row, beside its score: α with its reading, the disagreement share, coverage in the title
  for (const row of await rows.all()) {
    const cell = row.getByTestId('board-judges');
    await expect(cell.getByTestId('judge-alpha')).toHaveText(ALPHA);
    await expect(cell).toContainText(/(reliable|tentative|not reliable)\D*over \d+ units · \d+ pairs\D*\d+% disagreement/);
    await expect(cell).toHaveAttribute('title', /^\d+ judged verdicts, \d+ with ≥ 2 judges · gpt-4\.1-mini \d+ · qwen-2\.5-72b-instruct \(prompt-aware\) \d+ assessments$/);
  }
  // the OpenAI judge on an OpenAI model is marked, with the sentence as its accessible name; not on Claude
  const mini = rows.filter({ hasText: 'gpt-4o-mini' });
  await expect(mini.getByRole('img', { name: 'Self-judging: gpt-4.1-mini judges gpt-4o-mini, a model of the same maker.' })).toBeVisible();
  await expect(rows.filter({ hasText: 'claude' }).getByTestId('self-judging-mark')).toHaveCount(0);
  await expect(page.locator('#leaderboard-about')).toContainText('Judges α: how far the judges agreed');
  // the column replaced the separate table beneath the board
  await expect(page.getByTestId('judge-reliability-by-model')).toHaveCount(0);
  await expectAlphaFiguresAboveMinimum(page);
  await board.scrollIntoViewIfNeeded();
  await screenshot(page, info, 'judges-6-leaderboard-alpha');

  // a tag's board pools the runs of that tag only, still in its rows: the coding blueprint's four
  // judged points per model are too few to tell, said in words with no α number and no figure
  await page.goto('/?tag=coding');
  await expect(page.getByTestId('leaderboard-row')).toHaveCount(4);
  for (const row of await page.getByTestId('leaderboard-row').all()) await expect(row.getByTestId('board-judges')).toContainText(/^(α [-−]?[01]\.\d\d|too few verdicts to tell \(\d+ units?\)|—)/);
  await expect(page.getByTestId('leaderboard-row').first().getByTestId('judge-alpha')).toHaveText('too few verdicts to tell (4 units)');
  await expectAlphaFiguresAboveMinimum(page);

  // and a model's own page, over the same runs
  await page.goto('/');
  const alpha = (await mini.getByTestId('judge-alpha').textContent())!;
  await mini.getByRole('link', { name: 'gpt-4o-mini' }).click();
  await expect(page).toHaveURL(`/models/${modelPath('openai:gpt-4o-mini')}`);
  const line = page.getByTestId('judge-reliability');
  await expect(line).toContainText('Judges behind these scores');
  await expect(line.getByTestId('judge-alpha')).toHaveText(alpha);
  await expect(line.getByTestId('self-judging')).toContainText('gpt-4.1-mini judges gpt-4o-mini, a model of the same maker.');
});

test('the run diff shows each run’s judge α, so a change can be weighed against the judging', async ({ page }, info) => {
  await page.goto(`/runs/${DEMO.latestRun}/diff/${DEMO.olderRun}`);
  const judges = page.getByTestId('diff-judges').getByTestId('judge-reliability');
  await expect(judges).toHaveCount(2);
  await expect(judges.first()).toContainText('Judges of the older run');
  await expect(judges.nth(1)).toContainText('Judges of the newer run');
  for (const line of await judges.all()) {
    await expect(line.getByTestId('judge-alpha')).toHaveText(ALPHA);
    await expect(line).toContainText(/\d+ judged verdicts, \d+ with ≥ 2 judges/);
  }
  // the newer run's line is the run page's own line
  const newer = (await judges.nth(1).getByTestId('judge-alpha').textContent())!;
  await expect(page.getByTestId('diff-models')).toBeVisible();
  await screenshot(page, info, 'judges-7-run-diff');
  await page.goto(`/runs/${DEMO.latestRun}`);
  await expect(page.getByTestId('judge-reliability').filter({ hasText: 'Judges in this run' }).getByTestId('judge-alpha')).toHaveText(newer);
});

test('a cell shows its judges’ answers and spread, no α; "How to read this" leads to the methodology', async ({ page }, info) => {
  await page.goto(`/runs/${DEMO.latestRun}/prompts/paracetamol-max-dose?model=${encodeURIComponent('openrouter:openai/gpt-4o')}`);
  // over one cell's or one prompt's verdicts α is not defined: none is shown, each verdict shows its judges' answers instead
  await expect(page.getByTestId('judge-reliability')).toHaveCount(0);
  await expect(page.locator('[data-figure^="alpha|"]')).toHaveCount(0);
  await expect(page.locator('main')).not.toContainText(/α\s*=?\s*[−-]?\d/);
  await expect(page.getByTestId('verdict').filter({ hasText: /judges answered \d+\.\d and \d+\.\d/ }).first()).toBeVisible();

  await page.goto(`/runs/${DEMO.latestRun}`);
  const box = page.getByTestId('how-to-read');
  await box.getByText('How to read this').click();
  await expect(box.getByText(/^Judge α/)).toBeVisible();
  await screenshot(page, info, 'judges-4-cell-how-to-read');
  await box.locator('div', { hasText: /^Judge α/ }).getByRole('link', { name: 'More' }).click();
  await expect(page).toHaveURL('/methodology#alpha');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Methodology');
  await expect(page.getByRole('heading', { name: 'Judge reliability: α, disagreement and self-judging' })).toBeInViewport();
  await expect(page.locator('#alpha')).toContainText('Krippendorff’s alpha');
  for (const title of ['How a score is made', 'Intervals: how far the score could move', 'Tied bands: ranks you should not over-read', 'pass@k and pass^k: one good answer, or every answer good', 'Drift: a test, not a threshold', 'The sample-size planner']) {
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
  }
  await screenshot(page, info, 'judges-5-methodology');

  // every reader page has the box, and the header links the methodology
  for (const path of ['/', `/blueprints/${DEMO.blueprintId}`, `/runs/${DEMO.latestRun}`, `/models/${modelPath(DEMO.models[0]!)}`, `/runs/${DEMO.latestRun}/diff/${DEMO.olderRun}`]) {
    await page.goto(path);
    await expect(page.getByTestId('how-to-read'), path).toHaveCount(1);
  }
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Methodology' }).click();
  await expect(page).toHaveURL('/methodology');
});
