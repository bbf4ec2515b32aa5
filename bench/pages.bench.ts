/**
 * Reader pages on a small and a large run (SPEC §8: "large runs (10⁵ verdicts) load fast").
 * Runs through the pipeline against the fake provider (bench/pages-seed.ts), in a fresh
 * database on the PostgreSQL server, a blueprint whose latest run has 1,000 verdicts
 * (20 prompts × 5 models × 10 points) and one with 100,000 (500 × 20 × 10), each with an
 * earlier run for the diff. Then starts `next start` (the existing production
 * build; `npm run build` first) against it and measures every page type on both runs: the
 * median over several requests of time to first byte, time to the last byte, and size on the
 * wire (gzip, as browsers ask) and decoded. Targets: the large run's pages within 2× the small
 * run's time, and under 500 KB each.
 *
 * ASSAY_BENCH_PG_URL sets the server (default postgresql://postgres@127.0.0.1:5432/postgres);
 * BENCH_SAMPLES the requests per page (default 7); BENCH_KEEP_DB=1 keeps the database (its URL is
 * printed) to look into a page's queries afterwards. Results also go to bench/results/pages.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb } from '@/lib/server/db/client';
import { migrate } from '@/lib/server/db/migrate';
import { seedBenchBlueprint, type BenchSeeded } from './pages-seed';
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

export async function bench(): Promise<void> {
  ensureBuild();
  const name = `assay_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  const db = createDb(databaseUrl);
  let server: Awaited<ReturnType<typeof startNext>> | null = null;
  try {
    await migrate(databaseUrl);
    let t = Date.now();
    const small = await seedBenchBlueprint(db, { slug: 'small', title: 'Bench: small run', prompts: 20, models: 5, runs: 2 });
    console.log(`seeded small: ${small.verdictsPerRun.map((v) => v.toLocaleString('en')).join(' + ')} verdicts in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    t = Date.now();
    const large = await seedBenchBlueprint(db, { slug: 'large', title: 'Bench: large run', prompts: 500, models: 20, runs: 2 });
    console.log(`seeded large: ${large.verdictsPerRun.map((v) => v.toLocaleString('en')).join(' + ')} verdicts in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    await db.$executeRawUnsafe('ANALYZE');

    server = await startNext(databaseUrl);
    const smallPages = runPages(small);
    const largePages = runPages(large);
    const rows: { page: string; small: Measurement; large: Measurement }[] = [];
    for (const [i, [page, smallPath]] of smallPages.entries()) {
      const largePath = (largePages[i] as [string, string])[1];
      rows.push({ page, small: await measureMedian(server.baseUrl + smallPath, SAMPLES), large: await measureMedian(server.baseUrl + largePath, SAMPLES) });
    }
    const shared: [string, string][] = [
      ['home (leaderboards)', '/'],
      ['model page', `/models/${modelPath(large.models[0] as string)}`],
      ['search: replies', '/search?q=charlie'],
      ['search: prompts', '/search?q=item&kind=prompts'],
    ];
    const global: { page: string; m: Measurement }[] = [];
    for (const [page, path] of shared) global.push({ page, m: await measureMedian(server.baseUrl + path, SAMPLES) });

    console.log(`\nmedian of ${SAMPLES} requests each (after 2 warm-up requests); sizes on the wire with gzip, decoded in brackets`);
    console.log(`small run ${small.runIds.at(-1)}: ${small.verdictsPerRun.at(-1)?.toLocaleString('en')} verdicts; large run ${large.runIds.at(-1)}: ${large.verdictsPerRun.at(-1)?.toLocaleString('en')} verdicts\n`);
    const header = [pad('page', 30), lpad('TTFB small', 11), lpad('TTFB large', 11), lpad('ratio', 6), lpad('total small', 12), lpad('total large', 12), lpad('ratio', 6), lpad('size small', 22), lpad('size large', 22), '  targets'].join(' ');
    console.log(header);
    console.log('-'.repeat(header.length));
    let failures = 0;
    for (const r of rows) {
      const ttfbRatio = r.large.ttfbMs / r.small.ttfbMs;
      const totalRatio = r.large.totalMs / r.small.totalMs;
      const ok = r.small.status === 200 && r.large.status === 200 && totalRatio <= MAX_RATIO && ttfbRatio <= MAX_RATIO && r.large.transferBytes < MAX_BYTES && r.large.decodedBytes < MAX_BYTES;
      if (!ok) failures++;
      console.log(
        [
          pad(r.page, 30),
          lpad(ms(r.small.ttfbMs), 11),
          lpad(ms(r.large.ttfbMs), 11),
          lpad(`${ttfbRatio.toFixed(2)}×`, 6),
          lpad(ms(r.small.totalMs), 12),
          lpad(ms(r.large.totalMs), 12),
          lpad(`${totalRatio.toFixed(2)}×`, 6),
          lpad(`${kb(r.small.transferBytes)} (${kb(r.small.decodedBytes)})`, 22),
          lpad(`${kb(r.large.transferBytes)} (${kb(r.large.decodedBytes)})`, 22),
          `  ${ok ? 'ok' : `MISSED${r.small.status !== 200 || r.large.status !== 200 ? ` (HTTP ${r.small.status}/${r.large.status})` : ''}`}`,
        ].join(' '),
      );
    }
    console.log('\npages that do not depend on one run (both runs in the database):');
    for (const g of global) console.log(`${pad(g.page, 30)} TTFB ${lpad(ms(g.m.ttfbMs), 9)}  total ${lpad(ms(g.m.totalMs), 9)}  ${kb(g.m.transferBytes)} (${kb(g.m.decodedBytes)})  HTTP ${g.m.status}`);
    console.log(
      `\ntargets: large-run pages within ${MAX_RATIO}× the small run's time (TTFB and total) and under ${MAX_BYTES / 1024} KB (wire and decoded): ${failures === 0 ? 'all met' : `${failures} page(s) missed`}`,
    );
    mkdirSync('bench/results', { recursive: true });
    writeFileSync('bench/results/pages.json', JSON.stringify({ at: new Date().toISOString(), samples: SAMPLES, small: small.verdictsPerRun, large: large.verdictsPerRun, rows, global }, null, 2));
  } finally {
    await server?.stop();
    await db.$disconnect();
    if (process.env.BENCH_KEEP_DB === '1') console.log(`\nthe database is kept: ${databaseUrl}`);
    else await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}
