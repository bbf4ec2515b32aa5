/**
 * Adaptive back-off (AIMD, adaptive-limit.ts) against the fake provider configured as a
 * rate-limited account: it answers 429 to any request arriving while 3 are being answered.
 * The gateway starts at 16 slots; each first 429 of a window halves its limit, so the run
 * completes with every reply and verdict (the retries succeed once the limit fits), the
 * provider never sees more than its 3, and most calls are never refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { PROVIDER_CONCURRENCY } from '../../providers';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { executeRun } from '../engine/execute-run';
import { LlmGateway } from './gateway';
import { requestRun } from '../request-run';
import { fakeDeps, noDispatch, storeBlueprint, TEST_DEFAULTS } from '../runs.testkit';

let t: TestDatabase;
let fake: FakeLlm;

const PROMPTS = 30;
const prompts = Array.from({ length: PROMPTS }, (_, i) => `- id: p${i}\n  prompt: Say ${i}.\n  should:\n    - Says ${i}`).join('\n');
const BLUEPRINT = `title: Rate limited\nmodels: [openai:model-x]\n---\n${prompts}\n`;

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({ latencyMs: 30, maxConcurrent: 3, rules: [{ model: 'judge-a', judge: { labels: { E: 1 } } }] });
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

describe(`adaptive back-off on 429 (${process.env.ASSAY_TEST_DB})`, () => {
  it('halves the limit on rate limiting, so a run over a 3-call account completes without errors', async () => {
    const { blueprintId } = await storeBlueprint(t.db, 'rate-limited.yml', BLUEPRINT);
    const deps = await fakeDeps(t.db, fake.url, { concurrency: 16 });
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', judges: ['openai:judge-a'], bypassCache: true }, noDispatch, TEST_DEFAULTS);
    expect(await executeRun(deps, runId)).toBe('completed');

    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(run.doneCalls).toBe(PROMPTS);
    expect(run.errorCalls).toBe(0);
    expect(run.doneVerdicts).toBe(PROMPTS);
    expect(run.errorVerdicts).toBe(0);

    const seen = fake.concurrency();
    const completed = fake.stats().completed;
    expect(completed).toBe(2 * PROMPTS); // a reply and a judge call per prompt, none twice
    expect(seen.peak).toBeLessThanOrEqual(3);
    expect(seen.refused).toBeGreaterThan(0); // the first burst of 16 met the limit
    // With a fixed 16 slots, 13 of every burst would be refused and retried until retries ran
    // out; halving brings the limit near 3 after a few windows.
    expect(seen.refused).toBeLessThan(completed);
    const slots = (deps.gateway as LlmGateway).slotStats().openai!;
    expect(slots.decreases).toBeGreaterThanOrEqual(2);
    expect(slots.limit).toBeLessThan(16);
    // Every refused call was counted as made (it was sent), and nothing stays reserved.
    expect(run.providerCalls).toBe(completed + seen.refused);
    expect(run.reservedCalls).toBe(0);
  });

  it('without an override each provider starts at its row of the default table', async () => {
    const gateway = new LlmGateway({ db: t.db, providers: { keys: {}, baseUrlOverride: fake.url } });
    fake.setMaxConcurrent(null);
    const { blueprintId } = await storeBlueprint(t.db, 'defaults.yml', `title: Defaults\nmodels: [openai:model-y]\n---\n- id: p\n  prompt: Hi.\n  should: [Greets]\n`);
    const base = await fakeDeps(t.db, fake.url);
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', judges: ['openai:judge-a'], bypassCache: true }, noDispatch, TEST_DEFAULTS);
    expect(await executeRun({ ...base, gateway }, runId)).toBe('completed');
    expect(gateway.slotStats().openai?.limit).toBe(PROVIDER_CONCURRENCY.openai);
  });
});
