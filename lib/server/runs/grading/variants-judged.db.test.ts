/**
 * Variants and the judged criterion kinds through the real pipeline, against the fake LLM
 * server as the model AND as the judges: each variant runs on its own conversation and is
 * stored beside its cell's reply (never as an attempt), and the kinds read it back through the
 * grading seam (`criterionContextFor`) with the run's judge panel over the gateway. The numbers
 * expected below come from the scripted label probabilities.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JUDGED_KINDS, type CriterionKindDef } from '@/lib/core';
import { startFakeLlm, type FakeLlm, type RuleInput } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { getPromptReplies } from '../../db/queries/run-prompt';
import { criterionContextFor } from './criterion-judge';
import { executeRun } from '../engine/execute-run';
import { toStored } from '../chat/generate';
import { requestRun } from '../request-run';
import { forgetRunContext, loadRunContext } from '../engine/run-context';
import { fakeDeps, noDispatch, storeBlueprint, TEST_DEFAULTS } from '../runs.testkit';

const BLUEPRINT = `title: Variants and judged kinds
models: [openai:model-a]
---
- id: deadline
  prompt: What is the objection deadline?
  repeats: 2
  variants:
    informal: how long can i object??
    formal: ["I received a decision.", "Kindly state the statutory period."]
  expect:
    behaviour: answer
    nuggets:
      - The period is six weeks.
      - { text: It starts the day after the decision is sent., importance: vital }
      - { text: It may be sent by post., importance: okay }
  should:
    - $contains: weeks
- id: plain
  prompt: Say hello
  should:
    - $contains: hello
`;

// Options are lettered in the order the kinds give them: false/true → A/B; answer/refuse/abstain → A/B/C.
const JUDGE_RULES: RuleInput[] = [
  { name: 'same', model: 'judge', lastUser: /<SECOND>\nYou have 6 weeks/, judge: { labels: { A: 0.1, B: 0.9 } } },
  { name: 'different', model: 'judge', lastUser: /<SECOND>\nFour weeks/, judge: { labels: { A: 0.8, B: 0.2 } } },
  { name: 'nugget-1', model: 'judge', lastUser: /<FACT>\nThe period is six weeks/, judge: { labels: { B: 1 } } },
  { name: 'nugget-2', model: 'judge', lastUser: /<FACT>\nIt starts the day after/, judge: { labels: { A: 0.7, B: 0.3 } } },
  // The two judges differ here: the panel's answer is their mean, answer = (0.8 + 0.6) / 2 = 0.7.
  { name: 'behaviour', model: 'judge-a', lastUser: /What does the assistant do/, judge: { labels: { A: 0.8, B: 0.1, C: 0.1 } } },
  { name: 'behaviour', model: 'judge-b', lastUser: /What does the assistant do/, judge: { labels: { A: 0.6, B: 0.3, C: 0.1 } } },
];
const MODEL_RULES: RuleInput[] = [
  { model: 'model-a', lastUser: 'objection deadline', reply: 'Six weeks.' },
  { model: 'model-a', lastUser: 'how long can i object', reply: 'You have 6 weeks.' },
  { model: 'model-a', lastUser: 'I received a decision', reply: 'I see. What would you like to know?' },
  { model: 'model-a', lastUser: 'statutory period', reply: 'Four weeks.' },
  { model: 'model-a', lastUser: 'Say hello', reply: 'hello' },
];

let t: TestDatabase;
let fake: FakeLlm;
let blueprintId: string;
const kind = (name: string) => JUDGED_KINDS.find((k) => k.name === name)! as CriterionKindDef<unknown>;

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: [...JUDGE_RULES, ...MODEL_RULES] });
  ({ blueprintId } = await storeBlueprint(t.db, 'variants.yml', BLUEPRINT));
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});
beforeEach(() => fake.reset());

describe(`variants and judged kinds in a run (${process.env.ASSAY_TEST_DB})`, () => {
  it('runs each variant on its own conversation, stores it beside its reply, and counts no extra attempt', async () => {
    const deps = await fakeDeps(t.db, fake.url);
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli' }, noDispatch, TEST_DEFAULTS);
    expect(await executeRun(deps, runId)).toBe('completed');

    // 2 attempts of deadline + 1 of plain: the variants add no reply, call count or attempt.
    expect(await t.db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({ status: 'completed', totalCalls: 3, doneCalls: 3, errorCalls: 0 });
    expect(await t.db.reply.count({ where: { runId } })).toBe(3);
    expect(await t.db.attemptScore.count({ where: { runId } })).toBe(3);
    const cells = await t.db.runCellSummary.findMany({ where: { runId }, orderBy: { promptKey: 'asc' }, select: { promptKey: true, attempts: true, score: true } });
    expect(cells).toEqual([
      { promptKey: 'deadline', attempts: 2, score: 1 },
      { promptKey: 'plain', attempts: 1, score: 1 },
    ]);

    const variants = await t.db.variantReply.findMany({ where: { runId }, orderBy: [{ attempt: 'asc' }, { name: 'asc' }], select: { attempt: true, name: true, content: true, turns: true, error: true } });
    expect(variants.map((v) => [v.attempt, v.name, v.content, v.error])).toEqual([
      [0, 'formal', 'Four weeks.', null],
      [0, 'informal', 'You have 6 weeks.', null],
      [1, 'formal', 'Four weeks.', null],
      [1, 'informal', 'You have 6 weeks.', null],
    ]);
    // Its own conversation: the two-turn variant's first reply is generated, the prompt's turns are not in it.
    expect(variants[0]!.turns).toEqual([
      { role: 'user', content: 'I received a decision.' },
      { role: 'assistant', content: 'I see. What would you like to know?' },
      { role: 'user', content: 'Kindly state the statutory period.' },
      { role: 'assistant', content: 'Four weeks.' },
    ]);
    const modelCalls = fake.requests().filter((r) => r.request.model === 'model-a');
    // deadline: 2 attempts × (1 + informal 1 + formal 2), plain 1 — attempt 1 differs from attempt 0 in the cache key.
    expect(modelCalls.length).toBe(2 * 4 + 1);
    // The run's call ledger counts the variants' calls (its budget covers them).
    expect((await t.db.run.findUniqueOrThrow({ where: { id: runId } })).providerCalls).toBe(9);
    const variantCalls = modelCalls.filter((r) => r.request.messages.some((m) => /how long|statutory|received a decision/.test(m.content)));
    expect(variantCalls.length).toBe(2 * 3);
    expect(variantCalls.some((r) => r.request.messages.some((m) => m.content.includes('objection deadline')))).toBe(false);

    // The judged kinds over the stored evidence, through the grading seam and the run's two judges.
    const ctx = await loadRunContext(t.db, runId);
    const row = await t.db.reply.findFirstOrThrow({ where: { runId, promptKey: 'deadline', attempt: 0 } });
    const reply = toStored(row);
    const prompt = ctx.prompts.get('deadline')!;
    const c = await criterionContextFor(deps, ctx, reply, prompt);
    const evidence = { messages: reply.turns, reply: reply.content, citations: [], promptId: 'deadline', variants: {}, expect: null, ...c.evidence };
    expect(Object.keys(evidence.variants)).toEqual(['formal', 'informal']);

    const substance = await kind('compare.substance').evaluate(evidence, {}, c.services);
    expect(substance).toMatchObject({ status: 'fail', score: 0.5, detail: '1 of 2 variants give the same substance (50%; needs 100%)' });
    expect(substance.data).toEqual({ variants: [{ variant: 'formal', same: false, p_same: expect.closeTo(0.2, 6) }, { variant: 'informal', same: true, p_same: expect.closeTo(0.9, 6) }] });
    const nuggets = await kind('nuggets.coverage').evaluate(evidence, {}, c.services);
    expect(nuggets).toMatchObject({ status: 'fail', score: 0.5, detail: '1 of 2 vital nuggets covered (50%; needs 100%)' });
    const behaviour = await kind('behaviour.expected').evaluate(evidence, {}, c.services);
    expect(behaviour).toMatchObject({ status: 'pass', data: { expected: 'answer', distribution: { answer: expect.closeTo(0.7, 6), refuse: expect.closeTo(0.2, 6), abstain: expect.closeTo(0.1, 6) } } });
    expect((await kind('compare.structured').evaluate(evidence, {}, c.services)).status).toBe('error');

    // Both judges were asked each question (2 compare + 2 nuggets + 1 behaviour), with log-probabilities, through the gateway…
    const judgeCalls = fake.requests().filter((r) => /judge-/.test(r.request.model));
    expect(judgeCalls.length).toBe(2 * 5);
    expect(new Set(judgeCalls.map((r) => r.rule))).toEqual(new Set(['same', 'different', 'nugget-1', 'nugget-2', 'behaviour']));
    // …so asking again is answered from the response cache; the ledger counted the 10 judge calls.
    await kind('compare.substance').evaluate(evidence, {}, c.services);
    expect(fake.requests().filter((r) => /judge-/.test(r.request.model)).length).toBe(2 * 5);
    expect((await t.db.run.findUniqueOrThrow({ where: { id: runId } })).providerCalls).toBe(9 + 10);
    forgetRunContext(runId);
  });

  it('without judges the judged kinds give error, and a judge that cannot answer is an error verdict, not a 0', async () => {
    const deps = await fakeDeps(t.db, fake.url);
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli' }, noDispatch, { ...TEST_DEFAULTS, judges: [] });
    expect(await executeRun(deps, runId)).toBe('completed');
    const ctx = await loadRunContext(t.db, runId);
    const reply = toStored(await t.db.reply.findFirstOrThrow({ where: { runId, promptKey: 'deadline', attempt: 0 } }));
    const c = await criterionContextFor(deps, ctx, reply, ctx.prompts.get('deadline')!);
    expect(c.services.judge).toBeUndefined();
    const evidence = { messages: reply.turns, reply: reply.content, citations: [], promptId: 'deadline', variants: {}, expect: null, ...c.evidence };
    expect(await kind('compare.substance').evaluate(evidence, {}, c.services)).toMatchObject({ status: 'error', detail: expect.stringContaining('needs a judge') });
    forgetRunContext(runId);

    // A judge whose provider refuses (401, not retried): JudgeUnavailableError → an error verdict naming both judges.
    fake.setRules([{ model: 'judge', error: { status: 401, message: 'bad key' } }, ...MODEL_RULES]);
    const judged = await requestRun(t.db, { blueprintId, trigger: 'cli' }, noDispatch, TEST_DEFAULTS);
    expect(await executeRun(deps, judged.runId)).toBe('completed');
    const ctx2 = await loadRunContext(t.db, judged.runId);
    const reply2 = toStored(await t.db.reply.findFirstOrThrow({ where: { runId: judged.runId, promptKey: 'deadline', attempt: 0 } }));
    const c2 = await criterionContextFor(deps, ctx2, reply2, ctx2.prompts.get('deadline')!);
    // (a reply no judge saw before: the response cache holds the first test's answers)
    const v = await kind('behaviour.expected').evaluate({ ...evidence, ...c2.evidence, reply: 'Six weeks, as a rule.' }, {}, c2.services);
    expect(v.status).toBe('error');
    expect(v.detail).toMatch(/^the judge could not answer: openai:judge-a#standard: .*; openai:judge-b#prompt-aware: /);
    forgetRunContext(judged.runId);
    fake.setRules([...JUDGE_RULES, ...MODEL_RULES]);
  });

  it("stores a failed variant as that variant's error: the reply and the run are fine, compare.* says which variant failed", async () => {
    // model-b: none of its calls is in the response cache yet.
    const modelB = MODEL_RULES.map((r) => ({ ...r, model: 'model-b' }));
    fake.setRules([{ model: 'model-b', lastUser: 'statutory period', error: { status: 400, message: 'context too long' } }, ...JUDGE_RULES, ...modelB]);
    const deps = await fakeDeps(t.db, fake.url);
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', models: ['openai:model-b'] }, noDispatch, TEST_DEFAULTS);
    expect(await executeRun(deps, runId)).toBe('completed');
    expect(await t.db.run.findUniqueOrThrow({ where: { id: runId } })).toMatchObject({ doneCalls: 3, errorCalls: 0 });
    const formal = await t.db.variantReply.findMany({ where: { runId, name: 'formal' }, select: { content: true, error: true, errorKind: true } });
    expect(formal).toHaveLength(2);
    expect(formal.every((f) => f.content === '' && f.error !== null && /context too long/.test(f.error))).toBe(true);
    const ctx = await loadRunContext(t.db, runId);
    const reply = toStored(await t.db.reply.findFirstOrThrow({ where: { runId, promptKey: 'deadline', attempt: 0 } }));
    expect(reply.error).toBeNull();
    const c = await criterionContextFor(deps, ctx, reply, ctx.prompts.get('deadline')!);
    const evidence = { messages: reply.turns, reply: reply.content, citations: [], promptId: 'deadline', variants: {}, expect: null, ...c.evidence };
    const v = await kind('compare.substance').evaluate(evidence, {}, c.services);
    expect(v).toMatchObject({ status: 'error', detail: expect.stringMatching(/^compare\.substance: variant "formal" failed: .*context too long/) });
    // The prompt page's query shows each attempt's variants, the failed one with its error.
    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId }, select: { id: true, versionId: true } });
    const shown = await getPromptReplies(t.db, run, 'deadline', ['openai:model-b']);
    expect(shown.map((r) => r.variants.map((v) => [v.name, v.content, v.error !== null]))).toEqual([
      [['formal', '', true], ['informal', 'You have 6 weeks.', false]],
      [['formal', '', true], ['informal', 'You have 6 weeks.', false]],
    ]);
    // A variant's JSON body (an HTTP system's, which this branch's providers do not return yet: written
    // here as the generator's structuredOf would store it) is read back for compare.structured.
    await t.db.variantReply.updateMany({ where: { runId, name: 'informal' }, data: { structured: { decision: 'answer', period_weeks: 6 } } });
    const withBody = await criterionContextFor(deps, ctx, reply, ctx.prompts.get('deadline')!);
    expect(withBody.evidence.variants!.informal!.structured).toEqual({ decision: 'answer', period_weeks: 6 });
    expect(await kind('compare.structured').evaluate({ ...evidence, ...withBody.evidence, structured: { period_weeks: 6, decision: 'answer' } }, { variants: ['informal'] }, withBody.services)).toMatchObject({ status: 'pass', score: 1 });
    // Only the working variant, by name: graded as usual.
    expect(await kind('compare.substance').evaluate(evidence, { variants: ['informal'] }, c.services)).toMatchObject({ status: 'pass', score: 1 });
    forgetRunContext(runId);
    fake.setRules([...JUDGE_RULES, ...MODEL_RULES]);
  });
});
