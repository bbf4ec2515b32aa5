/**
 * The demo is made by the pipeline, so it cannot contradict itself: every function and
 * `correct:` verdict of every demo run, re-graded here with the point functions on the reply
 * stored beside it, gives the stored score; every judge's record agrees with the evidence in
 * that reply. On PostgreSQL and PGlite, against the fake provider over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BlueprintSchema,
  buildResponseView,
  createQuickJsSandbox,
  evaluateCorrect,
  evaluatePoint,
  normaliseToolCall,
  PASS_AT,
  resolvePointFunction,
  parseStored,
  StoredJudgesSchema,
  type Point,
  type QuickJsSandbox,
  type ToolCall,
} from '@/lib/core';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../db.testkit';
import { DEMO_LIVE_RUN, seedDemo, startDemoLiveRun, type DemoProvider, type SeededDemo } from './seed-demo';
import { EVIDENCE } from './demo-replies';
import { DEMO_MODELS, LIVE_ROUND, OVERLOADED, rateLimitedModels, SWAPPED } from './demo-models';
import { getRunProgress } from '../queries/run-progress';
import { progressJson, progressView } from '@/lib/views/progress-view';

let t: TestDatabase;
let fake: FakeLlm;
let demo: SeededDemo;
let sandbox: QuickJsSandbox;
const NOW = new Date('2026-11-30T12:00:00Z');

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm();
  const provider: DemoProvider = { url: fake.url, setRules: (rules) => fake.setRules(rules) };
  demo = await seedDemo(t.db, provider, { now: NOW });
  await startDemoLiveRun(t.db, provider);
  sandbox = await createQuickJsSandbox();
}, 180_000);
afterAll(async () => {
  sandbox?.dispose();
  await fake?.close();
  await t?.close();
});

/** Each stored verdict's point, as the run's own blueprint version defines it. */
async function pointsByVersion(): Promise<Map<string, Map<string, Point[]>>> {
  const versions = await t.db.blueprintVersion.findMany({ where: { runs: { some: {} } }, select: { id: true, normalized: true } });
  return new Map(versions.map((v) => [v.id, new Map(BlueprintSchema.parse(v.normalized).prompts.map((p) => [p.id, p.points]))]));
}

