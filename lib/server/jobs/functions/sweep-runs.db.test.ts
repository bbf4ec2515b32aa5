/**
 * Which runs the sweeper resumes, against a real database: a run left running, summarising or
 * queued with nothing about it changed for the quiet time and no live lease; never one a worker
 * still holds (the in-process runner's lease on the run, a slice's on a unit), nor one waiting
 * for a provider's batch, nor a finished one, nor one that changed within the quiet time. (The sweeper resuming a run end to end, after
 * the database was lost: run-functions.db.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { storeBlueprint } from '../../runs/runs.testkit';
import { storePlan, takeUnit, unitId } from '../../runs/units/unit-store';
import { quietRuns } from './sweep-runs';

let t: TestDatabase;
let versionId: string;
let blueprintId: string;
beforeAll(async () => {
  t = await freshDatabase();
  ({ blueprintId } = await storeBlueprint(t.db, 'sweep.yml', 'title: Sweep\n---\n- id: p\n  prompt: q\n  should: [a]\n'));
  versionId = (await t.db.blueprint.findUniqueOrThrow({ where: { id: blueprintId }, select: { latestVersionId: true } })).latestVersionId!;
});
afterAll(async () => {
  await t.close();
});

let n = 0;
const newRun = async (status: 'queued' | 'running' | 'summarising' | 'completed' | 'failed') =>
  (await t.db.run.create({ data: { identityHash: `sweep-${++n}`, blueprintId, versionId, trigger: 'cli', models: [], judges: [], config: {}, status } })).id;
/** Makes everything about a run look `ms` old (its row, its plan, its units). */
const age = async (runId: string, ms: number) => {
  await t.db.$executeRaw`UPDATE runs SET updated_at = now() - make_interval(secs => ${ms / 1000}) WHERE id = ${runId}`;
  await t.db.$executeRaw`UPDATE run_units SET updated_at = now() - make_interval(secs => ${ms / 1000}) WHERE run_id = ${runId}`;
  await t.db.$executeRaw`UPDATE run_plans SET created_at = now() - make_interval(secs => ${ms / 1000}) WHERE run_id = ${runId}`;
};
const HOUR = 3_600_000;

describe(`sweeper (${process.env.ASSAY_TEST_DB})`, () => {
  it('finds the quiet unfinished runs nobody holds, each with the moment it went quiet', async () => {
    const [queued, running, summarising, completed, failed, recent, runLeased, unitLeased, batching] = await Promise.all(
      (['queued', 'running', 'summarising', 'completed', 'failed', 'running', 'running', 'running', 'running'] as const).map(newRun),
    );
    // a provider works on its batch: the run waits, it is not stuck
    await t.db.providerBatch.create({ data: { runId: batching!, provider: 'openai', externalId: `batch-${batching}`, state: 'submitted', status: 'in_progress', lines: {}, lineCount: 1, submittedAt: new Date(Date.now() - HOUR) } });
    await t.db.$executeRaw`UPDATE runs SET lease_holder = 'cli:1:abc', lease_expires_at = now() + interval '1 minute' WHERE id = ${runLeased!}`;
    await storePlan(t.db, unitLeased!, 'e', [{ key: 'u', step: 'generate', data: {}, keys: ['openai'] }], HOUR);
    for (const id of [queued, running, summarising, completed, failed, runLeased, unitLeased, batching]) await age(id!, 20 * 60_000);
    // a slice holds its unit, its lease live though nothing else changed for 20 minutes
    expect(await takeUnit(t.db, unitId(unitLeased!, 'e', 'u'), 'slice', 60_000)).toMatchObject({ runId: unitLeased });
    await age(unitLeased!, 20 * 60_000);

    const found = await quietRuns(t.db, 15 * 60_000);
    const ids = found.map((r) => r.runId);
    expect(ids).toEqual(expect.arrayContaining([queued, running, summarising]));
    for (const id of [completed, failed, recent, runLeased, unitLeased, batching]) expect(ids).not.toContain(id);
    // asked again while nothing changed: the same moments (the same execution ids, dropped as repeats)
    expect(await quietRuns(t.db, 15 * 60_000)).toEqual(found);
  });
});
