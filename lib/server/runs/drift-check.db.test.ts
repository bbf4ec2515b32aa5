/**
 * Drift checks through the real pipeline against the fake provider, on PostgreSQL and PGlite:
 * two scheduled runs of one blueprint version, between which the fake's provider swaps one
 * model's snapshot (new behaviour, new served model and fingerprint). The finish of the second
 * run stores one check per model: the swapped one flagged, with the served change; the steady
 * one not. Only scheduled runs are compared, a repeated finish changes nothing, and a reply
 * answered from the cache keeps the served record of the call that made it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultFingerprint } from '@/testing/fakes/llm-server-rules';
import { startFakeLlm, type FakeLlm, type RuleInput } from '@/testing/fakes/llm-server';
import { planBlueprint, ProviderMetaSchema } from '@/lib/core';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { getBlueprintPlan, runPromptResults } from '../db/queries/blueprint-plan';
import { listDriftChecks } from '../db/queries/drift';
import { getRunDiff } from '../db/queries/run-diff';
import type { RunDeps } from './engine/deps';
import { checkDrift } from './drift-check';
import { executeRun } from './engine/execute-run';
import { requestRun } from './request-run';
import { finish } from './chat/steps';
import { scheduleReruns } from '../jobs/functions/schedule-reruns';
import { fakeDeps, noDispatch, storeBlueprint, TEST_DEFAULTS } from './runs.testkit';

let t: TestDatabase;
let fake: FakeLlm;
let deps: RunDeps;
let blueprintId: string;

const N = 30;
const BLUEPRINT = `title: Drift probe
models: [openai:steady, openai:swapped]
---
${Array.from({ length: N }, (_, i) => `- id: q${i}\n  prompt: Question ${i}.\n  should:\n    - $icontains: alpha\n    - $icontains: beta\n`).join('')}`;

/** Replies by the last digit of the question: a score of 1 ("alpha beta"), 0.5 ("alpha") or 0 ("none"). */
const byDigit = (model: string, digits: Record<string, string>): RuleInput[] =>
  Object.entries(digits).map(([d, reply]) => ({ model: `^${model}$`, lastUser: `/Question \\d*[${d}]\\.$/`, reply }));
const STEADY = byDigit('steady', { '0-4': 'alpha beta', '5-9': 'alpha' });
const ROUND_1 = [...STEADY, ...byDigit('swapped', { '0-2': 'alpha beta', '3-6': 'alpha', '7-9': 'none' })];
/** The new snapshot: worse on most prompts. */
const ROUND_2 = [...STEADY, ...byDigit('swapped', { '0-2': 'alpha', '3-9': 'none' })];

const run = async (trigger: 'schedule' | 'manual', bypassCache = true) => {
  const { runId } = await requestRun(t.db, { blueprintId, trigger, bypassCache }, noDispatch, TEST_DEFAULTS);
  expect(await executeRun(deps, runId)).toBe('completed');
  return runId;
};

let first: string;
let second: string;

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: ROUND_1 });
  deps = await fakeDeps(t.db, fake.url, { sandbox: false, gradingPool: null });
  ({ blueprintId } = await storeBlueprint(t.db, 'drift/probe.yml', BLUEPRINT));
  first = await run('schedule');
  fake.setRules(ROUND_2);
  fake.setServed([{ model: '^swapped$', servedModel: 'swapped-2026-12-01', fingerprint: 'fp_new_snapshot' }]);
  second = await run('schedule');
}, 120_000);
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

