/**
 * The figure census: a crawler that opens every reader page reachable from the start pages (in
 * a real browser, after the page's streamed sections arrived), collects each figure it shows
 * (`data-figure`, `data-value`, lib/views/figures.ts) and reports every identity shown with two
 * values, and every judge agreement (α) shown over fewer units than the stated minimum.
 */
import type { Page } from '@playwright/test';
import { ALPHA_MIN_UNITS } from '@/lib/core';
import { figureConflicts, type FigureConflict, type SeenFigure } from '@/lib/views/figures';

/** Reader pages only: not the APIs, the author's and maintainer's tools, or the raw source. */
const READER = /^\/($|\?|blueprints\/|runs\/|models\/|compare|drift)/;
const SKIP = /^\/(api|admin|author|auth|pull-requests|schema|search|methodology)|\/source(\/|$|\?)|\/raw(\/|$|\?)|[?&](sort|order)=/;

export interface Census {
  pages: string[];
  seen: SeenFigure[];
  conflicts: FigureConflict[];
  /** α shown over fewer units than ALPHA_MIN_UNITS: where, and over how many. */
  thinAlpha: { id: string; units: number; page: string }[];
  /** Kinds of figure seen, with how many: what the census actually checked. */
  kinds: Record<string, number>;
  /** Links that answered an error: the page, its status and a page that links to it. */
  dead: { path: string; status: number; from: string }[];
  /** Pages wider than the browser's window (the page scrolls sideways, not a box within it): how wide. */
  wide: { path: string; width: number }[];
  /** Runs whose prompt pages list the models in more than one order: each order and a page showing it. */
  columnOrders: { run: string; orders: { models: string[]; page: string }[] }[];
  /** Prompt pages whose column order was read (two models or more): what the order check rests on. */
  promptPagesOrdered: number;
}

/**
 * Page kinds with one page per prompt × model (cells) or per point: their figures are the cell
 * scores the heatmap, the prompt page and the run × model page show too, so a sample of them per
 * run is visited (the first found), which keeps the census to minutes on a demo of thousands.
 */
