/**
 * The demo's retrieval run is the pipeline's, on the example blueprint: on the one a local sync
 * of `blueprints/` made when there is one (so the home page lists the example once, with its
 * run), else on a copy stored under the same id; seeding again replaces the run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { syncSource } from '../../blueprints/sync-source';
import { localFolderReader } from '../../blueprints/local-folder-reader';
import { freshDatabase, type TestDatabase } from '../db.testkit';
import { DEMO_RETRIEVAL_RUN, demoRetrievalBlueprintId, seedRetrievalDemo } from './seed-retrieval-demo';

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

const kitchenSearches = () => t.db.blueprint.findMany({ where: { title: { startsWith: 'Kitchen search' }, removedAt: null }, select: { id: true, source: { select: { key: true } } } });

describe(`the retrieval demo (${process.env.ASSAY_TEST_DB})`, () => {
  it('without a synced example, stores one under the example id and runs it to completion', async () => {
    const seeded = await seedRetrievalDemo(t.db, { url: fake.url });
    expect(seeded.blueprintId).toBe('retrieval__kitchen-search');
    expect(await kitchenSearches()).toEqual([{ id: demoRetrievalBlueprintId, source: { key: 'local:demo' } }]);
    const run = await t.db.run.findUniqueOrThrow({ where: { id: DEMO_RETRIEVAL_RUN }, select: { status: true, kind: true } });
    expect(run).toEqual({ status: 'completed', kind: 'retrieval' });
    expect(seeded.queryIds).toHaveLength(20);
  }, 120_000);

  it('after a local sync of blueprints/, runs the synced example: one Kitchen search blueprint, with the run', async () => {
    await t.db.blueprint.deleteMany({ where: { id: demoRetrievalBlueprintId } });
    const sync = await syncSource({ db: t.db }, localFolderReader('blueprints'), { trigger: 'test' });
    expect(sync.errors).toEqual([]);
    const seeded = await seedRetrievalDemo(t.db, { url: fake.url });
    const listed = await kitchenSearches();
    expect(listed).toHaveLength(1);
    expect(listed[0]!.id).toBe(seeded.blueprintId);
    expect(listed[0]!.source.key).not.toBe('local:demo');
    const runs = await t.db.run.findMany({ where: { blueprintId: seeded.blueprintId }, select: { id: true, status: true } });
    expect(runs).toEqual([{ id: DEMO_RETRIEVAL_RUN, status: 'completed' }]);
    // seeding again replaces the run rather than failing on its fixed id
    await seedRetrievalDemo(t.db, { url: fake.url });
    expect(await t.db.run.count({ where: { blueprintId: seeded.blueprintId } })).toBe(1);
  }, 180_000);
});
