/**
 * The home page's leaderboard on the demo data (the demo seed: the real pipeline against the
 * fake provider), in process on the PostgreSQL server: the query and the view model, before
 * and after the board read its prompt scores. "Before" is the old path (one row per
 * blueprint × model, intervals combined from the rows); "after" is `getBoard` (the same rows
 * with their prompt scores in one round trip) with the hierarchical bootstrap and the tied
 * bands. Median of BENCH_SAMPLES (default 15) after a warm-up. Prints the board it made.
 *
 * ASSAY_BENCH_PG_URL sets the server (default postgresql://postgres@127.0.0.1:5432/postgres).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createDb } from '@/lib/server/db/client';
import { migrate } from '@/lib/server/db/migrate';
import { getBoard, getLeaderboardRows, getModelNames } from '@/lib/server/db/queries/leaderboard';
import { seedDemo } from '@/lib/server/db/seed/seed-demo';
import { leaderboardView } from '@/lib/views/leaderboard-view';
import { startFakeLlm } from '@/testing/fakes/llm-server';

const SERVER = process.env.ASSAY_BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const SAMPLES = Math.max(3, Number(process.env.BENCH_SAMPLES ?? 15));

async function median(fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((x, y) => x - y);
  return times[Math.floor(times.length / 2)] as number;
}

export async function bench(): Promise<void> {
  const name = `assay_bench_board_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SERVER });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  const db = createDb(url.toString());
  const fake = await startFakeLlm();
  try {
    await migrate(url.toString());
    await seedDemo(db, { url: fake.url, setRules: (rules) => fake.setRules(rules) });
    const before = await median(async () => {
      const rows = await getLeaderboardRows(db);
      const names = await getModelNames(db, [...new Set(rows.map((r) => r.modelId))]);
      return leaderboardView(rows, names, null);
    });
    const queryOnly = await median(() => getBoard(db));
    let view: ReturnType<typeof leaderboardView> | null = null;
    const after = await median(async () => {
      const { rows, prompts } = await getBoard(db);
      const names = await getModelNames(db, [...new Set(rows.map((r) => r.modelId))]);
      view = leaderboardView(rows, names, null, { prompts });
    });
    const { rows, prompts } = await getBoard(db);
    const names = await getModelNames(db, [...new Set(rows.map((r) => r.modelId))]);
    const viewOnly = await median(async () => leaderboardView(rows, names, null, { prompts }));
    console.log(`view model alone (hierarchical bootstrap + bands): ${viewOnly.toFixed(1)} ms`);
    console.log(`demo board: ${rows.length} rows, ${prompts.length} prompt scores`);
    console.log(`leaderboard section (query + view), median of ${SAMPLES}: before ${before.toFixed(1)} ms, after ${after.toFixed(1)} ms (getBoard alone ${queryOnly.toFixed(1)} ms)`);
    for (const e of view!.entries) console.log(`  ${e.rank} ${e.label.padEnd(28)} ${e.scoreLabel.padStart(5)}  [${e.intervalLabel}]  ${e.bandLabel}  ${e.costLabel}/prompt  ${e.latencyLabel}`);
  } finally {
    await fake.close();
    await db.$disconnect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}
