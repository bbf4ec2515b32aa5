/**
 * Rescore with a changed rubric (re-grade stored replies under a later version of the
 * blueprint and another judge set, no model calls; a new result linked to the old). The
 * budget stop, and a rescore under each scheduler, are the shared scheduler suite's
 * (scheduler-suite.testkit.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { executeRun } from './engine/execute-run';
import { requestRun } from './request-run';
import { requestRescore } from './request-rescore';
import { fakeDeps, noDispatch, storeBlueprint, TEST_DEFAULTS } from './runs.testkit';

let t: TestDatabase;
let fake: FakeLlm;

const V1 = `title: Rescore me
models: [openai:model-x, openai:model-y]
---
- id: capital
  prompt: What is the capital of France?
  should:
    - Names Paris as the capital
    - $icontains: paris
- id: tone
  prompt: Say something kind.
  should:
    - Is kind
`;
// The changed rubric: same prompt ids, one point reworded, one added.
const V2 = V1.replace('- Is kind', '- Is kind and warm\n    - $word_count_between: [1, 50]');

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({
    keepRequests: 10_000,
    rules: [
      { model: 'judge-a', judge: { labels: { E: 1 } } },
      { model: 'judge-b', judge: { labels: { A: 1 } } },
      { model: 'judge-c', judge: { labels: { C: 1 } } },
      { lastUser: 'capital of France', reply: 'Paris is the capital of France.' },
    ],
  });
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

describe(`rescore (${process.env.ASSAY_TEST_DB})`, () => {
  it('re-grades stored replies with a changed rubric and judge set, calling no model, in a linked run', async () => {
    const { blueprintId } = await storeBlueprint(t.db, 'rescore.yml', V1);
    const deps = await fakeDeps(t.db, fake.url);
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', judges: ['openai:judge-a'] }, noDispatch, TEST_DEFAULTS);
    expect(await executeRun(deps, runId)).toBe('completed');
    const original = await t.db.verdict.findMany({ where: { runId }, orderBy: [{ promptKey: 'asc' }, { modelId: 'asc' }, { pointIndex: 'asc' }] });

    await storeBlueprint(t.db, 'rescore.yml', V2);
    const v2 = await t.db.blueprint.findUniqueOrThrow({ where: { id: blueprintId }, select: { latestVersionId: true } });
    fake.reset();
    const rescore = await requestRescore(t.db, { runId, versionId: v2.latestVersionId!, judges: ['openai:judge-c'] }, noDispatch, TEST_DEFAULTS);
    expect(await executeRun(deps, rescore.runId)).toBe('completed');

    // No model was called: every request went to the new judge.
    expect(fake.requests().length).toBeGreaterThan(0);
    expect(new Set(fake.requests().map((r) => r.request.model))).toEqual(new Set(['judge-c']));
    const run = await t.db.run.findUniqueOrThrow({ where: { id: rescore.runId } });
    expect(run).toMatchObject({ trigger: 'rescore', parentRunId: runId, status: 'completed' });
    expect(await t.db.reply.count({ where: { runId: rescore.runId } })).toBe(0);
    const verdicts = await t.db.verdict.findMany({ where: { runId: rescore.runId }, include: { reply: { select: { runId: true } } } });
    expect(verdicts.every((v) => v.reply.runId === runId)).toBe(true);
    // 2 models × (capital: 2 points + tone: 2 points).
    expect(verdicts).toHaveLength(8);
    const kind = verdicts.find((v) => v.pointText === 'Is kind and warm')!;
    expect(kind.score).toBe(0.5); // judge-c answers C: partially present
    // The original run is untouched.
    expect(await t.db.verdict.findMany({ where: { runId }, orderBy: [{ promptKey: 'asc' }, { modelId: 'asc' }, { pointIndex: 'asc' }] })).toEqual(original);
    const summaries = await t.db.runModelSummary.findMany({ where: { runId: rescore.runId } });
    expect(summaries).toHaveLength(2);
  });
});
