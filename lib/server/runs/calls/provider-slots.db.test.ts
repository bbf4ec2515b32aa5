/**
 * Provider slots shared through the database (provider-slots.ts): two app instances (two slot
 * holders and two gateways on one database) never have more calls in flight on a provider than
 * its maximum together; a dead instance's slot is free again once its lease lapses. Against the
 * fake provider configured as an account that refuses a 5th concurrent request (429), two
 * instances of 4 slots each meet no refusal with the shared slots, and meet refusals without.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { executeRun } from '../engine/execute-run';
import { LlmGateway } from './gateway';
import { databaseSlots, type SharedSlots } from './provider-slots';
import { requestRun } from '../request-run';
import { fakeDeps, noDispatch, storeBlueprint, TEST_DEFAULTS } from '../runs.testkit';

let t: TestDatabase;
let fake: FakeLlm;

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({ latencyMs: 40, rules: [{ model: 'judge-a', judge: { labels: { E: 1 } } }] });
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

describe(`provider slots shared by instances (${process.env.ASSAY_TEST_DB})`, () => {
  it('two instances together hold at most the limit, and every waiting taker gets a slot', async () => {
    const instances = [databaseSlots(t.db), databaseSlots(t.db)];
    let inFlight = 0;
    let peak = 0;
    const hold = async (slots: SharedSlots) => {
      const giveBack = await slots.take('openai', 3);
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight--;
      await giveBack();
    };
    await Promise.all(Array.from({ length: 24 }, (_, i) => hold(instances[i % 2]!)));
    expect(peak).toBe(3);
    expect(await t.db.providerSlot.count({ where: { provider: 'openai', holder: { not: null } } })).toBe(0);
  });

  it('a slot whose holder died (no renewal, never given back) is taken again once its lease lapses', async () => {
    const dead = databaseSlots(t.db, { ttlMs: 300, renewMs: 2 ** 30 });
    await dead.take('anthropic', 1);
    const [row] = await t.db.providerSlot.findMany({ where: { provider: 'anthropic', holder: { not: null } } });
    const alive = databaseSlots(t.db, { firstWaitMs: 20, maxWaitMs: 50 });
    const giveBack = await alive.take('anthropic', 1);
    // taken after the dead holder's lease ended, not before
    expect(Date.now()).toBeGreaterThanOrEqual(row!.expiresAt!.getTime());
    await giveBack();
  });

  it('keeps two gateways within an account’s concurrent limit that each alone would fill', { timeout: 120_000 }, async () => {
    const prompts = Array.from({ length: 16 }, (_, i) => `- id: p${i}\n  prompt: Say ${i}.\n  should:\n    - $contains: Fake`).join('\n');
    const { blueprintId } = await storeBlueprint(t.db, 'shared-slots.yml', `title: Shared slots\nmodels: [openai:model-s]\n---\n${prompts}\n`);
    const base = await fakeDeps(t.db, fake.url);
    const instance = (sharedSlots?: SharedSlots) => ({
      ...base,
      gateway: new LlmGateway({ db: t.db, providers: { keys: {}, baseUrlOverride: fake.url }, concurrency: 4, retry: { maxAttempts: 8, baseDelayMs: 5, maxDelayMs: 200 }, timeoutMs: 10_000, ...(sharedSlots ? { sharedSlots } : {}) }),
    });
    const twoRuns = async (shared: boolean) => {
      fake.reset();
      fake.setMaxConcurrent(4);
      const runs = await Promise.all([0, 1].map(() => requestRun(t.db, { blueprintId, trigger: 'cli', judges: ['openai:judge-a'], bypassCache: true }, noDispatch, TEST_DEFAULTS)));
      const statuses = await Promise.all(runs.map((r) => executeRun(instance(shared ? databaseSlots(t.db) : undefined), r.runId)));
      return { statuses, seen: fake.concurrency() };
    };

    const alone = await twoRuns(false);
    expect(alone.statuses).toEqual(['completed', 'completed']);
    expect(alone.seen.refused).toBeGreaterThan(0); // 2 × 4 slots against an account of 4

    const shared = await twoRuns(true);
    expect(shared.statuses).toEqual(['completed', 'completed']);
    expect(shared.seen.refused).toBe(0);
    expect(shared.seen.peak).toBeLessThanOrEqual(4);
    fake.setMaxConcurrent(null);
  });
});
