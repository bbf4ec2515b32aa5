/**
 * The demo's soev runs are the pipeline's, on the soev example's suites: stored as `assay run
 * project.yml` stores them (titled from the project's `extensions.assay.suites`), under the ids a
 * local sync of `blueprints/` gives them, so each suite is listed once, with its run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { syncSource } from '../../blueprints/sync-source';
import { localFolderReader } from '../../blueprints/local-folder-reader';
import { freshDatabase, type TestDatabase } from '../db.testkit';
import { demoSoevBlueprintId, seedSoevDemo } from './seed-soev-demo';

let t: TestDatabase;
let fake: FakeLlm;

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm();
}, 120_000);
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

const provider = () => ({ url: fake.url, setRules: (rules: Parameters<FakeLlm['setRules']>[0]) => fake.setRules(rules) });
const HUUR = demoSoevBlueprintId('suites/huur.yml');
const GRENZEN = demoSoevBlueprintId('suites/grenzen.yml');

describe(`the soev demo (${process.env.ASSAY_TEST_DB})`, () => {
  it('after a local sync of blueprints/, runs each synced suite once against the soev system, titled from the project', async () => {
    const sync = await syncSource({ db: t.db }, localFolderReader('blueprints'), { trigger: 'test' });
    expect(sync.errors).toEqual([]);
    // synced alone, a suite has no title of its own: its name stands in
    expect((await t.db.blueprint.findUniqueOrThrow({ where: { id: HUUR }, select: { title: true } })).title).toBe('huur');

    const seeded = await seedSoevDemo(t.db, provider());
    expect(seeded.runs.map((r) => [r.blueprintId, r.title])).toEqual([
      [HUUR, 'Rent questions, one rule each'],
      [GRENZEN, 'What the rent assistant declines'],
    ]);
    const listed = await t.db.blueprint.findMany({ where: { id: { in: [HUUR, GRENZEN] }, removedAt: null }, select: { id: true, description: true, source: { select: { key: true } } }, orderBy: { id: 'asc' } });
    expect(listed.map((b) => [b.id, b.source.key, b.description?.slice(0, 24)])).toEqual([
      [GRENZEN, 'local:blueprints', 'A request outside rent l'],
      [HUUR, 'local:blueprints', 'Deposit and maintenance '],
    ]);
    const runs = await t.db.run.findMany({ where: { blueprintId: { in: [HUUR, GRENZEN] } }, select: { id: true, status: true, models: true }, orderBy: { id: 'asc' } });
    expect(runs.map((r) => [r.id, r.status])).toEqual([
      ['soev-grenzen-run-1', 'completed'],
      ['soev-huur-run-1', 'completed'],
    ]);
    // the system answered every case (runs.k = 2 attempts), with the token and subject the fake requires
    const soevCalls = fake.requests().filter((x) => x.dialect === 'soev');
    expect(soevCalls.length).toBeGreaterThanOrEqual(12);
    expect(soevCalls.every((x) => x.status === 200 && x.request.model === 'soev:huurwijzer')).toBe(true);
    // the weakness the demo is written with: the informal R2-01 says something else (compare.substance fails), every other criterion is graded
    const verdicts = await t.db.verdict.groupBy({ by: ['fn', 'status'], where: { runId: 'soev-huur-run-1' }, _count: { _all: true } });
    const of = (fn: string) => Object.fromEntries(verdicts.filter((v) => v.fn === fn).map((v) => [v.status, v._count._all]));
    expect(of('compare.substance')).toEqual({ fail: 2 });
    expect(of('citations.required')).toEqual({ pass: 4 });
    expect(verdicts.some((v) => v.status === 'error')).toBe(false);

    // seeding again replaces the runs rather than failing on their fixed ids
    await seedSoevDemo(t.db, provider());
    expect(await t.db.run.count({ where: { blueprintId: { in: [HUUR, GRENZEN] } } })).toBe(2);
  }, 240_000);
});
