/**
 * Batched judging end to end (issue 15): example blueprints run once per-point and once batched
 * through the real run path against the fake LLM, whose rules answer a batched prompt's
 * questions as they answer each per-point prompt. The batched run must store the same verdict
 * statuses and scores, with one judge call per reply per judge (3 without log-probabilities),
 * each judge record naming the call that produced it.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseStored, StoredJudgesSchema } from '@/lib/core';
import { startFakeLlm, type FakeLlm, type RuleInput } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { compareModes, judgeRulesFor, runInMode, verdictPairs } from './judge-modes.testkit';
import { requestRun } from '../request-run';
import { fakeDeps, noDispatch, storeBlueprint, TEST_DEFAULTS } from '../runs.testkit';

const EXAMPLES = new URL('../../../../blueprints/examples/', import.meta.url);
const FILES = ['grounded-summary-questions.yml', 'multi-turn-support.yml'];
const JUDGES = ['openai:judge-a#standard', 'openai:judge-b#holistic'];
const SAMPLED = ['anthropic:judge-s#prompt-aware'];

let t: TestDatabase;
let fake: FakeLlm;
const ids = new Map<string, string>();

/** Judge requests the fake received (model names with "judge"). */
const judgeCalls = () => fake.requests().filter((r) => r.request.model.includes('judge'));

/** A blueprint with one judged point no rule answers: asked alone it gets no label, in a batch no line. */
const PARTIAL = `title: One point the judge never answers
---
- id: partial
  prompt: "Where is order 48213?"
  should:
    - "Mentions the order number"
    - "Names the courier"
    - $contains: "Fake reply"
`;

beforeAll(async () => {
  t = await freshDatabase();
  const rules: RuleInput[] = [];
  for (const file of FILES) {
    const text = await readFile(new URL(file, EXAMPLES), 'utf8');
    rules.push(...judgeRulesFor(file, text, ['judge-a', 'judge-b', 'judge-s']));
    ids.set(file, (await storeBlueprint(t.db, `examples/${file}`, text)).blueprintId);
  }
  rules.push(...judgeRulesFor('partial.yml', PARTIAL, ['judge-a', 'judge-b']).filter((r) => !String(r.lastUser).includes('courier')));
  ids.set('partial', (await storeBlueprint(t.db, 'partial.yml', PARTIAL)).blueprintId);
  fake = await startFakeLlm({ rules, keepRequests: 100_000 });
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});
beforeEach(() => fake.reset());