describe(`drift checks (${process.env.ASSAY_TEST_DB})`, () => {
  it('stores on every reply what the provider said it served, and no other header', async () => {
    const replies = await t.db.reply.findMany({ where: { runId: { in: [first, second] }, modelId: 'openai:swapped' }, select: { runId: true, servedModel: true, systemFingerprint: true, providerMeta: true } });
    expect(replies).toHaveLength(2 * N);
    for (const r of replies) {
      expect([r.servedModel, r.systemFingerprint]).toEqual(r.runId === first ? ['swapped', defaultFingerprint('swapped')] : ['swapped-2026-12-01', 'fp_new_snapshot']);
      const meta = ProviderMetaSchema.parse(r.providerMeta);
      expect(Object.keys(meta.headers).sort()).toEqual(['openai-model', 'x-request-id']);
      expect(meta.headers['openai-model']).toBe(r.servedModel);
      expect(meta.responseId).toMatch(/^chatcmpl-fake-\d+$/);
    }
  });

  it('flags the swapped model, says the provider changed it, and leaves the steady one alone', async () => {
    const checks = await t.db.driftCheck.findMany({ where: { toRunId: second }, orderBy: { modelId: 'asc' } });
    expect(checks.map((c) => [c.modelId, c.fromRunId, c.flagged, c.servedChanged])).toEqual([
      ['openai:steady', first, false, false],
      ['openai:swapped', first, true, true],
    ]);
    const [steady, swapped] = checks as [(typeof checks)[0], (typeof checks)[0]];
    expect(steady).toMatchObject({ paired: N, difference: 0, ciLow: 0, ciHigh: 0 });
    expect(steady.reason).toMatch(/includes 0/);

    // hand-computed: per digit 0–2 −0.5, 3–6 −0.5, 7–9 0 → mean −0.35 over 30 prompts
    expect(swapped.difference).toBeCloseTo(-0.35, 12);
    expect(swapped.ciHigh!).toBeLessThan(0);
    expect(swapped.ciLow!).toBeLessThanOrEqual(swapped.difference!);
    // the MDE is the planner's on the earlier run, stored on that run when it was summarised
    expect(swapped.mde).toBeCloseTo(planBlueprint(await runPromptResults(t.db, first)).mde!, 12);
    expect((await t.db.run.findUniqueOrThrow({ where: { id: first }, select: { mde: true } })).mde).toBe(swapped.mde);
    expect(Math.abs(swapped.ciLow!)).toBeGreaterThanOrEqual(swapped.mde!);
    expect(swapped).toMatchObject({ servedModelBefore: 'swapped', servedModelAfter: 'swapped-2026-12-01', fingerprintBefore: defaultFingerprint('swapped'), fingerprintAfter: 'fp_new_snapshot' });
    const moved = swapped.moved as { promptKey: string; delta: number }[];
    expect(moved).toHaveLength(5);
    for (const m of moved) expect(m.delta).toBeCloseTo(-0.5, 12);
    // the earlier run has no predecessor: nothing to compare
    expect(await t.db.driftCheck.count({ where: { toRunId: first } })).toBe(0);
  });

  it('the run diff of the two runs shows each model’s change as the drift check does, and each run’s stored score', async () => {
    const version = (await t.db.run.findUniqueOrThrow({ where: { id: first }, select: { versionId: true } })).versionId;
    const diff = await getRunDiff(t.db, { id: first, versionId: version }, { id: second, versionId: version });
    const checks = await t.db.driftCheck.findMany({ where: { toRunId: second }, orderBy: { modelId: 'asc' } });
    const summaries = await t.db.runModelSummary.findMany({ where: { runId: { in: [first, second] } } });
    expect(diff.models.map((m) => m.modelId).sort()).toEqual(checks.map((c) => c.modelId));
    for (const c of checks) {
      const m = diff.models.find((x) => x.modelId === c.modelId)!;
      expect(m).toMatchObject({ difference: c.difference, paired: c.paired, fromDriftCheck: true });
      expect(m.olderScore).toBe(summaries.find((s) => s.runId === first && s.modelId === c.modelId)!.score);
      expect(m.newerScore).toBe(summaries.find((s) => s.runId === second && s.modelId === c.modelId)!.score);
    }
    // the steady model's 30 cells did not move: counted, never listed as moves of ±0.0
    expect(diff.cells.every((c) => c.modelId === 'openai:swapped' && Math.abs(c.delta) > 1e-9)).toBe(true);
    // swapped: digits 7–9 stay at 0 (9 prompts); steady: all 30
    expect(diff.unchangedCells).toBe(N + 9);
  });

  it('recomputes the same rows when a finish is repeated', async () => {
    const before = await t.db.driftCheck.findMany({ where: { toRunId: second }, orderBy: { modelId: 'asc' } });
    await finish(deps, second);
    const after = await t.db.driftCheck.findMany({ where: { toRunId: second }, orderBy: { modelId: 'asc' } });
    expect(after.map(({ createdAt: _c, ...rest }) => rest)).toEqual(before.map(({ createdAt: _c, ...rest }) => rest));
  });

  it('compares only scheduled runs, and a cached reply keeps the served record of the call that made it', async () => {
    fake.setServed(null); // the provider is back to the old identity, but the cache answers
    const manual = await run('manual', false);
    expect(await checkDrift(t.db, manual)).toEqual([]);
    expect(await t.db.driftCheck.count({ where: { toRunId: manual } })).toBe(0);
    const cached = await t.db.reply.findMany({ where: { runId: manual, modelId: 'openai:swapped' }, select: { fromCache: true, servedModel: true, systemFingerprint: true } });
    expect(cached.every((r) => r.fromCache && r.servedModel === 'swapped-2026-12-01' && r.systemFingerprint === 'fp_new_snapshot')).toBe(true);
    // a later scheduled run is compared with the last scheduled one, not with the manual run
    const third = await run('schedule');
    const checks = await t.db.driftCheck.findMany({ where: { toRunId: third }, select: { fromRunId: true, modelId: true, servedChanged: true } });
    expect(checks.map((c) => c.fromRunId)).toEqual([second, second]);
    expect(checks.find((c) => c.modelId === 'openai:swapped')?.servedChanged).toBe(true);
  });

  it('a cron tick repeats the identical run of an unchanged blueprint, and its finish checks drift', async () => {
    const latest = await t.db.run.findFirstOrThrow({ where: { blueprintId, trigger: 'schedule' }, orderBy: { createdAt: 'desc' }, select: { id: true, identityHash: true } });
    const requested: string[] = [];
    const ports = {
      requestRun: (db: typeof t.db, req: Parameters<typeof requestRun>[1], dispatcher: Parameters<typeof requestRun>[2]) => requestRun(db, req, dispatcher, TEST_DEFAULTS),
      dispatcher: { dispatch: async (runId: string) => void requested.push(runId) },
    };
    // the latest run is older than the policy's age: the identical run is due again, not skipped
    const [due] = await scheduleReruns(t.db, ports, { maxAgeDays: 0, maxPerTick: 1 }, new Date(Date.now() + 1000));
    expect(due).toMatchObject({ blueprintId, reason: 'stale', deduplicated: false });
    const rerun = await t.db.run.findUniqueOrThrow({ where: { id: due!.runId }, select: { identityHash: true, trigger: true, config: true } });
    expect(rerun).toMatchObject({ identityHash: latest.identityHash, trigger: 'schedule', config: { bypassCache: true } });
    expect(requested).toEqual([due!.runId]);
    expect(await executeRun(deps, due!.runId)).toBe('completed');
    const checks = await t.db.driftCheck.findMany({ where: { toRunId: due!.runId }, select: { fromRunId: true } });
    expect(checks.map((c) => c.fromRunId)).toEqual([latest.id, latest.id]);
  });

  it('the planner shows the latest run’s MDE as stored when it was summarised: the figure the drift checks from a run compare with', async () => {
    const result = (await getBlueprintPlan(t.db, blueprintId))!;
    const stored = await t.db.run.findUniqueOrThrow({ where: { id: result.run!.runId }, select: { mde: true } });
    expect(stored.mde).not.toBeNull();
    expect(result.runMde).toBe(stored.mde);
    expect(result.plan!.mde).toBeCloseTo(stored.mde!, 12);
    const fromSecond = await t.db.driftCheck.findMany({ where: { fromRunId: second }, select: { mde: true } });
    const secondMde = (await t.db.run.findUniqueOrThrow({ where: { id: second }, select: { mde: true } })).mde;
    expect(fromSecond.map((c) => c.mde)).toEqual([secondMde, secondMde]);
  });

  it('lists the checks for the drift page: flagged ones by default, newest first, filtered', async () => {
    const flagged = await listDriftChecks(t.db);
    expect(flagged.checks.map((c) => [c.toRunId, c.modelId])).toEqual([[second, 'openai:swapped']]);
    expect(flagged).toMatchObject({ total: 6, flagged: 1, blueprints: [{ id: blueprintId, title: 'Drift probe' }], models: ['openai:steady', 'openai:swapped'] });
    const [c] = flagged.checks;
    expect(c!.moved).toHaveLength(5);
    expect(c!.fromRunAt.getTime()).toBeLessThan(c!.toRunAt.getTime());
    const all = await listDriftChecks(t.db, { all: true });
    expect(all.checks).toHaveLength(6);
    // newest later run first; within one pair of runs, flagged first
    const toRuns = all.checks.map((x) => x.toRunAt.getTime());
    expect(toRuns).toEqual([...toRuns].sort((a, b) => b - a));
    const ofSecond = all.checks.filter((x) => x.toRunId === second).map((x) => x.modelId);
    expect(ofSecond).toEqual(['openai:swapped', 'openai:steady']);
    expect((await listDriftChecks(t.db, { all: true, modelId: 'openai:steady' })).checks.every((x) => x.modelId === 'openai:steady')).toBe(true);
    expect((await listDriftChecks(t.db, { blueprintId: 'no-such' })).checks).toEqual([]);
  });
});
