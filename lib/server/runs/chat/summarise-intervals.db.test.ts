/**
 * The summariser's intervals and pass@k, through the real pipeline against the fake provider:
 * a blueprint with `repeats: 3` and `pass_threshold: 0.5` whose attempts the fake answers
 * differently (`times`), so each cell's passes, its unbiased pass@k / pass^k and the model's
 * interval (method, n attempts, clusters prompts) can be checked against hand-computed figures,
 * as stored and as read back through the one schema (stored-interval.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passCurve } from '@/lib/core';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import type { RunDeps } from '../engine/deps';
import { executeRun } from '../engine/execute-run';
import { requestRun } from '../request-run';
import { fakeDeps, noDispatch, storeBlueprint, TEST_DEFAULTS } from '../runs.testkit';
import { storedInterval, storedModelPassCurve, storedPassCurve } from '../../db/stored-interval';
import { rebuildCells, summariseRun } from './summarise';

let t: TestDatabase;
let fake: FakeLlm;
let deps: RunDeps;
let blueprintId: string;
let runId: string;

const BLUEPRINT = `title: Repeated
pass_threshold: 0.5
models: [openai:model-x, openai:model-y]
---
- id: alpha
  prompt: Alpha?
  repeats: 3
  should:
    - $icontains: "yes"
- id: beta
  prompt: Beta?
  repeats: 3
  should:
    - $icontains: "yes"
- id: gamma
  prompt: Gamma?
  repeats: 3
  should:
    - $icontains: "yes"
`;
// model-x: alpha passes 2 of 3 (the first attempt to arrive says no), beta 3 of 3, gamma 0 of 3;
// model-y passes every attempt.
const RULES = [
  { model: 'model-x', lastUser: 'Alpha', reply: 'no', times: 1 },
  { model: 'model-x', lastUser: 'Gamma', reply: 'no' },
  { model: /model-/, reply: 'yes' },
];

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: RULES });
  deps = await fakeDeps(t.db, fake.url, { sandbox: false, gradingPool: null });
  ({ blueprintId } = await storeBlueprint(t.db, 'repeated.yml', BLUEPRINT));
  ({ runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', judges: ['openai:judge-a'], bypassCache: true }, noDispatch, TEST_DEFAULTS));
  expect(await executeRun(deps, runId)).toBe('completed');
}, 120_000);
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

const cells = async () =>
  (await t.db.runCellSummary.findMany({ where: { runId }, orderBy: [{ modelId: 'asc' }, { promptKey: 'asc' }] })).map((c) => ({
    cell: `${c.modelId} ${c.promptKey}`,
    score: c.score,
    attempts: c.attempts,
    scoredAttempts: c.scoredAttempts,
    passes: c.passes,
    passAtK: c.passAtK,
    passHatK: c.passHatK,
    passCurve: storedPassCurve(c.passCurve),
  }));

describe(`summarised intervals and pass@k (${process.env.ASSAY_TEST_DB})`, () => {
  it('each cell stores its passes and the unbiased pass@k / pass^k for k = 1..3 (written as the run went)', async () => {
    const got = await cells();
    expect(got.map((c) => [c.cell, c.scoredAttempts, c.passes])).toEqual([
      ['openai:model-x alpha', 3, 2],
      ['openai:model-x beta', 3, 3],
      ['openai:model-x gamma', 3, 0],
      ['openai:model-y alpha', 3, 3],
      ['openai:model-y beta', 3, 3],
      ['openai:model-y gamma', 3, 3],
    ]);
    const alpha = got[0]!;
    // n=3, c=2: pass@1 = 2/3, pass@2 = 1 − C(1,2)/C(3,2) = 1, pass^2 = C(2,2)/C(3,2) = 1/3, pass^3 = 0
    expect(alpha.passCurve).toEqual(passCurve(3, 2));
    expect(alpha.passCurve![1]!.passHatK).toBeCloseTo(1 / 3, 14);
    expect([alpha.passAtK, alpha.passHatK]).toEqual([1, 0]);
    expect(alpha.score).toBeCloseTo(2 / 3, 14);
  });

  it('rebuilding the cells from the attempts gives the very rows the pipeline wrote', async () => {
    const incremental = await cells();
    await rebuildCells(t.db, runId);
    expect(await cells()).toEqual(incremental);
  });

  it('the model summary stores its interval with method, n and clusters, and the mean pass@k over prompts', async () => {
    const rows = await t.db.runModelSummary.findMany({ where: { runId }, orderBy: { modelId: 'asc' } });
    const [x, y] = rows;
    expect(x!.score).toBeCloseTo(5 / 9, 14); // (2/3 + 1 + 0) / 3
    const ix = storedInterval(x!);
    // 3 prompts (< 30) whose attempts disagree: the BCa cluster bootstrap over prompts
    expect(ix).toMatchObject({ method: 'bca-bootstrap', n: 9, clusters: 3, resamples: 1000, level: 0.95 });
    expect(ix!.low).toBeLessThanOrEqual(x!.score!);
    expect(ix!.high).toBeGreaterThanOrEqual(x!.score!);
    expect(x!.attemptCount).toBe(9);
    expect(x!.passThreshold).toBe(0.5);
    const curve = storedModelPassCurve(x!.passCurve)!;
    expect(curve.map((p) => p.k)).toEqual([1, 2, 3]);
    // k=1: (2/3 + 1 + 0)/3; k=2: pass@2 (1 + 1 + 0)/3, pass^2 (1/3 + 1 + 0)/3; k=3: pass^3 (0 + 1 + 0)/3
    expect(curve[0]!.passAtK).toBeCloseTo(5 / 9, 14);
    expect(curve[1]!.passAtK).toBeCloseTo(2 / 3, 14);
    expect(curve[1]!.passHatK).toBeCloseTo(4 / 9, 14);
    expect(curve[2]!.passHatK).toBeCloseTo(1 / 3, 14);
    expect(curve.every((p) => p.prompts === 3)).toBe(true);
    // model-y passed every attempt of every prompt: Wilson over the 3 prompts (3/3 → 43.8%–100%), n = 9 attempts
    const iy = storedInterval(y!);
    expect(iy).toMatchObject({ method: 'wilson', n: 9, clusters: 3, resamples: null, high: 1 });
    expect(iy!.low).toBeCloseTo(0.43849, 4);
  });

  it('the blueprint’s leaderboard entry carries the same interval and pass curve', async () => {
    const run = await t.db.runModelSummary.findMany({ where: { runId }, orderBy: { modelId: 'asc' } });
    const board = await t.db.blueprintModelSummary.findMany({ where: { blueprintId }, orderBy: { modelId: 'asc' } });
    expect(board.map((b) => storedInterval(b))).toEqual(run.map((r) => storedInterval(r)));
    expect(board.map((b) => storedModelPassCurve(b.passCurve))).toEqual(run.map((r) => storedModelPassCurve(r.passCurve)));
  });

  it('is reproducible: summarising again (same run id, same seed) stores the same interval', async () => {
    const before = (await t.db.runModelSummary.findMany({ where: { runId }, orderBy: { modelId: 'asc' } })).map((r) => storedInterval(r));
    await summariseRun(t.db, runId, { rebuildCells: true });
    const after = (await t.db.runModelSummary.findMany({ where: { runId }, orderBy: { modelId: 'asc' } })).map((r) => storedInterval(r));
    expect(after).toEqual(before);
  });

  it('a blueprint without pass_threshold stores no pass statistics', async () => {
    const { blueprintId: plain } = await storeBlueprint(t.db, 'plain.yml', BLUEPRINT.replace('pass_threshold: 0.5\n', '').replace('title: Repeated', 'title: Plain'));
    const { runId: r } = await requestRun(t.db, { blueprintId: plain, trigger: 'cli', judges: ['openai:judge-a'], bypassCache: true }, noDispatch, TEST_DEFAULTS);
    fake.setRules(RULES);
    expect(await executeRun(deps, r)).toBe('completed');
    const c = await t.db.runCellSummary.findFirstOrThrow({ where: { runId: r, modelId: 'openai:model-x', promptKey: 'alpha' } });
    expect([c.passes, c.passAtK, c.passCurve, c.scoredAttempts]).toEqual([null, null, null, 3]);
    const m = await t.db.runModelSummary.findFirstOrThrow({ where: { runId: r, modelId: 'openai:model-x' } });
    expect([m.passThreshold, m.passCurve]).toEqual([null, null]);
    expect(storedInterval(m)).toMatchObject({ n: 9, clusters: 3 });
  });
});
