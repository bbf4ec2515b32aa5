/**
 * What a provider call pays for the slots shared across instances (lib/server/runs/calls/provider-slots.ts):
 * one take and one give-back per call, uncontended (a free slot at once) and contended (16 takers
 * on 4 slots, each holding its slot 5 ms, as calls on a busy provider), on PostgreSQL and on the
 * embedded PGlite. A provider call takes hundreds of milliseconds to minutes; the target is that
 * the slots add at most 5 ms to an uncontended call on PostgreSQL (where they are used: under
 * Inngest), with two `SELECT 1` round trips as the floor to read it against.
 */
import { freshDatabase, type TestEngine } from '@/lib/server/db/db.testkit';
import { databaseSlots } from '@/lib/server/runs/calls/provider-slots';
import { reportFigure, reportTarget } from './targets';

async function measure(engine: TestEngine): Promise<void> {
  const t = await freshDatabase(engine);
  try {
    const slots = databaseSlots(t.db);
    // warm: the provider's rows, the connection pool, the statements' plans
    for (let i = 0; i < 20; i++) await (await slots.take('openai', 20))();
    const n = 300;
    // the floor: two round trips that do nothing, as the take and the give-back are two statements
    for (let i = 0; i < 20; i++) await t.db.$queryRaw`SELECT 1`;
    const tb = performance.now();
    for (let i = 0; i < n; i++) {
      await t.db.$queryRaw`SELECT 1`;
      await t.db.$queryRaw`SELECT 1`;
    }
    const floor = (performance.now() - tb) / n;
    reportFigure({ name: `two SELECT 1 round trips (${engine})`, value: floor, unit: 'ms', note: 'the floor of two statements per call' });
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await (await slots.take('openai', 20))();
    const uncontended = (performance.now() - t0) / n;
    const name = `provider slot take + give back, uncontended (${engine})`;
    // Shared slots are wired only under Inngest, i.e. on PostgreSQL: the embedded database serves one process.
    if (engine === 'postgres') reportTarget({ name, value: uncontended, unit: 'ms/call', atMost: 5, note: `${n} calls in a row` });
    else reportFigure({ name, value: uncontended, unit: 'ms/call', note: `${n} calls in a row; informative (one process)` });

    const holds = 160;
    const hold = 5;
    let next = 0;
    let waited = 0;
    const t1 = performance.now();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next++ < holds) {
          const asked = performance.now();
          const giveBack = await slots.take('anthropic', 4);
          waited += performance.now() - asked;
          await new Promise((r) => setTimeout(r, hold));
          await giveBack();
        }
      }),
    );
    const wall = performance.now() - t1;
    // 160 holds of 5 ms on 4 slots take 200 ms at best: the rest is the slots' own cost and the takers' polling
    const ideal = (holds * hold) / 4;
    reportFigure({ name: `provider slots contended, 16 takers on 4 slots (${engine})`, value: wall / ideal, unit: '× ideal', note: `${holds} holds of ${hold} ms: ${wall.toFixed(0)} ms against ${ideal} ms; mean wait ${(waited / holds).toFixed(1)} ms` });
    console.log(`${engine}: uncontended ${uncontended.toFixed(2)} ms per call (two SELECT 1: ${floor.toFixed(2)} ms); contended ${wall.toFixed(0)} ms for ${holds} holds (ideal ${ideal} ms), mean wait ${(waited / holds).toFixed(1)} ms`);
  } finally {
    await t.close();
  }
}

export async function bench(): Promise<void> {
  await measure('postgres');
  await measure('pglite');
}
