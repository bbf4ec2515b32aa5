/**
 * The figure census on the demo (the real pipeline against the fake provider): every reader page
 * reachable from the home page and its tag boards is opened, and no figure (a model's score,
 * interval, rank or band, a run's smallest detectable difference, a drift difference, a retrieval
 * status, judge agreement) may be shown with two values, nor α over fewer units than its minimum.
 * Pages with one copy per cell, point or query are sampled per run (e2e/figure-census.ts). The
 * census of a real `assay run` is in evidence.spec.ts, on that spec’s own database.
 */
import { expect, test } from '@playwright/test';
import { DEMO } from './demo';
import { describeConflicts, figureCensus } from './figure-census';

// on a phone: the census also finds every page wider than the screen
test.use({ viewport: { width: 390, height: 844 } });

test('every figure the demo shows has one value on every page, and every page fits a 390 px phone', async ({ page, baseURL }) => {
  test.setTimeout(600_000);
  const census = await figureCensus(page, baseURL as string, ['/', `/blueprints/${DEMO.blueprintId}`, `/runs/${DEMO.latestRun}`, '/drift']);
  // what the census looked at: the page kinds and figure kinds the demo has, so a census that
  // found nothing (a renamed attribute, a crawler stuck on one page) fails here
  expect(census.pages.some((p) => p.startsWith('/?tag='))).toBe(true);
  for (const prefix of ['/blueprints/', '/runs/', '/models/', '/compare', '/drift']) expect(census.pages.some((p) => p.startsWith(prefix)), prefix).toBe(true);
  expect(census.pages.some((p) => /^\/runs\/[^/]+\/prompts\/[^?]+\?model=/.test(p)), 'a cell page').toBe(true);
  expect(census.pages.some((p) => /^\/runs\/[^/]+\/models\//.test(p)), 'a run × model page').toBe(true);
  for (const kind of ['score', 'interval', 'rank', 'band']) expect(census.kinds[kind] ?? 0, kind).toBeGreaterThan(0);
  // a figure met on several pages was compared: the census is not a list of singletons
  const ids = new Map<string, Set<string>>();
  for (const s of census.seen) ids.set(s.id, (ids.get(s.id) ?? new Set()).add(s.page));
  expect([...ids.values()].filter((pages) => pages.size >= 3).length).toBeGreaterThan(20);
  console.log(`figure census (demo): ${census.pages.length} pages, ${census.seen.length} figures, ${ids.size} identities; ${JSON.stringify(census.kinds)}`);
  expect(census.conflicts, describeConflicts(census.conflicts)).toEqual([]);
  expect(census.thinAlpha).toEqual([]);
  // no dead ends: every link a reader page offers opens
  expect(census.dead).toEqual([]);
  // the models stand in one order on every prompt page of a run
  expect(census.promptPagesOrdered).toBeGreaterThan(5);
  expect(census.columnOrders).toEqual([]);
  // wide content scrolls inside its own box, never the page
  expect(census.wide).toEqual([]);
});
