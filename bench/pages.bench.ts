/**
 * Reader pages on a small, a large and a very large run (SPEC §8: "large runs (10⁵ verdicts) load
 * fast"). Runs through the pipeline against the fake provider (bench/pages-seed.ts), in a fresh
 * database on the PostgreSQL server, a blueprint whose latest run has 1,000 verdicts
 * (20 prompts × 5 models × 10 points), one with 100,000 (500 × 20 × 10) and one with 1,000,000
 * (2,000 × 50 × 10: a blueprint file holds at most 1 MB, about 2,500 of these prompts), each with
 * an earlier run for the diff. Then starts `next start` (the existing production build; `npm run
 * build` first) against it and measures every page type on each run: the median over several requests of time to first byte, time to the last byte, and size on the
 * wire (gzip, as browsers ask) and decoded. Targets: the large run's pages within 2× the small
 * run's time, the very large run's pages within 300 ms, every page under 500 KB, and the model and
 * home pages (every run in the database) within 200 ms.
 *
 * ASSAY_BENCH_PG_URL sets the server (default postgresql://postgres@127.0.0.1:5432/postgres);
 * BENCH_SAMPLES the requests per page (default 7); BENCH_PAGES_HUGE=0 leaves out the
 * 1,000,000-verdict run (its two runs take tens of minutes to make); BENCH_KEEP_DB=1 keeps the
 * database (its URL is printed) to look into a page's queries afterwards, and BENCH_PAGES_DB=<url>
 * measures again on such a kept database (migrated first; a run already made is not made again).
 * Results also go to bench/results/pages.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Prisma } from '@/generated/prisma/client';
import { createDb } from '@/lib/server/db/client';
import { migrate } from '@/lib/server/db/migrate';
import { findSeeded, seedBenchBlueprint, type BenchSeeded } from './pages-seed';
import { reportTarget } from './targets';
import { storeDiffWithPrevious, summariseRun } from '@/lib/server/runs/chat/summarise';
import { measureMedian, type Measurement } from './http-measure';
import { ensureBuild, startNext } from './next-server';

const SERVER = process.env.ASSAY_BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const SAMPLES = Math.max(3, Number(process.env.BENCH_SAMPLES ?? 7));
const MAX_BYTES = 500 * 1024;
const MAX_RATIO = 2;

const enc = encodeURIComponent;
const modelPath = (id: string) => id.split('/').map(enc).join('/');

/** Every page type of a run, as a reader reaches it. */
function runPages(s: BenchSeeded): [string, string][] {
  const run = s.runIds.at(-1) as string;
  const older = s.runIds[0] as string;
  const key = s.promptKeys[Math.floor(s.promptKeys.length / 2)] as string; // a prompt from the middle of the run
  const model = s.models[Math.floor(s.models.length / 2)] as string;
  const r = `/runs/${enc(run)}`;
  return [
    ['blueprint', `/blueprints/${enc(s.blueprintId)}`],
    ['run: heatmap', r],
    ['run: heatmap, hardest first', `${r}?sort=hardest`],
    ['run: models', `${r}?view=models`],
    ['run: points', `${r}?view=points`],
    ['prompt', `${r}/prompts/${enc(key)}`],
    ['cell (prompt × model)', `${r}/prompts/${enc(key)}?model=${enc(model)}`],
    ['point', `${r}/prompts/${enc(key)}/points/0`],
    ['model in run', `${r}/models/${modelPath(model)}`],
    ['diff of two runs', `${r}/diff/${enc(older)}`],
    ['progress', `${r}/progress`],
    ['progress API (JSON)', `/api/runs/${enc(run)}/progress`],
  ];
}

const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
const ms = (x: number) => `${x.toFixed(1)} ms`;
const pad = (s: string, n: number) => s.padEnd(n);
const lpad = (s: string, n: number) => s.padStart(n);

interface Size {
  slug: string;
  title: string;
  prompts: number;
  models: number;
}

const SIZES: Size[] = [
  { slug: 'small', title: 'Bench: small run', prompts: 20, models: 5 },
  { slug: 'large', title: 'Bench: large run', prompts: 500, models: 20 },
  ...(process.env.BENCH_PAGES_HUGE === '0' ? [] : [{ slug: 'huge', title: 'Bench: very large run', prompts: 2000, models: 50 }]),
];
const HUGE_MAX_MS = 300;
const SHARED_MAX_MS = 200;

