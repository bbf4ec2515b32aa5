/**
 * The reader's pages on a 390 px phone and a 1400 px desktop (the demo): the leaderboard's
 * explanation wraps at the page's width outside the table that scrolls sideways, wide tables
 * and the heatmap say that they scroll, and no page is wider than the screen. Screenshots of the
 * leaderboard, the heatmap, a cell, /compare and /author at both widths in test-results/screens.
 */
import { expect, test, type Page } from '@playwright/test';
import { DEMO, screenshot } from './demo';

const [STRONG, , ERRATIC] = DEMO.models as [string, string, string];
const PAGES: { name: string; path: string; ready: (page: Page) => Promise<void> }[] = [
  { name: 'leaderboard', path: '/', ready: (p) => expect(p.getByTestId('leaderboard')).toBeVisible() },
  { name: 'heatmap', path: `/runs/${DEMO.latestRun}`, ready: (p) => expect(p.getByTestId('heatmap')).toBeVisible() },
  {
    name: 'cell',
    path: `/runs/${DEMO.latestRun}/prompts/${encodeURIComponent(DEMO.hostile.promptKey)}?model=${encodeURIComponent(DEMO.hostile.modelId)}`,
    ready: (p) => expect(p.getByTestId('focused-reply')).toBeVisible(),
  },
  { name: 'compare', path: `/compare?a=${encodeURIComponent(STRONG)}&b=${encodeURIComponent(ERRATIC)}`, ready: (p) => expect(p.getByTestId('compare-result')).toBeVisible() },
  { name: 'author', path: '/author', ready: (p) => expect(p.getByRole('heading', { level: 1 })).toBeVisible() },
];

/** The document is no wider than the viewport: wide content scrolls in its own box, the page does not. */
async function fitsWidth(page: Page): Promise<void> {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll, 'the page is wider than the screen').toBeLessThanOrEqual(client + 1);
}

for (const width of [390, 1400]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 390 ? 844 : 900 } });

    for (const p of PAGES) {
      test(`${p.name}: fits the screen; screenshot`, async ({ page }, info) => {
        await page.goto(p.path);
        await p.ready(page);
        await fitsWidth(page);
        await screenshot(page, info, `screen-${width}-${p.name}`);
      });
    }

    test('the leaderboard’s explanation sits outside the sideways-scrolling table, and the table says it scrolls', async ({ page }) => {
      await page.goto('/');
      const about = page.locator('#leaderboard-about');
      // visible: the streamed section has been revealed
      await expect(about).toBeVisible();
      await expect(about).toContainText('Holm-corrected');
      // the explanation is not inside the box that scrolls sideways, and its lines fit the screen
      expect(await about.evaluate((el) => el.closest('.overflow-x-auto') === null)).toBe(true);
      const right = await about.evaluate((el) => Math.max(...[...el.querySelectorAll('p')].map((p) => p.getBoundingClientRect().right)));
      expect(right).toBeGreaterThan(0);
      expect(right).toBeLessThanOrEqual(width);
      const cue = page.getByTestId('leaderboard-scroll-cue');
      if (width === 390) await expect(cue).toBeVisible();
      else await expect(cue).toBeHidden();
    });

    test('the heatmap says there are more models to the side on a phone', async ({ page }) => {
      await page.goto(`/runs/${DEMO.latestRun}`);
      const region = page.getByRole('region', { name: /Heatmap, scrolls sideways/ });
      const overflows = await region.evaluate((el) => el.scrollWidth > el.clientWidth);
      const cue = page.getByTestId('heatmap-scroll-cue');
      if (width === 390) {
        // on a phone the five model columns do not fit: the table scrolls, and says so
        expect(overflows).toBe(true);
        await expect(cue).toBeVisible();
        await expect(cue).toContainText(`${DEMO.models.length} models`);
      } else {
        await expect(cue).toBeHidden();
      }
    });
  });
}
