/**
 * The one suite every run scheduler must pass (one shared suite for every adapter, as
 * providers/llm-client-contract.testkit.ts is for the LLM clients): the in-process runner and the Inngest functions each give an adapter, and
 * the same tests run against each, through the real steps, a real database and the fake LLM
 * server (the only test double, at the network boundary). Each test counts what the fake was
 * asked and what the database holds, so a scheduler that repeats a call, loses a reply or
 * decides an end of its own fails here.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm, type RuleInput } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import type { RunDeps } from './engine/deps';
import { requestRun } from './request-run';
import { requestRescore } from './request-rescore';
import { fakeDeps, noDispatch, storeBlueprint, TEST_DEFAULTS } from './runs.testkit';

export interface SchedulerAdapter {
  name: string;
  /** Executes the run until it ends (or stops) and returns the status the scheduler reports. */
  run(deps: RunDeps, runId: string): Promise<string>;
  /**
   * Executes the run and kills the execution part-way, once `killNow()` says so, as a worker
   * that dies does: the run is left as it was at that moment (status running), nothing finishes it.
   */
  runAndKill(deps: RunDeps, runId: string, killNow: () => boolean): Promise<void>;
  /** Completed calls a resume may make again: those on the wire at the kill (0 when a kill falls between steps). */
  repeatsAfterKill: number;
}

/** Per provider, in each worker's gateway: the in-flight calls a kill may leave unrecorded. */
export const SUITE_CONCURRENCY = 2;

const BLUEPRINT = `title: Scheduler suite
models: [openrouter:model-x, openrouter:model-y, openrouter:model-z]
---
- id: capital
  prompt: What is the capital of France?
  should:
    - $icontains: fake reply
    - Names Paris as the capital
- id: kind
  prompt: Say something kind.
  should:
    - $word_count_between: [1, 50]
    - Is kind
- id: count
  prompt: Count to three.
  should:
    - $word_count_between: [1, 50]
    - Counts to three
- id: colour
  prompt: Name a colour.
  should:
    - $icontains: colour
    - Names a colour
`;
const PROMPTS = 4;
const MODELS = 3;
/** One reply per prompt × model: the fake's reply names the model and the prompt, so no two judge requests are alike. */
const CELLS = PROMPTS * MODELS;
/** Each prompt has two points: one function, one judged (one call to a judge that gives log-probabilities). */
const VERDICTS = CELLS * 2;

const RULES: RuleInput[] = [
  { model: 'judge-a', judge: { labels: { E: 1 } } },
  { model: 'judge-b', judge: { labels: { C: 1 } } },
];

