/**
 * A reply carrying a <script>, an <img onerror>, a javascript: link, a remote image and an
 * iframe renders inert: no dialog, no request to another host, no javascript: href, no
 * onerror attribute, no element it asked for; the model's text stays visible as text.
 */
import { expect, test } from '@playwright/test';
import { DEMO, screenshot } from './demo';

test('a hostile reply stays inert', async ({ page, baseURL }, info) => {
  const dialogs: string[] = [];
  page.on('dialog', async (d) => {
    dialogs.push(d.message());
    await d.dismiss();
  });
  const ownHost = new URL(baseURL as string).host;
  const foreign: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (!['data:', 'blob:'].includes(url.protocol) && url.host !== ownHost) foreign.push(r.url());
  });

  const { promptKey, modelId } = DEMO.hostile;
  await page.goto(`/runs/${DEMO.latestRun}/prompts/${promptKey}?model=${encodeURIComponent(modelId)}#cell`);
  const reply = page.getByTestId('focused-reply').getByTestId('reply-content');
  await expect(reply).toContainText('Here is the table you asked for');
  await page.waitForLoadState('networkidle');

  // what the model wrote is shown, as text
  await expect(reply).toContainText("<script>alert('xss-script')</script>");
  await expect(reply).toContainText('onerror=');
  await expect(reply).toContainText('[image not loaded: tracking pixel]');
  await expect(reply.getByRole('table')).toBeVisible();
  await expect(reply.getByRole('link', { name: 'Assay docs' })).toHaveAttribute('rel', 'noopener noreferrer nofollow');

  // …and none of it is live
  expect(dialogs).toEqual([]);
  expect(foreign).toEqual([]);
  const dom = await page.evaluate(() => ({
    onerror: document.querySelectorAll('[onerror]').length,
    scripts: [...document.scripts].filter((s) => s.textContent?.includes('xss-')).filter((s) => !s.textContent?.includes('self.__next_f')).length,
    images: [...document.images].map((i) => i.src),
    iframes: document.querySelectorAll('iframe').length,
    hrefs: [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href') ?? ''),
  }));
  expect(dom.onerror).toBe(0);
  expect(dom.scripts).toBe(0);
  expect(dom.images).toEqual([]);
  expect(dom.iframes).toBe(0);
  expect(dom.hrefs.filter((h) => /^\s*(javascript|data|vbscript):/i.test(h))).toEqual([]);
  await expect(reply.getByText('Click for details')).toBeVisible();
  await expect(reply.locator('a', { hasText: 'Click for details' })).toHaveCount(0);
  await screenshot(page, info, 'xss-cell');

  // the same reply in the side-by-side comparison and in search results is inert too
  await page.goto(`/runs/${DEMO.latestRun}/prompts/${promptKey}?compare=1`);
  await page.goto('/search?q=xss-onerror');
  await page.waitForLoadState('networkidle');
  expect(dialogs).toEqual([]);
  expect(foreign).toEqual([]);
  expect(await page.locator('[onerror]').count()).toBe(0);
});
