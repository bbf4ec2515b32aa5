/**
 * The run pipeline's Inngest functions, each executed by @inngest/test's engine with its real
 * steps against the fake LLM server and a real database: what is particular to Inngest (step
 * ids, fan-out, the concurrency keys of generation and of judging). What every scheduler must
 * do (resume, budget, rescore, failures) is the shared suite's: runs/scheduler.inngest.db.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InngestTestEngine } from '@inngest/test';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import type { RunDeps } from '../../runs/deps';
import { requestRun } from '../../runs/request-run';
import { executeRun } from '../../runs/execute-run';
import { fakeDeps, noDispatch, storeCorpusBlueprint, TEST_DEFAULTS } from '../../runs/runs.testkit';
import { judgeEventData, runFunctions } from './run-functions';

let t: TestDatabase;
let fake: FakeLlm;
let deps: RunDeps;
let blueprintId: string;

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: [{ model: 'judge-a', judge: { labels: { D: 1 } } }, { model: 'judge-b', judge: { labels: { B: 0.5, E: 0.5 } } }] });
  deps = await fakeDeps(t.db, fake.url);
  ({ blueprintId } = await storeCorpusBlueprint(t.db, 'test.yml'));
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

type Fn = 'start' | 'cell' | 'judge' | 'finish';
type Sent = { name: string; data: Record<string, string>; id?: string };
// Sending events is the boundary to Inngest's server: those steps are mocked (fresh per engine:
// shared mocks replay one execution's step results in the next), and the test reads what they
// were asked to send from the step spies.
const sent = () => ['fan-out', 'generated', 'all-cells-done', 'nothing-to-do', 'budget-stop'].map((id) => ({ id, handler: () => ({ ids: [] }) }));
// A fresh function per execution: a function object remembers step results between executions.
const functions = () => runFunctions(async () => deps, { providerConcurrency: 4 });
const engine = (which: Fn) => ({
  execute: (o: InngestTestEngine.InlineOptions) => {
    const [start, cell, judge, finish] = functions();
    const fn = { start, cell, judge, finish }[which];
    return new InngestTestEngine({ function: fn, steps: sent() }).execute(o);
  },
});
const sentBy = (ctx: { step: { sendEvent: unknown } }) =>
  (ctx.step.sendEvent as { mock: { calls: [string, Sent | Sent[]][] } }).mock.calls.map(([id, e]) => [id, Array.isArray(e) ? e : [e]] as const);
const start = 'start' as const;
const cell = 'cell' as const;
const judge = 'judge' as const;
const finish = 'finish' as const;

describe(`run functions (${process.env.ASSAY_TEST_DB})`, () => {
  it('start → cell × N → judge × N → finish completes a run with the in-process runner’s results', async () => {
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'manual' }, noDispatch, TEST_DEFAULTS);

    const started = await engine(start).execute({ events: [{ name: 'assay/run.requested', data: { runId } }] });
    expect(started.ctx.step.run).toHaveBeenCalledWith(`plan:${runId}`, expect.any(Function));
    expect(started.result).toEqual({ runId, groups: 12 }); // 6 prompts × 2 models
    const [[fanOutId, events]] = sentBy(started.ctx as never) as [readonly [string, Sent[]]];
    expect(fanOutId).toBe('fan-out');
    expect(events).toHaveLength(12);
    expect(events[0]).toMatchObject({ name: 'assay/run.cell.requested', data: { runId, provider: 'openrouter' } });
    expect(await t.db.run.findUniqueOrThrow({ where: { id: runId }, select: { status: true } })).toEqual({ status: 'running' });

    const judging: Sent[] = [];
    for (const e of events) {
      const out = await engine(cell).execute({ events: [{ name: e.name, data: e.data }] });
      expect(out.ctx.step.run).toHaveBeenCalledWith(`generate:${runId}:${e.data.promptKey}@${e.data.modelId}`, expect.any(Function));
      expect(out.result).toEqual({ status: 'done', cells: 4 });
      const [[id, next]] = sentBy(out.ctx as never) as [readonly [string, Sent[]]];
      expect(id).toBe('generated');
      judging.push(...next);
    }
    expect(await t.db.reply.count({ where: { runId } })).toBe(48);
    expect(await t.db.attemptScore.count({ where: { runId } })).toBe(0); // generation and grading are separate functions

    let last: Awaited<ReturnType<ReturnType<typeof engine>['execute']>> | undefined;
    for (const e of judging) {
      last = await engine(judge).execute({ events: [{ name: e.name, data: e.data }] });
      expect(last.ctx.step.run).toHaveBeenCalledWith(`judge:${runId}:${e.data.promptKey}@${e.data.modelId}`, expect.any(Function));
    }
    expect(last!.result).toMatchObject({ status: 'done', cells: 4, remaining: 0 });
    expect(last!.ctx.step.sendEvent).toHaveBeenCalledWith('all-cells-done', expect.objectContaining({ name: 'assay/run.cells.finished', data: { runId } }));

    const finished = await engine(finish).execute({ events: [{ name: 'assay/run.cells.finished', data: { runId } }] });
    expect(finished.ctx.step.run).toHaveBeenCalledWith(`summarise:${runId}`, expect.any(Function));
    expect(finished.result).toEqual({ runId, status: 'completed' });

    // The same blueprint through the in-process runner: identical scores.
    const local = await requestRun(t.db, { blueprintId, trigger: 'cli' }, noDispatch, TEST_DEFAULTS);
    expect(await executeRun(deps, local.runId)).toBe('completed');
    const scores = async (id: string) => (await t.db.runModelSummary.findMany({ where: { runId: id }, orderBy: { modelId: 'asc' } })).map((m) => [m.modelId, m.score]);
    expect(await scores(runId)).toEqual(await scores(local.runId));
  });

  it('judge calls are limited by the judges’ providers: the judge event carries them as its two concurrency keys', async () => {
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'manual', judges: ['openai:judge-a', 'anthropic:judge-c'] }, noDispatch, TEST_DEFAULTS);
    await engine(start).execute({ events: [{ name: 'assay/run.requested', data: { runId } }] });
    const data = { runId, promptKey: 'test-basic-string-functions', modelId: 'openrouter:openai/gpt-4.1-mini', provider: 'openrouter' };
    const out = await engine(cell).execute({ events: [{ name: 'assay/run.cell.requested', data }] });
    const [[, [judgeEvent]]] = sentBy(out.ctx as never) as [readonly [string, Sent[]]];
    expect(judgeEvent).toMatchObject({ name: 'assay/run.judge.requested', data: { runId, promptKey: data.promptKey, modelId: data.modelId, judgeProvider: 'anthropic', judgeProvider2: 'openai' } });

    const [, cellFn, judgeFn] = functions();
    // generation waits for a slot of the model's provider; grading for a slot of each judge provider,
    // in the same env-wide queues (a key's value is its queue, whichever function uses it)
    expect(cellFn.opts.concurrency).toEqual([{ key: 'event.data.provider', limit: 4, scope: 'env' }]);
    expect(judgeFn.opts.concurrency).toEqual([
      { key: 'event.data.judgeProvider', limit: 4, scope: 'env' },
      { key: 'event.data.judgeProvider2', limit: 4, scope: 'env' },
    ]);
    // a panel on one provider: the second key is the slice's own (never contended)
    expect(judgeEventData(runId, { promptKey: 'p', modelId: 'openrouter:m', judgeProviders: ['openai'] })).toMatchObject({ judgeProvider: 'openai', judgeProvider2: `slice:${runId}:p@openrouter:m` });
  });

  it('a slice that is not the last does not ask for the finish; a redelivered cell event makes no call and stores nothing twice', async () => {
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'manual', repeats: 2 }, noDispatch, TEST_DEFAULTS);
    await engine(start).execute({ events: [{ name: 'assay/run.requested', data: { runId } }] });
    const data = { runId, promptKey: 'test-basic-string-functions', modelId: 'openrouter:openai/gpt-4.1-mini', provider: 'openrouter' };
    const first = await engine(cell).execute({ events: [{ name: 'assay/run.cell.requested', data }] });
    expect(first.result).toEqual({ status: 'done', cells: 8 });
    const calls = fake.stats().calls;
    const again = await engine(cell).execute({ events: [{ name: 'assay/run.cell.requested', data }] });
    expect(again.result).toEqual({ status: 'done', cells: 0 }); // the step ran, and found nothing to generate
    expect(fake.stats().calls).toBe(calls);
    expect(await t.db.reply.count({ where: { runId } })).toBe(8);
    const [[, [judgeEvent]]] = sentBy(first.ctx as never) as [readonly [string, Sent[]]];
    const judged = await engine(judge).execute({ events: [{ name: judgeEvent!.name, data: judgeEvent!.data }] });
    expect(judged.result).toEqual({ status: 'done', cells: 8, remaining: 11 });
    expect(judged.ctx.step.sendEvent).not.toHaveBeenCalled();
    expect(await t.db.verdict.count({ where: { runId } })).toBe(8 * 4);
  });
});