export function runSchedulerSuite(adapter: SchedulerAdapter): void {
  let t: TestDatabase;
  let fake: FakeLlm;
  let deps: RunDeps;
  let blueprintId: string;

  const newRun = async (extra: Partial<Parameters<typeof requestRun>[1]> = {}) =>
    (await requestRun(t.db, { blueprintId, trigger: 'cli', judges: ['openai:judge-a'], bypassCache: true, ...extra }, noDispatch, TEST_DEFAULTS)).runId;
  const calls = (model: string) => fake.requests().filter((r) => r.request.model === model).length;
  const modelCalls = () => fake.requests().filter((r) => r.request.model.startsWith('model-')).length;
  const run = (runId: string) => t.db.run.findUniqueOrThrow({ where: { id: runId } });
  const distinctVerdicts = async (runId: string) => (await t.db.$queryRaw<{ n: number }[]>`SELECT count(DISTINCT (reply_id, point_index))::int AS n FROM verdicts WHERE run_id = ${runId}`)[0]!.n;

  beforeAll(async () => {
    t = await freshDatabase();
    fake = await startFakeLlm({ rules: RULES, keepRequests: 10_000, latencyMs: 5 });
    deps = await fakeDeps(t.db, fake.url, { concurrency: SUITE_CONCURRENCY });
    ({ blueprintId } = await storeBlueprint(t.db, 'scheduler-suite.yml', BLUEPRINT));
  });
  afterAll(async () => {
    await fake?.close();
    await t?.close();
  });
  beforeEach(() => fake.reset());

  describe(`scheduler: ${adapter.name} (${process.env.ASSAY_TEST_DB})`, () => {
    it('completes a run: every cell generated once, graded once, summarised', async () => {
      const runId = await newRun();
      expect(await adapter.run(deps, runId)).toBe('completed');
      expect(await run(runId)).toMatchObject({ status: 'completed', error: null, totalCalls: CELLS, doneCalls: CELLS, errorCalls: 0, doneVerdicts: VERDICTS, providerCalls: CELLS * 2, reservedCalls: 0 });
      expect(modelCalls()).toBe(CELLS);
      expect(calls('judge-a')).toBe(CELLS);
      expect(fake.duplicateCompletedCalls()).toBe(0);
      expect(await t.db.reply.count({ where: { runId } })).toBe(CELLS);
      expect(await t.db.attemptScore.count({ where: { runId } })).toBe(CELLS);
      expect(await t.db.verdict.count({ where: { runId } })).toBe(VERDICTS);
      expect(await t.db.runCellSummary.count({ where: { runId } })).toBe(PROMPTS * MODELS);
      const summaries = await t.db.runModelSummary.findMany({ where: { runId } });
      expect(summaries).toHaveLength(MODELS);
      expect(summaries.every((s) => s.score !== null)).toBe(true);
      // Asked again, a settled run is left alone: no call, no second finish.
      const finishedAt = (await run(runId)).finishedAt;
      expect(await adapter.run(deps, runId)).toBe('completed');
      expect(fake.calls()).toBe(CELLS * 2);
      expect((await run(runId)).finishedAt).toEqual(finishedAt);
    });

    it('resumes after a kill: no completed call repeated beyond those on the wire, every reply stored once', async () => {
      const runId = await newRun();
      fake.setLatency(40); // calls long enough for the kill to land mid-run
      await adapter.runAndKill(deps, runId, () => fake.stats().completed >= 6);
      fake.setLatency(5);
      const killed = await run(runId);
      expect(killed.status).toBe('running');
      const before = await t.db.reply.findMany({ where: { runId }, select: { id: true, content: true } });
      expect(before.length).toBeGreaterThan(0);
      expect(before.length).toBeLessThan(CELLS);

      expect(await adapter.run(deps, runId)).toBe('completed');
      expect(await run(runId)).toMatchObject({ status: 'completed', doneCalls: CELLS, doneVerdicts: VERDICTS, reservedCalls: 0 });
      expect(await t.db.reply.count({ where: { runId } })).toBe(CELLS);
      expect(await t.db.attemptScore.count({ where: { runId } })).toBe(CELLS);
      expect(await t.db.verdict.count({ where: { runId } })).toBe(VERDICTS);
      expect(await distinctVerdicts(runId)).toBe(VERDICTS);
      // What was stored before the kill is kept as it was.
      const after = new Map((await t.db.reply.findMany({ where: { runId }, select: { id: true, content: true } })).map((r) => [r.id, r.content]));
      for (const r of before) expect(after.get(r.id)).toBe(r.content);
      expect(fake.duplicateCompletedCalls()).toBeLessThanOrEqual(adapter.repeatsAfterKill);
      expect(modelCalls()).toBeLessThanOrEqual(CELLS + adapter.repeatsAfterKill);
      expect(modelCalls()).toBeGreaterThanOrEqual(CELLS);
    });

    it('stops at its call budget (budget_exceeded, never a call beyond it), and resumes to completion', async () => {
      const runId = await newRun({ budget: { maxCalls: 5 } });
      expect(await adapter.run(deps, runId)).toBe('budget_exceeded');
      const stopped = await run(runId);
      expect(stopped).toMatchObject({ status: 'budget_exceeded', providerCalls: 5 });
      expect(stopped.error).toMatch(/budget/);
      expect(fake.calls()).toBe(5);
      expect(stopped.doneCalls).toBeLessThan(CELLS);
      expect(await t.db.reply.count({ where: { runId } })).toBe(stopped.doneCalls);
      expect(await t.db.blueprintModelSummary.count({ where: { runId } })).toBe(0);

      await t.db.run.update({ where: { id: runId }, data: { maxCalls: null } });
      expect(await adapter.run(deps, runId)).toBe('completed');
      expect(await run(runId)).toMatchObject({ status: 'completed', error: null, doneCalls: CELLS, doneVerdicts: VERDICTS });
      expect(fake.duplicateCompletedCalls()).toBe(0);
      expect(modelCalls()).toBe(CELLS);
    });

    it('rescores: grades the parent’s stored replies with the new judge, calls no model, in a linked run', async () => {
      const parentId = await newRun();
      expect(await adapter.run(deps, parentId)).toBe('completed');
      const { runId } = await requestRescore(t.db, { runId: parentId, judges: ['openai:judge-b'] }, noDispatch, TEST_DEFAULTS);
      fake.reset();
      expect(await adapter.run(deps, runId)).toBe('completed');
      expect(new Set(fake.requests().map((r) => r.request.model))).toEqual(new Set(['judge-b']));
      expect(calls('judge-b')).toBe(CELLS);
      expect(await run(runId)).toMatchObject({ trigger: 'rescore', parentRunId: parentId, status: 'completed', doneVerdicts: VERDICTS });
      expect(await t.db.reply.count({ where: { runId } })).toBe(0);
      expect(await t.db.attemptScore.count({ where: { runId } })).toBe(CELLS);
      const verdicts = await t.db.verdict.findMany({ where: { runId }, select: { score: true, kind: true, reply: { select: { runId: true } } } });
      expect(verdicts).toHaveLength(VERDICTS);
      expect(verdicts.every((v) => v.reply.runId === parentId)).toBe(true);
      // judge-b answers C (0.5) where judge-a answered E (1)
      expect(verdicts.filter((v) => v.kind === 'text').every((v) => v.score === 0.5)).toBe(true);
    });

    it('a model whose provider always refuses: its cells are error replies, the other model’s are stored, and the run completes', async () => {
      fake.setRules([{ model: 'model-y', error: { status: 401, message: 'Incorrect API key provided: set OPENROUTER_API_KEY' } }, ...RULES]);
      const runId = await newRun();
      expect(await adapter.run(deps, runId)).toBe('completed');
      const r = await run(runId);
      expect(r).toMatchObject({ status: 'completed', error: null, doneCalls: CELLS, errorCalls: PROMPTS });
      expect(calls('model-y')).toBe(PROMPTS); // an auth error is not retried
      expect(calls('judge-a')).toBe(CELLS - PROMPTS); // a failed reply is not sent to the judges
      const replies = await t.db.reply.findMany({ where: { runId }, select: { modelId: true, error: true } });
      expect(replies.filter((x) => x.modelId !== 'openrouter:model-y' && x.error === null)).toHaveLength(CELLS - PROMPTS);
      expect(replies.filter((x) => x.modelId === 'openrouter:model-y' && /Incorrect API key/.test(x.error ?? ''))).toHaveLength(PROMPTS);
      const summaries = await t.db.runModelSummary.findMany({ where: { runId }, orderBy: { modelId: 'asc' } });
      expect(summaries.map((s) => [s.modelId, s.score === null, s.withheldReason])).toEqual([
        ['openrouter:model-x', false, null],
        ['openrouter:model-y', true, `every reply failed (${PROMPTS})`],
        ['openrouter:model-z', false, null],
      ]);
    });

    it('every model refused: the run fails with the provider’s message', async () => {
      fake.setRules([{ model: /model-/, error: { status: 401, message: 'Incorrect API key provided: set OPENROUTER_API_KEY' } }, ...RULES]);
      const runId = await newRun();
      expect(await adapter.run(deps, runId)).toBe('failed');
      const r = await run(runId);
      expect(r.status).toBe('failed');
      expect(r.error).toMatch(new RegExp(`^every reply failed \\(${CELLS}\\): ${CELLS} × .*Incorrect API key provided`));
      expect(calls('judge-a')).toBe(0);
    });

    it('a defect in one group: the run is failed with its reason, the other groups’ cells are stored', async () => {
      const runId = await newRun();
      // A stored reply whose turns break the stored schema: grading it is a defect (not a provider error).
      await t.db.reply.create({
        data: { runId, promptKey: 'kind', modelId: 'openrouter:model-y', systemIndex: 0, temperatureIndex: 0, attempt: 0, temperature: null, turns: 42, content: 'hello' },
      });
      await t.db.run.update({ where: { id: runId }, data: { doneCalls: 1 } });
      const status = await adapter.run(deps, runId).catch((e: unknown) => `threw: ${(e as Error).message}`);
      expect(status).toMatch(/^(failed|threw: .*replies\.turns)/);
      const r = await run(runId);
      expect(r.status).toBe('failed');
      expect(r.error).toMatch(/replies\.turns/);
      // Every other group was generated and graded.
      expect(await t.db.reply.count({ where: { runId } })).toBe(CELLS);
      expect(await t.db.attemptScore.count({ where: { runId } })).toBe(CELLS - 1);
      expect(modelCalls()).toBe(CELLS - 1);
    });
  });
}