describe(`batched judging stores what per-point judging stores (${process.env.ASSAY_TEST_DB})`, () => {
  it.each(FILES)('%s: same verdict statuses and scores, one judge call per reply per judge', async (file) => {
    const deps = await fakeDeps(t.db, fake.url, { gradingPool: null });
    const models = ['openai:sut-model'];
    const perPoint = await runInMode(t.db, deps, ids.get(file)!, { models, judges: JUDGES, judgeMode: 'per-point' });
    const perPointCalls = judgeCalls().length;
    fake.reset();
    const batched = await runInMode(t.db, deps, ids.get(file)!, { models, judges: JUDGES, judgeMode: 'batched' });
    const batchedCalls = judgeCalls().length;

    const pairs = await verdictPairs(t.db, perPoint, batched);
    expect(pairs.length).toBeGreaterThan(0);
    expect(pairs.map(([a]) => [a.key, a.status])).toEqual(pairs.map(([, b]) => [b.key, b.status]));
    const agreement = await compareModes(t.db, perPoint, batched);
    expect(agreement.sameStatus).toBe(1);
    expect(agreement.meanAbsScoreDiff).toBeLessThan(1e-12);

    const replies = await t.db.reply.count({ where: { runId: batched, error: null } });
    const judged = await t.db.verdict.count({ where: { runId: batched, kind: { in: ['text', 'question'] } } });
    expect(perPointCalls).toBe(judged * JUDGES.length);
    expect(batchedCalls).toBe(replies * JUDGES.length);
    expect(batchedCalls).toBeLessThan(perPointCalls);

    const v = await t.db.verdict.findFirstOrThrow({ where: { runId: batched, kind: { in: ['text', 'question'] }, status: { not: 'error' } } });
    expect(v.detail).toMatch(/batched: question [A-Z] of \d+ in one call per judge/);
    const records = parseStored(StoredJudgesSchema, v.judges, 'verdicts.judges');
    expect(records.map((r) => [r.judge, r.method, r.batch?.call])).toEqual([
      ['openai:judge-a', 'logprobs', expect.stringMatching(/^[0-9a-f]{64}$/)],
      ['openai:judge-b', 'logprobs', expect.stringMatching(/^[0-9a-f]{64}$/)],
    ]);
    const perPointVerdict = await t.db.verdict.findFirstOrThrow({ where: { runId: perPoint, kind: { in: ['text', 'question'] } } });
    expect(parseStored(StoredJudgesSchema, perPointVerdict.judges, 'verdicts.judges')[0]!.batch).toBeUndefined();
  });

  it('without log-probabilities: 3 samples of the whole batch per reply, the same statuses as 3 samples per point', async () => {
    const file = FILES[1]!;
    const deps = await fakeDeps(t.db, fake.url, { gradingPool: null });
    const models = ['openai:sut-model'];
    const perPoint = await runInMode(t.db, deps, ids.get(file)!, { models, judges: SAMPLED, judgeMode: 'per-point' });
    const perPointCalls = judgeCalls().length;
    fake.reset();
    const batched = await runInMode(t.db, deps, ids.get(file)!, { models, judges: SAMPLED, judgeMode: 'batched' });
    const replies = await t.db.reply.count({ where: { runId: batched, error: null } });
    const judged = await t.db.verdict.count({ where: { runId: batched, kind: 'text' } });
    expect(perPointCalls).toBe(judged * 3);
    expect(judgeCalls().length).toBe(replies * 3);
    const agreement = await compareModes(t.db, perPoint, batched);
    expect(agreement).toMatchObject({ sameStatus: 1 });
    expect(agreement.meanAbsScoreDiff).toBeLessThan(1e-12);
    const v = await t.db.verdict.findFirstOrThrow({ where: { runId: batched, kind: 'text' } });
    expect(parseStored(StoredJudgesSchema, v.judges, 'verdicts.judges')[0]).toMatchObject({ method: 'samples', batch: { of: expect.any(Number) } });
  });

  it("the mode comes from the request, else the blueprint's header, else its judge set's configuration, else per-point", async () => {
    let n = 0;
    const settingsOf = async (text: string, judgeMode?: 'per-point' | 'batched') => {
      const { blueprintId } = await storeBlueprint(t.db, `mode-${++n}.yml`, text);
      const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', models: ['openai:sut-model'], judges: ['openai:judge-a'], ...(judgeMode ? { judgeMode } : {}) }, noDispatch, TEST_DEFAULTS);
      return ((await t.db.run.findUniqueOrThrow({ where: { id: runId } })).config as { settings: { judgeMode?: string } }).settings.judgeMode;
    };
    const prompt = '---\n- prompt: q\n  should: [Is clear]\n';
    expect(await settingsOf(`title: h\njudge_mode: batched\n${prompt}`)).toBe('batched');
    expect(await settingsOf(`title: s\nevaluationConfig: { llm-coverage: { judges: [{ model: "openai:judge-a" }], judge_mode: batched } }\n${prompt}`)).toBe('batched');
    expect(await settingsOf(`title: o\njudge_mode: batched\n${prompt}`, 'per-point')).toBeUndefined();
    expect(await settingsOf(`title: d\n${prompt}`)).toBeUndefined();
  });

  it('a point the judge leaves unanswered is an error with its reason, asked again alone; the others are scored', async () => {
    const deps = await fakeDeps(t.db, fake.url, { gradingPool: null });
    const runId = await runInMode(t.db, deps, ids.get('partial')!, { models: ['openai:sut-model'], judges: ['openai:judge-a#standard'], judgeMode: 'batched' });
    const verdicts = await t.db.verdict.findMany({ where: { runId }, orderBy: { pointIndex: 'asc' }, select: { status: true, score: true, detail: true } });
    expect(verdicts.map((v) => v.status)).toEqual([expect.stringMatching(/^(pass|fail)$/), 'error', 'pass']);
    expect(verdicts[0]!.score).not.toBeNull();
    expect(verdicts[1]!.detail).toMatch(/^no judge answered: openai:judge-a#standard: malformed judge output \(try 3, asked as question A of 1\): the judge's answers have no line for question A \(batched: question B of 2 in one call per judge\)$/);
    // Try 1 asks both; tries 2 and 3 ask only the unanswered one (as question A of 1).
    expect(judgeCalls().map((r) => (r.request.messages.at(-1)!.content.match(/<QUESTION id="/g) ?? []).length)).toEqual([2, 1, 1]);
  });
});
