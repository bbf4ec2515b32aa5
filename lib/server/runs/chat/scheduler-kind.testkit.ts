/**
 * A chat run, as the shared scheduler suite (../scheduler-suite.testkit.ts) tests it: four prompts ×
 * three models, each prompt with one function point and one judged point (one call to a judge that
 * gives log-probabilities). The fake's reply names the model and the prompt, so no two judge
 * requests are alike. Its own tests: a rescore, every model refused, a defect in one group.
 */
import { expect, it } from 'vitest';
import { StoredRunJudgeReliabilitySchema } from '@/lib/core';
import type { RuleInput } from '@/testing/fakes/llm-server';
import { computeRunJudgeReliability } from '../../db/queries/judge-reliability';
import { computeRunJudgeMethods } from '../../db/queries/run-judge-methods';
import { computeRunGroups } from '../../db/queries/run-groups';
import { requestRescore } from '../request-rescore';
import { fakeDeps, noDispatch, storeBlueprint, TEST_DEFAULTS } from '../runs.testkit';
import { SUITE_CONCURRENCY, type SuiteContext, type SuiteKind } from '../scheduler-kind.testkit';

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
/** One reply per prompt × model. */
const CELLS = PROMPTS * MODELS;
/** Each prompt has two points: one function, one judged. */
const VERDICTS = CELLS * 2;

/** The judges the fake plays: judge-a answers E (1), judge-b answers C (0.5). */
export const CHAT_JUDGE_RULES: RuleInput[] = [
  { model: 'judge-a', judge: { labels: { E: 1 } } },
  { model: 'judge-b', judge: { labels: { C: 1 } } },
];

const REFUSED = { status: 401, message: 'Incorrect API key provided: set OPENROUTER_API_KEY' };

const calls = (c: SuiteContext, model: string) => c.fake.requests().filter((r) => r.request.model === model).length;
const modelCalls = (c: Pick<SuiteContext, 'fake'>) => c.fake.requests().filter((r) => r.request.model.startsWith('model-')).length;

/** The scores a reader sees, per prompt × model and per model, and the judge figures the run stored when it finished. */
async function results(c: SuiteContext, runId: string) {
  const cells = await c.t.db.runCellSummary.findMany({ where: { runId }, orderBy: [{ promptKey: 'asc' }, { modelId: 'asc' }], select: { promptKey: true, modelId: true, score: true, attempts: true, errorCount: true } });
  const models = await c.t.db.runModelSummary.findMany({ where: { runId }, orderBy: { modelId: 'asc' }, select: { modelId: true, score: true, withheldReason: true } });
  const { judgeReliability, judgeMethods, groups } = await c.t.db.run.findUniqueOrThrow({ where: { id: runId }, select: { judgeReliability: true, judgeMethods: true, groups: true } });
  return { cells, models, judgeReliability, judgeMethods, groups };
}

