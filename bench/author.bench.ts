/**
 * `npm run bench -- author`: the browser editor's cost (issue 16). On the production build
 * (`next start`, embedded database) in Chromium:
 *   - JS sent for `/author`: every script the page loads, gzip-compressed here (level 9, as a
 *     CDN would), summed; and uncompressed;
 *   - time to interactive: navigation start → the editor created and its first check shown
 *     (`data-ready` on the editor and the problems summary no longer "checking…"), median of 5
 *     cold loads (a new browser context each);
 *   - the parser's time on each example blueprint in Node (what each check costs the page,
 *     the figure that decides whether it needs a web worker).
 */
import { launchChromium } from './chromium';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { freePort, startAppServer } from '../e2e/app-server';

/** A fixed port when the machine's ports are shared out (AUTHOR_BENCH_PORT), else a free one. */
const fixedPort = Number(process.env.AUTHOR_BENCH_PORT) || null;
import { authorProblems } from '../lib/views/author-problems';
import { ensureBuild } from './next-server';
import { reportFigure, reportTarget } from './targets';

const EXAMPLE = 'medical-facts-weights.yml';
const LOADS = 5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function bench(): Promise<void> {
  ensureBuild();
  const port = fixedPort ?? (await freePort());
  const app = startAppServer({ port, env: { ASSAY_DATA_DIR: 'memory://' } });
  const browser = await launchChromium();
  try {
    await app.ready('/author');
    const url = `${app.url}/author?example=${EXAMPLE}`;
    const times: number[] = [];
    let scripts = new Map<string, Buffer>();
    for (let i = 0; i < LOADS; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const seen = new Map<string, Buffer>();
      page.on('response', (r) => {
        if (r.request().resourceType() === 'script') void r.body().then((b) => seen.set(r.url(), b)).catch(() => undefined);
      });
      await page.goto(url);
      const ms = await page.waitForFunction(() => document.querySelector('[data-ready="true"]') && !document.querySelector('[data-testid="problems-summary"]')?.textContent?.includes('checking') && performance.now());
      times.push((await ms.jsonValue()) as number);
      await page.waitForLoadState('networkidle');
      scripts = seen;
      await context.close();
    }
    const raw = [...scripts.values()].reduce((s, b) => s + b.length, 0);
    const gz = [...scripts.values()].reduce((s, b) => s + gzipSync(b, { level: 9 }).length, 0);
    console.log(`/author: ${scripts.size} scripts, ${(raw / 1024).toFixed(0)} KiB, ${(gz / 1024).toFixed(0)} KiB gzip`);
    for (const [u, b] of [...scripts].sort((x, y) => y[1].length - x[1].length)) console.log(`  ${new URL(u).pathname}: ${(b.length / 1024).toFixed(0)} KiB, ${(gzipSync(b, { level: 9 }).length / 1024).toFixed(0)} KiB gzip`);
    console.log(`/author time to interactive (editor ready, first check shown): ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
    reportFigure({ name: '/author JS (gzip)', value: gz / 1024, unit: 'KiB', note: `${scripts.size} scripts, ${(raw / 1024).toFixed(0)} KiB uncompressed` });
    reportFigure({ name: '/author time to interactive', value: median(times), unit: 'ms', note: `median of ${LOADS} cold loads, navigation start → editor ready and checked` });

    const dir = 'blueprints/examples';
    const parse: number[] = [];
    for (const f of readdirSync(dir)) {
      const text = readFileSync(join(dir, f), 'utf8');
      const runs: number[] = [];
      for (let i = 0; i < 20; i++) {
        const t0 = performance.now();
        authorProblems(text, f);
        runs.push(performance.now() - t0);
      }
      parse.push(median(runs.slice(5)));
    }
    reportTarget({ name: 'editor check of an example (parse + place)', value: Math.max(...parse), unit: 'ms', atMost: 50, note: 'slowest example, median of 15 warm runs in Node; far under the 120 ms lint pause, so no web worker' });
  } finally {
    await browser.close();
    await app.stop();
  }
}