/** A fresh database on the server, or the kept one BENCH_PAGES_DB names. */
async function benchDatabase(admin: pg.Client): Promise<{ url: string; drop: () => Promise<void> }> {
  const kept = process.env.BENCH_PAGES_DB;
  if (kept) return { url: kept, drop: async () => {} };
  const name = `assay_bench_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      if (process.env.BENCH_KEEP_DB === '1') console.log(`\nthe database is kept: ${url.toString()}`);
      else await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

export async function bench(): Promise<void> {
  ensureBuild();
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  const database = await benchDatabase(admin);
  const db = createDb(database.url);
  let server: Awaited<ReturnType<typeof startNext>> | null = null;
  try {
    await migrate(database.url);
    const seeded: BenchSeeded[] = [];
    for (const size of SIZES) {
      const t = Date.now();
      const found = await findSeeded(db, { ...size, runs: 2 });
      const s = found ?? (await seedBenchBlueprint(db, { ...size, runs: 2 }));
      seeded.push(s);
      const made = found ? 'found in the kept database' : `made in ${((Date.now() - t) / 1000).toFixed(1)} s`;
      console.log(`${size.slug}: ${s.verdictsPerRun.map((v) => v.toLocaleString('en')).join(' + ')} verdicts, ${made}`);
    }
    // runs a kept database holds from before a figure was stored are summarised again, as finishing them does now
    for (const runId of seeded.flatMap((s) => s.runIds)) {
      const run = await db.run.findUniqueOrThrow({ where: { id: runId }, select: { planner: true, unpricedModels: true } });
      const unstoredJudgeStats = await db.runModelSummary.count({ where: { runId, judgeStats: { equals: Prisma.DbNull } } });
      if (run.planner !== null && run.unpricedModels !== null && unstoredJudgeStats === 0) continue;
      await summariseRun(db, runId);
      await storeDiffWithPrevious(db, runId);
      console.log(`summarised ${runId} again (made before its figures were stored)`);
    }
    await db.$executeRawUnsafe('ANALYZE');

    server = await startNext(database.url);
    const perSize = seeded.map(runPages);
    const rows: { page: string; m: Measurement[] }[] = [];
    for (const [i, [page]] of (perSize[0] as [string, string][]).entries()) {
      const m: Measurement[] = [];
      for (const pages of perSize) m.push(await measureMedian(server.baseUrl + (pages[i] as [string, string])[1], SAMPLES));
      rows.push({ page, m });
    }
    const large = seeded[1] as BenchSeeded;
    const shared: [string, string][] = [
      ['home (leaderboards)', '/'],
      ['model page', `/models/${modelPath(large.models[0] as string)}`],
      ['search: replies', '/search?q=charlie'],
      ['search: prompts', '/search?q=item&kind=prompts'],
    ];
    const global: { page: string; m: Measurement }[] = [];
    for (const [page, path] of shared) global.push({ page, m: await measureMedian(server.baseUrl + path, SAMPLES) });

    console.log(`\nmedian of ${SAMPLES} requests each (after 2 warm-up requests); sizes on the wire with gzip, decoded in brackets`);
    console.log(seeded.map((s, i) => `${SIZES[i]!.slug} run ${s.runIds.at(-1)}: ${s.verdictsPerRun.at(-1)?.toLocaleString('en')} verdicts`).join('; ') + '\n');
    const cols = SIZES.map((z) => z.slug);
    const header = [pad('page', 30), ...cols.map((c) => lpad(`TTFB ${c}`, 11)), ...cols.map((c) => lpad(`total ${c}`, 12)), lpad('ratio', 6), lpad('largest page', 22), '  targets'].join(' ');
    console.log(header);
    console.log('-'.repeat(header.length));
    let failures = 0;
    for (const r of rows) {
      const [small, big, huge] = r.m as [Measurement, Measurement, Measurement | undefined];
      const totalRatio = big.totalMs / small.totalMs;
      const ttfbRatio = big.ttfbMs / small.ttfbMs;
      const biggest = r.m.reduce((a, b) => (b.decodedBytes > a.decodedBytes ? b : a));
      const misses = [
        ...r.m.filter((x) => x.status !== 200).map((x) => `HTTP ${x.status}`),
        ...(totalRatio > MAX_RATIO || ttfbRatio > MAX_RATIO ? [`${MAX_RATIO}×`] : []),
        ...(huge && huge.totalMs > HUGE_MAX_MS ? [`${HUGE_MAX_MS} ms`] : []),
        ...(r.m.some((x) => x.transferBytes >= MAX_BYTES || x.decodedBytes >= MAX_BYTES) ? ['500 KB'] : []),
      ];
      if (misses.length) failures++;
      console.log(
        [
          pad(r.page, 30),
          ...r.m.map((x) => lpad(ms(x.ttfbMs), 11)),
          ...r.m.map((x) => lpad(ms(x.totalMs), 12)),
          lpad(`${totalRatio.toFixed(2)}×`, 6),
          lpad(`${kb(biggest.transferBytes)} (${kb(biggest.decodedBytes)})`, 22),
          `  ${misses.length ? `MISSED (${misses.join(', ')})` : 'ok'}`,
        ].join(' '),
      );
      reportTarget({ name: `page total, 10⁵ / 10³ verdicts: ${r.page}`, value: totalRatio, unit: '×', atMost: MAX_RATIO });
      if (huge) reportTarget({ name: `page total at 10⁶ verdicts: ${r.page}`, value: huge.totalMs, unit: 'ms', atMost: HUGE_MAX_MS });
    }
    console.log('\npages that do not depend on one run (every run in the database):');
    for (const g of global) {
      console.log(`${pad(g.page, 30)} TTFB ${lpad(ms(g.m.ttfbMs), 9)}  total ${lpad(ms(g.m.totalMs), 9)}  ${kb(g.m.transferBytes)} (${kb(g.m.decodedBytes)})  HTTP ${g.m.status}`);
      if (g.page === 'home (leaderboards)' || g.page === 'model page') reportTarget({ name: `page total, every run stored: ${g.page}`, value: g.m.totalMs, unit: 'ms', atMost: SHARED_MAX_MS });
    }
    console.log(`\ntargets: ${failures === 0 ? 'all met' : `${failures} page(s) missed`} (the 10⁵-verdict run within ${MAX_RATIO}× the 10³ run, TTFB and total; ${HUGE_MAX_MS} ms total at 10⁶; under ${MAX_BYTES / 1024} KB)`);
    mkdirSync('bench/results', { recursive: true });
    writeFileSync('bench/results/pages.json', JSON.stringify({ at: new Date().toISOString(), samples: SAMPLES, sizes: SIZES, verdicts: seeded.map((s) => s.verdictsPerRun), rows, global }, null, 2));
  } finally {
    await server?.stop();
    await db.$disconnect();
    await database.drop();
    await admin.end();
  }
}