export const chatSuiteKind: SuiteKind = {
  name: 'chat',
  async setUp(t, fakeUrl) {
    const deps = await fakeDeps(t.db, fakeUrl, { concurrency: SUITE_CONCURRENCY });
    const { blueprintId } = await storeBlueprint(t.db, 'scheduler-suite.yml', BLUEPRINT);
    return { deps, blueprintId, request: { judges: ['openai:judge-a'], bypassCache: true } };
  },
  complete: { doneCalls: CELLS, doneVerdicts: VERDICTS },
  work: (fake) => modelCalls({ fake }),
  workOfRun: CELLS,
  workPerCall: 1,
  async expectComplete(c, runId) {
    expect(await c.t.db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({ totalCalls: CELLS, errorCalls: 0 });
    expect(calls(c, 'judge-a')).toBe(CELLS);
    expect(c.fake.calls()).toBe(CELLS * 2);
    expect(await c.t.db.reply.count({ where: { runId } })).toBe(CELLS);
    expect(await c.t.db.attemptScore.count({ where: { runId } })).toBe(CELLS);
    expect(await c.t.db.verdict.count({ where: { runId } })).toBe(VERDICTS);
    const distinct = await c.t.db.$queryRaw<{ n: number }[]>`SELECT count(DISTINCT (reply_id, point_index))::int AS n FROM verdicts WHERE run_id = ${runId}`;
    expect(distinct[0]!.n).toBe(VERDICTS);
    const { cells, models, judgeReliability, judgeMethods, groups } = await results(c, runId);
    // stored when it finished, as its verdicts give them (a resumed run's are computed again when it finishes)
    expect(judgeReliability).toEqual(StoredRunJudgeReliabilitySchema.parse(await computeRunJudgeReliability(c.t.db, runId)));
    expect(judgeMethods).toEqual(await computeRunJudgeMethods(c.t.db, runId));
    expect(groups).toEqual((await computeRunGroups(c.t.db, runId)).models);
    expect(judgeMethods).toEqual([{ judge: 'openai:judge-a', approach: 'standard', method: 'logprobs', sampledBecause: null, n: null, count: PROMPTS * MODELS }]);
    expect(cells).toHaveLength(CELLS);
    expect(models).toHaveLength(MODELS);
    expect(models.every((s) => s.score !== null)).toBe(true);
  },
  results,
  stored: async (c, runId) => (await c.t.db.reply.findMany({ where: { runId }, select: { id: true, content: true } })).map((r) => [r.id, r.content]),
  async expectNothingSummarised(c, runId) {
    expect(await c.t.db.blueprintModelSummary.count({ where: { runId } })).toBe(0);
    const { doneCalls } = await c.t.db.run.findUniqueOrThrow({ where: { id: runId } });
    expect(await c.t.db.reply.count({ where: { runId } })).toBe(doneCalls);
  },
  killWhen: (fake) => fake.stats().completed >= 6,
  oneAtATime: false,
  budgetCalls: 5,
  failOneModel: (fake) => fake.setRules([{ model: 'model-y', error: REFUSED }, ...CHAT_JUDGE_RULES]),
  async expectOneModelFailed(c, runId, status, complete) {
    expect(status).toBe('completed');
    expect(await c.t.db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({ status: 'completed', error: null, doneCalls: CELLS, errorCalls: PROMPTS });
    expect(calls(c, 'model-y')).toBe(PROMPTS); // an auth error is not retried
    expect(calls(c, 'judge-a')).toBe(CELLS - PROMPTS); // a failed reply is not sent to the judges
    const replies = await c.t.db.reply.findMany({ where: { runId }, select: { modelId: true, error: true } });
    expect(replies.filter((x) => x.modelId !== 'openrouter:model-y' && x.error === null)).toHaveLength(CELLS - PROMPTS);
    expect(replies.filter((x) => x.modelId === 'openrouter:model-y' && /Incorrect API key/.test(x.error ?? ''))).toHaveLength(PROMPTS);
    const { models, cells } = await results(c, runId);
    expect(models.map((s) => [s.modelId, s.score === null, s.withheldReason])).toEqual([
      ['openrouter:model-x', false, null],
      ['openrouter:model-y', true, `every reply failed (${PROMPTS})`],
      ['openrouter:model-z', false, null],
    ]);
    // the other models' scores are those of a complete run
    const others = (r: { cells: typeof cells; models: typeof models }) => ({
      cells: r.cells.filter((x) => x.modelId !== 'openrouter:model-y'),
      models: r.models.filter((x) => x.modelId !== 'openrouter:model-y'),
    });
    expect(others({ cells, models })).toEqual(others(complete as Awaited<ReturnType<typeof results>>));
  },

  ownTests(context) {
    it('rescores: grades the parent’s stored replies with the new judge, calls no model, in a linked run', async () => {
      const c = context();
      const parentId = await c.newRun();
      expect(await c.adapter.run(c.deps, parentId)).toBe('completed');
      const { runId } = await requestRescore(c.t.db, { runId: parentId, judges: ['openai:judge-b'] }, noDispatch, TEST_DEFAULTS);
      c.fake.reset();
      expect(await c.adapter.run(c.deps, runId)).toBe('completed');
      expect(new Set(c.fake.requests().map((r) => r.request.model))).toEqual(new Set(['judge-b']));
      expect(calls(c, 'judge-b')).toBe(CELLS);
      expect(await c.t.db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({ trigger: 'rescore', parentRunId: parentId, status: 'completed', doneVerdicts: VERDICTS });
      expect(await c.t.db.reply.count({ where: { runId } })).toBe(0);
      expect(await c.t.db.attemptScore.count({ where: { runId } })).toBe(CELLS);
      const verdicts = await c.t.db.verdict.findMany({ where: { runId }, select: { score: true, kind: true, reply: { select: { runId: true } } } });
      expect(verdicts).toHaveLength(VERDICTS);
      expect(verdicts.every((v) => v.reply.runId === parentId)).toBe(true);
      // judge-b answers C (0.5) where judge-a answered E (1)
      expect(verdicts.filter((v) => v.kind === 'text').every((v) => v.score === 0.5)).toBe(true);
    });

    it('every model refused: the run fails with the provider’s message', async () => {
      const c = context();
      c.fake.setRules([{ model: /model-/, error: REFUSED }, ...CHAT_JUDGE_RULES]);
      const runId = await c.newRun();
      expect(await c.adapter.run(c.deps, runId)).toBe('failed');
      const r = await c.t.db.run.findUniqueOrThrow({ where: { id: runId } });
      expect(r.status).toBe('failed');
      expect(r.error).toMatch(new RegExp(`^every reply failed \\(${CELLS}\\): ${CELLS} × .*Incorrect API key provided`));
      expect(calls(c, 'judge-a')).toBe(0);
    });

    it('a defect in one group: the run is failed with its reason, the other groups’ cells are stored', async () => {
      const c = context();
      const runId = await c.newRun();
      // A stored reply whose turns break the stored schema: grading it is a defect (not a provider error).
      await c.t.db.reply.create({
        data: { runId, promptKey: 'kind', modelId: 'openrouter:model-y', systemIndex: 0, temperatureIndex: 0, attempt: 0, temperature: null, turns: 42, content: 'hello' },
      });
      await c.t.db.run.update({ where: { id: runId }, data: { doneCalls: 1 } });
      const status = await c.adapter.run(c.deps, runId).catch((e: unknown) => `threw: ${(e as Error).message}`);
      expect(status).toMatch(/^(failed|threw: .*replies\.turns)/);
      const r = await c.t.db.run.findUniqueOrThrow({ where: { id: runId } });
      expect(r.status).toBe('failed');
      expect(r.error).toMatch(/replies\.turns/);
      // Every other group was generated and graded.
      expect(await c.t.db.reply.count({ where: { runId } })).toBe(CELLS);
      expect(await c.t.db.attemptScore.count({ where: { runId } })).toBe(CELLS - 1);
      expect(modelCalls(c)).toBe(CELLS - 1);
    });
  },
};
