/** Sealed `test` prompts are scored but never shown: not on any page, API route or search result. */
import { expect, test } from '@playwright/test';
import { DEMO, SEALED_TEXT } from './demo';

test('no page, route or search shows a sealed prompt, its points or its replies', async ({ page, request }) => {
  const run = `/runs/${DEMO.latestRun}`;
  const pages = [
    '/',
    `/blueprints/${DEMO.blueprintId}`,
    run,
    `${run}?view=models`,
    `${run}?view=points`,
    `${run}?sort=hardest`,
    `${run}/models/${DEMO.models[0]}`,
    `${run}/models/${DEMO.models[0]}?sort=position`,
    `${run}/diff/${DEMO.olderRun}`,
    `/models/${DEMO.models[0]}`,
    `/runs/${DEMO.liveRun}/progress`,
    // words of the sealed prompt and reply (the query itself is echoed, so not the marker)
    '/search?q=river',
    '/search?q=river&kind=prompts',
    '/search?q=held-out+city&kind=prompts',
  ];
  for (const url of pages) {
    await page.goto(url);
    // the whole document, including the serialized data the page hydrates from
    expect(await page.content(), url).not.toMatch(SEALED_TEXT);
  }
  for (const url of [`/blueprints/${DEMO.blueprintId}/source`, `/api/runs/${DEMO.latestRun}/progress`]) {
    const res = await request.get(url);
    expect(res.status(), url).toBe(200);
    expect(await res.text(), url).not.toMatch(SEALED_TEXT);
  }
  // the sealed prompt's own addresses do not exist (the page echoes only the key typed in the URL)
  for (const url of [`${run}/prompts/${DEMO.sealedKey}`, `${run}/prompts/${DEMO.sealedKey}?model=${encodeURIComponent(DEMO.models[0] as string)}`, `${run}/prompts/${DEMO.sealedKey}/points/0`]) {
    const res = await page.goto(url);
    expect(res?.status(), url).toBe(404);
    expect(await page.content(), url).not.toMatch(/SEALED-|sealed-answer/);
  }
});
