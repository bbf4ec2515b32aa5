/**
 * The unit store's promises, against a real database: planning an execution twice writes the
 * same rows and a newer execution replaces them; units settled concurrently bring the plan's
 * count to 0 exactly, and a unit waiting for several is opened by the last of them; a failed unit
 * takes what it led to with it; the finish is claimed once (again by its own retry); and a
 * unit's lease counts as the run's in the statement that reserves a provider call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { reserveCall } from '../calls/call-ledger';
import { storeBlueprint } from '../runs.testkit';
import { afterUnit, claimFinish, failUnit, openUnits, settleUnit, storePlan, takeUnit, unitId, type UnitSpec } from './unit-store';

let t: TestDatabase;
beforeAll(async () => {
  t = await freshDatabase();
});
afterAll(async () => {
  await t.close();
});

let n = 0;
async function newRun(): Promise<string> {
  const { blueprintId } = await storeBlueprint(t.db, `units-${++n}.yml`, 'title: Units\n---\n- id: p\n  prompt: q\n  should: [a]\n');
  const { latestVersionId } = await t.db.blueprint.findUniqueOrThrow({ where: { id: blueprintId }, select: { latestVersionId: true } });
  return (await t.db.run.create({ data: { identityHash: `units-${n}`, blueprintId, versionId: latestVersionId!, trigger: 'cli', models: [], judges: [], config: {} } })).id;
}

/** Twenty embed batches of one model leading to its scoring, and a lone unit. */
const PLAN: UnitSpec[] = [
  ...Array.from({ length: 20 }, (_, i): UnitSpec => ({ key: `embed-${i}`, step: 'embed', data: { batchIndex: i }, keys: ['openai'], then: 'score' })),
  { key: 'score', step: 'score', data: {}, keys: ['score'] },
  { key: 'lone', step: 'generate', data: {}, keys: ['openrouter', 'anthropic'] },
];
const HOUR = 3_600_000;

describe(`run units (${process.env.ASSAY_TEST_DB})`, () => {
  it('plans an execution once; a newer execution replaces the rows', async () => {
    const runId = await newRun();
    expect(await storePlan(t.db, runId, 'e1', PLAN, HOUR)).toEqual({ units: 22, open: 22 });
    expect(await storePlan(t.db, runId, 'e1', PLAN, HOUR)).toEqual({ units: 22, open: 22 });
    expect(await t.db.runUnit.count({ where: { runId } })).toBe(22);
    const open = await openUnits(t.db, runId, 'e1', null, 100);
    expect(open).toHaveLength(21); // the scoring waits
    expect(open.find((u) => u.id === unitId(runId, 'e1', 'lone'))).toMatchObject({ key1: 'openrouter', key2: 'anthropic' });
    expect(open.find((u) => u.id === unitId(runId, 'e1', 'embed-0'))).toMatchObject({ key1: 'openai', key2: `unit:${unitId(runId, 'e1', 'embed-0')}` });
    await storePlan(t.db, runId, 'e2', PLAN.slice(20), HOUR); // the scoring and the lone unit
    expect(await t.db.runUnit.findMany({ where: { runId }, select: { execution: true }, distinct: ['execution'] })).toEqual([{ execution: 'e2' }]);
    // a slice of the replaced execution settles nothing
    await settleUnit(t.db, unitId(runId, 'e1', 'lone'));
    expect((await t.db.runPlan.findUniqueOrThrow({ where: { runId } })).openUnits).toBe(2);
  });

  it('units settled concurrently: the count reaches 0 exactly, and the waiting unit opens with its last prerequisite', async () => {
    const runId = await newRun();
    await storePlan(t.db, runId, 'e', PLAN, HOUR);
    const embeds = PLAN.filter((u) => u.step === 'embed').map((u) => unitId(runId, 'e', u.key));
    // each settled twice at once, as two invocations of one slice would
    await Promise.all([...embeds, ...embeds].map((id) => settleUnit(t.db, id)));
    const score = unitId(runId, 'e', 'score');
    expect(await t.db.runUnit.findUniqueOrThrow({ where: { id: score }, select: { state: true, waitsOn: true } })).toEqual({ state: 'open', waitsOn: 0 });
    expect(await afterUnit(t.db, embeds[0]!)).toMatchObject({ next: { id: score }, finish: false });
    await Promise.all([score, unitId(runId, 'e', 'lone')].map((id) => settleUnit(t.db, id)));
    expect((await t.db.runPlan.findUniqueOrThrow({ where: { runId } })).openUnits).toBe(0);
    expect(await afterUnit(t.db, score)).toEqual({ next: null, finish: true });
  });

  it('a unit that failed takes the unit it led to with it; the finish is claimed once, and again only by its own retry', async () => {
    const runId = await newRun();
    await storePlan(t.db, runId, 'e', PLAN, HOUR);
    await failUnit(t.db, unitId(runId, 'e', 'embed-3'), 'a defect');
    expect(await t.db.runUnit.findUniqueOrThrow({ where: { id: unitId(runId, 'e', 'score') }, select: { state: true } })).toEqual({ state: 'failed' });
    expect((await t.db.runPlan.findUniqueOrThrow({ where: { runId } })).openUnits).toBe(20);
    expect(await claimFinish(t.db, runId, 'e', { force: false, by: 'finish-last' })).toBe(false); // siblings still open
    for (const u of PLAN) if (u.key !== 'embed-3' && u.key !== 'score') await settleUnit(t.db, unitId(runId, 'e', u.key));
    expect(await afterUnit(t.db, unitId(runId, 'e', 'lone'))).toEqual({ next: null, finish: true });
    const asking = ['finish-last', 'finish-stop', 'finish-last'];
    const claims = await Promise.all(asking.map((by) => claimFinish(t.db, runId, 'e', { force: by === 'finish-stop', by })));
    const winners = new Set(asking.filter((_, i) => claims[i]));
    const by = (await t.db.runPlan.findUniqueOrThrow({ where: { runId } })).finishedBy!;
    expect([...winners]).toEqual([by]); // one claimant (its repeat may claim again)
    expect(await claimFinish(t.db, runId, 'e', { force: true, by })).toBe(true); // its own retry
    expect(await claimFinish(t.db, runId, 'e', { force: true, by: `${by}-other` })).toBe(false);
    expect(await claimFinish(t.db, runId, 'older', { force: true, by: 'x' })).toBe(false);
  });

  it('a unit’s lease counts as the run’s when a provider call is reserved; a lapsed or foreign one does not', async () => {
    const runId = await newRun();
    await storePlan(t.db, runId, 'e', PLAN, HOUR);
    const id = unitId(runId, 'e', 'lone');
    expect(await takeUnit(t.db, id, 'slice-a', 60_000)).toMatchObject({ runId, step: 'generate' });
    expect(await takeUnit(t.db, id, 'slice-b', 60_000)).toBe('busy');
    expect(await reserveCall(t.db, { runId, holder: 'slice-a' })).toBe('ok');
    expect(await reserveCall(t.db, { runId, holder: 'slice-b' })).toBe('lease');
    await t.db.$executeRaw`UPDATE run_units SET lease_expires_at = now() - interval '1 second' WHERE id = ${id}`;
    expect(await reserveCall(t.db, { runId, holder: 'slice-a' })).toBe('lease');
    expect(await takeUnit(t.db, id, 'slice-b', 60_000)).toMatchObject({ runId });
    await settleUnit(t.db, id);
    expect(await takeUnit(t.db, id, 'slice-c', 60_000)).toBe('settled');
  });
});
