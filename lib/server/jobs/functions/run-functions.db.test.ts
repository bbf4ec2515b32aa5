/**
 * The run pipeline's Inngest functions, each executed by @inngest/test's engine with its real
 * steps against the fake LLM server and a real database: run-start plans and fans out,
 * run-cell generates and judges one prompt × model and asks for the summary when it is the
 * last, run-finish summarises. Driving every fanned-out event through run-cell completes the
 * run with the same results as the in-process runner.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InngestTestEngine } from '@inngest/test';
import { startFakeLlm, type FakeLlm } from '@/e2e/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../../db/testing';
import type { RunDeps } from '../../runs/deps';
import { requestRun } from '../../runs/request-run';
import { executeRun } from '../../runs/execute-run';
import { requestRescore } from '../../runs/request-rescore';
import { fakeDeps, noDispatch, storeCorpusBlueprint, TEST_DEFAULTS } from '../../runs/testing';
import { runFunctions } from './run-functions';

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

type Fn = 'start' | 'cell' | 'finish';
// Sending events is the boundary to Inngest's server: those steps are mocked, and the test
// reads what they were asked to send from the step spies.
const SENT = ['fan-out', 'all-cells-done', 'nothing-to-do'].map((id) => ({ id, handler: () => ({ ids: [] }) }));
// A fresh function per execution: a function object remembers step results between executions.
const engine = (which: Fn) => ({
  execute: (o: InngestTestEngine.InlineOptions) => {
    const [start, cell, finish] = runFunctions(async () => deps, { providerConcurrency: 4 });
    const fn = which === 'start' ? start : which === 'cell' ? cell : finish;
    return new InngestTestEngine({ function: fn, steps: SENT }).execute(o);
  },
});
const start = 'start' as const;
const cell = 'cell' as const;
const finish = 'finish' as const;

describe(`run functions (${process.env.ASSAY_TEST_DB})`, () => {
  it('start → cell × N → finish completes a run with the in-process runner’s results', async () => {
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'manual' }, noDispatch, TEST_DEFAULTS);

    const started = await engine(start).execute({ events: [{ name: 'assay/run.requested', data: { runId } }] });
    expect(started.ctx.step.run).toHaveBeenCalledWith(`plan:${runId}`, expect.any(Function));
    expect(started.result).toEqual({ runId, groups: 12 }); // 6 prompts × 2 models
    const fanOut = (started.ctx.step.sendEvent as unknown as { mock: { calls: [string, { name: string; data: Record<string, string> }[]][] } }).mock.calls[0]!;
    expect(fanOut[0]).toBe('fan-out');
    const events = fanOut[1];
    expect(events).toHaveLength(12);
    expect(events[0]).toMatchObject({ name: 'assay/run.cell.requested', data: { runId, provider: 'openrouter' } });
    expect(await t.db.run.findUniqueOrThrow({ where: { id: runId }, select: { status: true } })).toEqual({ status: 'running' });

    let last: Awaited<ReturnType<ReturnType<typeof engine>['execute']>> | undefined;
    for (const e of events) {
      last = await engine(cell).execute({ events: [{ name: e.name, data: e.data }] });
      expect(last.ctx.step.run).toHaveBeenCalledWith(`generate-and-judge:${runId}:${e.data.promptKey}@${e.data.modelId}`, expect.any(Function));
    }
    expect(last!.result).toMatchObject({ status: 'done', replies: 4, remaining: 0 });
    expect(last!.ctx.step.sendEvent).toHaveBeenCalledWith('all-cells-done', expect.objectContaining({ name: 'assay/run.cells.finished', data: { runId } }));
    expect(await t.db.reply.count({ where: { runId } })).toBe(48);

    const finished = await engine(finish).execute({ events: [{ name: 'assay/run.cells.finished', data: { runId } }] });
    expect(finished.ctx.step.run).toHaveBeenCalledWith(`summarise:${runId}`, expect.any(Function));
    expect(finished.result).toEqual({ runId, status: 'completed' });

    // The same blueprint through the in-process runner: identical scores.
    const local = await requestRun(t.db, { blueprintId, trigger: 'cli' }, noDispatch, TEST_DEFAULTS);
    expect(await executeRun(deps, local.runId)).toBe('completed');
    const scores = async (id: string) => (await t.db.runModelSummary.findMany({ where: { runId: id }, orderBy: { modelId: 'asc' } })).map((m) => [m.modelId, m.score]);
    expect(await scores(runId)).toEqual(await scores(local.runId));
  });

  it('a cell that is not the last does not ask for the summary, and a repeated cell event stores nothing twice', async () => {
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'manual', repeats: 2 }, noDispatch, TEST_DEFAULTS);
    await engine(start).execute({ events: [{ name: 'assay/run.requested', data: { runId } }] });
    const data = { runId, promptKey: 'test-basic-string-functions', modelId: 'openrouter:openai/gpt-4.1-mini', provider: 'openrouter' };
    const first = await engine(cell).execute({ events: [{ name: 'assay/run.cell.requested', data }] });
    expect(first.result).toMatchObject({ status: 'done', replies: 8, remaining: 11 });
    expect(first.ctx.step.sendEvent).not.toHaveBeenCalled();
    const calls = fake.stats().calls;
    await engine(cell).execute({ events: [{ name: 'assay/run.cell.requested', data }] });
    expect(fake.stats().calls).toBe(calls); // a redelivered event makes no call
    expect(await t.db.reply.count({ where: { runId } })).toBe(8);
    expect(await t.db.verdict.count({ where: { runId } })).toBe(8 * 4);
  });

  it('a rescore runs through the same functions: it judges the stored replies and calls no model', async () => {
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', models: ['openrouter:openai/gpt-4.1-mini'] }, noDispatch, TEST_DEFAULTS);
    expect(await executeRun(deps, runId)).toBe('completed');
    const rescore = await requestRescore(t.db, { runId, judges: ['openai:judge-b'] }, noDispatch, TEST_DEFAULTS);
    fake.reset();
    const started = await engine(start).execute({ events: [{ name: 'assay/run.rescore.requested', data: { runId: rescore.runId } }] });
    expect(started.result).toEqual({ runId: rescore.runId, groups: 6 });
    const events = (started.ctx.step.sendEvent as unknown as { mock: { calls: [string, { name: string; data: Record<string, string> }[]][] } }).mock.calls[0]![1];
    for (const e of events) await engine(cell).execute({ events: [{ name: e.name, data: e.data }] });
    const finished = await engine(finish).execute({ events: [{ name: 'assay/run.cells.finished', data: { runId: rescore.runId } }] });
    expect(finished.result).toEqual({ runId: rescore.runId, status: 'completed' });
    expect(new Set(fake.requests().map((r) => r.request.model))).toEqual(new Set(['judge-b']));
    expect(await t.db.reply.count({ where: { runId: rescore.runId } })).toBe(0);
    expect(await t.db.attemptScore.count({ where: { runId: rescore.runId } })).toBe(await t.db.reply.count({ where: { runId } }));
  });
});