describe(`the demo seed (${process.env.ASSAY_TEST_DB})`, () => {
  it('is a set of pipeline runs: five blueprints, eight completed runs a week apart, one in progress', async () => {
    const runs = await t.db.run.findMany({ orderBy: { createdAt: 'asc' }, select: { id: true, status: true, createdAt: true, totalCalls: true, doneCalls: true, judges: true } });
    expect(runs.map((r) => [r.id, r.status])).toEqual([
      ['everyday-answers-run-1', 'completed'],
      ['everyday-answers-run-2', 'completed'],
      ['coding-help-run-1', 'completed'],
      ['everyday-answers-run-3', 'completed'],
      ['coding-help-run-2', 'completed'],
      ['customer-support-run-1', 'completed'],
      ['tool-calls-run-1', 'completed'],
      ['repeated-answers-run-1', 'completed'],
      [DEMO_LIVE_RUN, 'running'],
    ]);
    expect(demo.everyday.runIds).toEqual(['everyday-answers-run-1', 'everyday-answers-run-2', 'everyday-answers-run-3']);
    expect(runs[0]!.createdAt.getTime()).toBe(NOW.getTime() - 15 * 86_400_000 + 3_600_000);
    const live = runs.at(-1)!;
    // Two of the five models are rate-limited for an hour: their 13 cells each are still to do.
    expect(live.totalCalls - live.doneCalls).toBe(26);
    expect((live.judges as { model: string }[]).map((j) => j.model)).toEqual(['openai:gpt-4.1-mini', 'openrouter:qwen/qwen-2.5-72b-instruct']);
    // The only failed replies are the erratic model's provider errors, with the provider's message.
    const failed = await t.db.reply.findMany({ where: { error: { not: null } }, select: { runId: true, promptKey: true, modelId: true, error: true } });
    expect(failed.map((f) => [f.runId, f.promptKey, f.modelId]).sort()).toEqual([
      ['everyday-answers-run-1', 'daily-water', 'openrouter:meta-llama/llama-3.1-70b-instruct'],
      ['everyday-answers-run-2', 'boiling-at-altitude', 'openrouter:meta-llama/llama-3.1-70b-instruct'],
      ['everyday-answers-run-3', 'bleach-and-ammonia', 'openrouter:meta-llama/llama-3.1-70b-instruct'],
    ]);
    for (const f of failed) expect(f.error).toContain(OVERLOADED);
  });

  it('the live run says why it stands still: each rate-limited model, the hour its provider asked for, the next attempt', async () => {
    const limited = rateLimitedModels(LIVE_ROUND).sort();
    // the notes are written off the call path: give them a moment
    const until = Date.now() + 5_000;
    while ((await t.db.runWait.count({ where: { runId: DEMO_LIVE_RUN } })) < limited.length && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const waits = await t.db.runWait.findMany({ where: { runId: DEMO_LIVE_RUN }, orderBy: { modelId: 'asc' } });
    expect(waits.map((w) => w.modelId)).toEqual(limited);
    for (const w of waits) {
      expect([w.kind, w.httpStatus]).toEqual(['rate_limited', 429]);
      expect(w.retryAfterAt!.getTime() - w.updatedAt.getTime()).toBe(3_600_000);
      expect(w.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(w.retryAfterAt!.getTime());
    }
    const now = new Date(Math.min(...waits.map((w) => w.updatedAt.getTime())));
    const view = progressView(progressJson((await getRunProgress(t.db, DEMO_LIVE_RUN))!), now);
    expect(view.statusLabel).toBe('Generating replies');
    expect(view.waits.map((w) => w.modelId).sort()).toEqual(limited);
    for (const w of view.waits) expect(w.text).toMatch(/ — rate limited, the provider asked to retry at (?:\d{4}-\d\d-\d\d )?\d\d:\d\d UTC \(in 1 h\); next attempt (?:\d{4}-\d\d-\d\d )?\d\d:\d\d UTC \(in 1 h\)$/);
    // the estimate counts the hour: it is no longer the few minutes the other models' pace suggests
    expect(view.facts.find((f) => f.label === 'Estimated time left')?.value).toMatch(/^about 1 h \d+ min \(1 h 0 min of it waiting on a provider\)$/);
  });

  it('the repeated blueprint: four attempts per prompt that differ as scripted, pass@k per cell and model, intervals over 4 prompts and 16 attempts', async () => {
    const runId = demo.repeated.runIds[0]!;
    const cells = await t.db.runCellSummary.findMany({ where: { runId }, select: { modelId: true, promptKey: true, scoredAttempts: true, passes: true } });
    const passes = (model: string, key: string) => cells.find((c) => c.modelId === model && c.promptKey === key)?.passes;
    expect(cells).toHaveLength(5 * 4);
    expect(cells.every((c) => c.scoredAttempts === 4)).toBe(true);
    const [strong, verbose, erratic, , weak] = demo.repeated.models;
    expect(demo.repeated.promptKeys.map((k) => passes(strong!, k))).toEqual([4, 4, 4, 4]);
    expect(passes(verbose!, 'london-tokyo-time')).toBe(3);
    // capital, marathon, python, london-tokyo (demo-models.ts REPEAT_FLIPS)
    expect(demo.repeated.promptKeys.map((k) => passes(erratic!, k))).toEqual([3, 2, 4, 1]);
    expect(demo.repeated.promptKeys.map((k) => passes(weak!, k))).toEqual([2, 1, 4, 1]);
    const summaries = await t.db.runModelSummary.findMany({ where: { runId } });
    for (const m of summaries) {
      expect(m).toMatchObject({ ciN: 16, ciClusters: 4, attemptCount: 16, passThreshold: 0.75 });
      expect((m.passCurve as { k: number }[]).map((p) => p.k)).toEqual([1, 2, 3, 4]);
    }
    // the strong model passed every attempt: Wilson over its 4 prompts; the erratic one's attempts disagree: BCa
    expect(summaries.find((m) => m.modelId === strong)?.ciMethod).toBe('wilson');
    expect(summaries.find((m) => m.modelId === erratic)?.ciMethod).toBe('bca-bootstrap');
  });

  it('re-grades every function and correct: verdict with the point functions and finds 0 disagreements', async () => {
    const points = await pointsByVersion();
    const verdicts = await t.db.verdict.findMany({
      where: { kind: { in: ['function', 'correct'] } },
      select: {
        id: true, runId: true, promptKey: true, modelId: true, pointIndex: true, kind: true, status: true, score: true, fn: true, args: true,
        run: { select: { versionId: true } },
        reply: { select: { content: true, toolCalls: true, turns: true } },
      },
    });
    const disagreements: string[] = [];
    const kinds = { function: 0, correct: 0 };
    for (const v of verdicts) {
      const point = points.get(v.run.versionId)?.get(v.promptKey)?.[v.pointIndex];
      const where = `${v.runId} ${v.promptKey} × ${v.modelId} point ${v.pointIndex}`;
      if (!point || point.kind !== v.kind) {
        disagreements.push(`${where}: the blueprint has no ${v.kind} point there`);
        continue;
      }
      const rawCalls = Array.isArray(v.reply.toolCalls) ? v.reply.toolCalls : [];
      let expected: { score: number } | { error: string };
      if (point.kind === 'function') {
        kinds.function++;
        if (v.fn !== point.fn || JSON.stringify(v.args ?? null) !== JSON.stringify(point.args ?? null)) disagreements.push(`${where}: stored ${v.fn}(${JSON.stringify(v.args)}), blueprint ${point.fn}`);
        const resolved = resolvePointFunction(point.fn);
        if (!resolved.ok) throw new Error(`${where}: unknown function ${point.fn}`);
        const toolCalls = rawCalls.map(normaliseToolCall).filter((c): c is ToolCall => c !== null);
        const outcome = await evaluatePoint(resolved, v.reply.content, point.args, { sandbox, toolCalls, messages: v.reply.turns as never });
        expected = 'error' in outcome ? { error: outcome.error } : { score: outcome.score as number };
      } else if (point.kind === 'correct') {
        kinds.correct++;
        const r = evaluateCorrect(point.check, buildResponseView({ content: v.reply.content, toolCalls: rawCalls }));
        expected = r.status === 'error' ? { error: r.explanation } : { score: point.source === 'should_not' ? Number(r.status !== 'pass') : Number(r.status === 'pass') };
      } else continue;
      if ('error' in expected) {
        if (v.status !== 'error') disagreements.push(`${where}: stored ${v.status} ${v.score}, re-graded error (${expected.error})`);
      } else if (v.score === null || Math.abs(v.score - expected.score) > 1e-12 || v.status !== (expected.score >= PASS_AT ? 'pass' : 'fail')) {
        disagreements.push(`${where}: stored ${v.status} ${v.score}, re-graded ${expected.score}`);
      }
    }
    expect(disagreements).toEqual([]);
    expect(verdicts.length).toBeGreaterThanOrEqual(200);
    expect(kinds.correct).toBeGreaterThanOrEqual(10);
    // both outcomes occur: the demo's models really differ
    expect(new Set(verdicts.map((v) => v.status))).toEqual(new Set(['pass', 'fail', 'error']));
  });

  it('every judge record agrees with the evidence in the reply it judged', async () => {
    const judged = await t.db.verdict.findMany({
      where: { kind: 'text' },
      select: { runId: true, promptKey: true, modelId: true, pointText: true, status: true, score: true, source: true, judges: true, reply: { select: { content: true } } },
    });
    const disagreements: string[] = [];
    for (const v of judged) {
      const evidence = EVIDENCE[v.pointText];
      const where = `${v.runId} ${v.promptKey} × ${v.modelId} “${v.pointText}”`;
      if (!evidence) {
        disagreements.push(`${where}: no evidence`);
        continue;
      }
      const present = evidence.present.test(v.reply.content);
      // read with the schema the pages read them with (lib/core/evidence)
      const records = parseStored(StoredJudgesSchema, v.judges, `verdict judges of ${where}`);
      if (records.length !== 2) disagreements.push(`${where}: ${records.length} judge records`);
      for (const j of records) {
        if (j.error || j.score === null) disagreements.push(`${where}: ${j.judge} erred: ${j.error}`);
        else if (present !== j.score > 0.5 || j.reasoning !== (present ? evidence.yes : evidence.no)) disagreements.push(`${where}: ${j.judge} said ${j.score} (${j.reasoning}); the reply ${present ? 'has' : 'lacks'} it`);
      }
      // a should_not point scores the absence of what it names
      const held = v.source === 'should_not' ? !present : present;
      if (v.status !== (held ? 'pass' : 'fail')) disagreements.push(`${where}: ${v.status} although the criterion ${present ? 'is' : 'is not'} met`);
    }
    expect(disagreements).toEqual([]);
    expect(judged.length).toBeGreaterThanOrEqual(400);
  });

  it('has the drift the cautious model’s provider made: flagged between the two scheduled everyday runs, served change named', async () => {
    const [, second, third] = demo.everyday.runIds;
    const checks = await t.db.driftCheck.findMany({ where: { toRunId: third }, orderBy: { modelId: 'asc' } });
    expect(checks.map((c) => c.fromRunId)).toEqual(DEMO_MODELS.map(() => second));
    const cautious = DEMO_MODELS.find((m) => m.character === 'cautious')!.id;
    const flagged = checks.filter((c) => c.flagged);
    expect(flagged.map((c) => c.modelId)).toContain(cautious);
    const c = checks.find((x) => x.modelId === cautious)!;
    expect(c).toMatchObject({ servedChanged: true, servedModelAfter: SWAPPED.servedModel, fingerprintAfter: SWAPPED.fingerprint, servedModelBefore: 'google/gemini-2.0-flash-001' });
    expect(c.difference!).toBeLessThan(0);
    expect(checks.filter((x) => x.modelId !== cautious).every((x) => !x.servedChanged)).toBe(true);
    // only scheduled runs are compared: the other blueprints' runs have none
    expect(await t.db.driftCheck.count({ where: { blueprintId: { not: demo.everyday.blueprintId } } })).toBe(0);
  });
});