const SAMPLED: { kind: RegExp; perRun: number }[] = [
  { kind: /^\/runs\/([^/]+)\/prompts\/[^/?]+\?(?:.*&)?model=/, perRun: 8 },
  { kind: /^\/runs\/([^/]+)\/prompts\/[^/?]+\/points\//, perRun: 4 },
  { kind: /^\/runs\/([^/]+)\/queries\//, perRun: 4 },
];

/**
 * Visits `start` and every reader page linked from the pages visited (same origin), up to
 * `maxPages`, `tabs` pages at a time (each a tab of `page`'s browser context, so the same
 * viewport): one page at a time the census of the demo took 5.6 minutes, most of it waiting on
 * the server and the browser in turn.
 */
export async function figureCensus(page: Page, base: string, start: readonly string[], opts: { maxPages?: number; tabs?: number } = {}): Promise<Census> {
  const maxPages = opts.maxPages ?? 2000;
  const queue = [...start];
  const queued = new Set(queue);
  const from = new Map<string, string>(queue.map((p) => [p, '(start)']));
  const dead: Census['dead'] = [];
  const wide: Census['wide'] = [];
  // per run: each order of the model columns its prompt pages show (the prompt scores' row, left to right)
  const orders = new Map<string, Map<string, { models: string[]; page: string }>>();
  let promptPagesOrdered = 0;
  const sampled = new Map<string, number>();
  const admit = (rel: string): boolean => {
    for (const [i, { kind, perRun }] of SAMPLED.entries()) {
      const m = kind.exec(rel);
      if (!m) continue;
      const key = `${i}\u0000${m[1]}`;
      const n = sampled.get(key) ?? 0;
      if (n >= perRun) return false;
      sampled.set(key, n + 1);
    }
    return true;
  };
  const pages: string[] = [];
  const seen: SeenFigure[] = [];
  const thinAlpha: Census['thinAlpha'] = [];

  const visit = async (tab: Page, path: string): Promise<void> => {
    const res = await tab.goto(new URL(path, base).toString(), { waitUntil: 'load' });
    if (!res || res.status() >= 400) {
      dead.push({ path, status: res?.status() ?? 0, from: from.get(path) ?? '?' });
      return;
    }
    pages.push(path);
    // streamed sections are revealed in batches after load: measure and collect once they are in place
    await tab.waitForFunction(() => document.querySelector('div[hidden][id^="S:"]') === null, null, { timeout: 5_000 }).catch(() => undefined);
    const width = await tab.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    if (width.scroll > width.client + 1) wide.push({ path, width: width.scroll });
    const found = await tab.$$eval('[data-figure]', (els) =>
      els.map((e) => ({ id: e.getAttribute('data-figure') ?? '', value: e.getAttribute('data-value') ?? '', units: e.getAttribute('data-units') })),
    );
    for (const f of found) {
      seen.push({ id: f.id, value: f.value, page: path });
      if (f.id.startsWith('alpha|') && (f.units === null || Number(f.units) < ALPHA_MIN_UNITS)) thinAlpha.push({ id: f.id, units: Number(f.units ?? 0), page: path });
    }
    const promptPage = /^\/runs\/([^/]+)\/prompts\/[^/?]+$/.exec(path);
    if (promptPage) {
      const models = [...new Set(found.filter((f) => f.id.startsWith('score|') && f.id.includes('|prompt=')).map((f) => /\|model=(.*)\|prompt=/.exec(f.id)?.[1] ?? ''))];
      const run = promptPage[1] as string;
      if (models.length >= 2) promptPagesOrdered++;
      const seenOrders = orders.get(run) ?? new Map<string, { models: string[]; page: string }>();
      orders.set(run, seenOrders);
      if (!seenOrders.has(models.join('\u0000'))) seenOrders.set(models.join('\u0000'), { models, page: path });
    }
    const links = await tab.$$eval('a[href]', (as) => as.map((a) => (a as HTMLAnchorElement).href));
    for (const href of links) {
      const url = new URL(href);
      if (url.origin !== new URL(base).origin) continue;
      url.hash = '';
      const rel = `${url.pathname}${url.search}`;
      if (!READER.test(rel) || SKIP.test(rel) || queued.has(rel) || !admit(rel)) continue;
      queued.add(rel);
      from.set(rel, path);
      queue.push(rel);
    }
  };

  // each tab takes the next queued page; a tab that finds the queue empty waits while another
  // tab's page may still add links, and stops once none is in flight
  let inFlight = 0;
  let taken = 0;
  const crawl = async (tab: Page): Promise<void> => {
    for (;;) {
      if (taken >= maxPages) return;
      const path = queue.shift();
      if (path === undefined) {
        if (inFlight === 0) return;
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      taken++;
      inFlight++;
      try {
        await visit(tab, path);
      } finally {
        inFlight--;
      }
    }
  };
  const tabs = [page, ...(await Promise.all(Array.from({ length: Math.max(0, (opts.tabs ?? 3) - 1) }, () => page.context().newPage())))];
  try {
    await Promise.all(tabs.map(crawl));
  } finally {
    await Promise.all(tabs.slice(1).map((t) => t.close()));
  }
  const kinds: Record<string, number> = {};
  for (const s of seen) {
    const kind = s.id.split('|')[0] as string;
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  const columnOrders = [...orders.entries()].filter(([, o]) => o.size > 1).map(([run, o]) => ({ run, orders: [...o.values()] }));
  return { pages, seen, conflicts: figureConflicts(seen), thinAlpha, kinds, dead, wide, columnOrders, promptPagesOrdered };
}

/** A conflict as a reader would report it: the figure, each value and where it is shown. */
export function describeConflicts(conflicts: readonly FigureConflict[]): string {
  return conflicts.map((c) => `${c.id}\n${c.values.map((v) => `  ${v.value}  on ${v.pages.slice(0, 4).join(', ')}${v.pages.length > 4 ? ` and ${v.pages.length - 4} more` : ''}`).join('\n')}`).join('\n');
}
