/**
 * The run pipeline end to end against the fake LLM server: a real corpus blueprint
 * (weval-configs test.yml, copied into testing/weval-copies so this runs without the corpus:
 * 6 prompts × 2 models × 2 system prompts × 2 temperatures), a panel
 * of two judges with scripted label probabilities, and every reply and verdict in the
 * database. The expected scores are computed by hand below from the scripted numbers.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseStored, StoredJudgesSchema } from '@/lib/core';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { executeRun } from './engine/execute-run';
import { requestRun } from './request-run';
import { forgetRunContext } from './engine/run-context';
import { fakeDeps, noDispatch, storeCorpusBlueprint, TEST_DEFAULTS } from './runs.testkit';

let t: TestDatabase;
let fake: FakeLlm;
let blueprintId: string;

// Judge A: P(C)=0.2, P(D)=0.3, P(E)=0.5 over the class scale A..E = 0, .25, .5, .75, 1.
const JUDGE_A = { A: 0, B: 0, C: 0.2, D: 0.3, E: 0.5 };
// Judge B: P(C)=0.5, P(E)=0.5.
const JUDGE_B = { C: 0.5, E: 0.5 };

const RULES = [
  { model: 'judge-a', judge: { labels: JUDGE_A, reasoning: 'Judge A reasoning.' } },
  { model: 'judge-b', judge: { labels: JUDGE_B, reasoning: 'Judge B reasoning.' } },
  { lastUser: 'exact phrase', reply: 'The quick brown FOX jumps over the lazy dog.' },
  { lastUser: 'starts with .Report', reply: 'Report #123' },
  { lastUser: 'primary colors', reply: 'The three primary colors are red, blue and yellow.' },
  { lastUser: 'Name five fruits', reply: 'Apple, banana, Cherry, durian and elderberry.' },
  { lastUser: 'Provide a JSON object', reply: '{"name": "test", "value": 123, "note": "five words at least here"}' },
  { lastUser: 'What number am I thinking of', reply: 'You are thinking of 42.' },
];

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: RULES });
  ({ blueprintId } = await storeCorpusBlueprint(t.db, 'test.yml'));
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});
beforeEach(() => fake.reset());

describe(`a run of a corpus blueprint against the fake provider (${process.env.ASSAY_TEST_DB})`, () => {
  it('stores every reply and verdict, and its scores equal the hand-computed ones', async () => {
    const deps = await fakeDeps(t.db, fake.url);
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli' }, noDispatch, TEST_DEFAULTS);
    expect(await executeRun(deps, runId)).toBe('completed');

    const run = await t.db.run.findUniqueOrThrow({ where: { id: runId } });
    // 6 prompts × 2 models × 2 systems × 2 temperatures.
    expect(run).toMatchObject({ status: 'completed', totalCalls: 48, doneCalls: 48, errorCalls: 0 });
    expect(await t.db.reply.count({ where: { runId } })).toBe(48);
    // Points per prompt: 4 + 3 + 3 + 4 + 6 + 1 = 21, on each of the 8 replies (2 models × 2 systems × 2 temperatures) of a prompt.
    expect(run.totalVerdicts).toBe(8 * 21);
    expect(await t.db.verdict.count({ where: { runId } })).toBe(8 * 21);
    expect(run.doneVerdicts).toBe(8 * 21);
    expect(await t.db.verdict.count({ where: { runId, status: 'error' } })).toBe(0);

    // By hand: each judge's expected class value, their mean, and should_not inversion.
    const a = 0.2 * 0.5 + 0.3 * 0.75 + 0.5 * 1; // 0.825
    const b = 0.5 * 0.5 + 0.5 * 1; // 0.75
    const consensus = (a + b) / 2; // 0.7875
    // test-utility-and-full-syntax: is_json (w 3) = 1, word_count 5–15 (w 1.5) = 1, two judged
    // should points (w 1), two judged should_not points (w 1, scored 1 − value).
    const utility = (3 * 1 + 1.5 * 1 + 2 * consensus + 2 * (1 - consensus)) / (3 + 1.5 + 4);
    const lists = (1 + 1 + 2 / 3) / 3; // any_of 1, all_of 1, all_of 2 of 3
    const expectedModel = (1 + 1 + lists + 1 + utility + 1) / 6;

    const judged = await t.db.verdict.findFirstOrThrow({ where: { runId, kind: 'text', source: 'should' } });
    expect(judged.score).toBeCloseTo(consensus, 10);
    expect(judged.method).toBe('logprobs');
    expect(judged.spread).toBeCloseTo(Math.abs(a - b) / 2, 10); // population std of two values
    // read with the schema the pages read it with (lib/core/evidence)
    const panel = parseStored(StoredJudgesSchema, judged.judges, 'verdicts.judges');
    expect(panel.map((j) => [j.judge, j.score])).toEqual([
      ['openai:judge-a', expect.closeTo(a, 10)],
      ['openai:judge-b', expect.closeTo(b, 10)],
    ]);
    expect(panel[0]!.reasoning).toBe('Judge A reasoning.');
    // The fake sends o200k_base tokens as OpenAI does, the letter glued to `>` (`>E`, alternatives
    // `>D`, `>C`): each judge's whole distribution is read from them, not its answer alone.
    const close = (p: number) => expect.closeTo(p, 10);
    expect(panel.map((j) => [j.method, j.sampledBecause, j.distribution])).toEqual([
      ['logprobs', undefined, { CLASS_ABSENT: 0, CLASS_SLIGHTLY_PRESENT: 0, CLASS_PARTIALLY_PRESENT: close(0.2), CLASS_MAJORLY_PRESENT: close(0.3), CLASS_FULLY_PRESENT: close(0.5) }],
      ['logprobs', undefined, { CLASS_ABSENT: 0, CLASS_SLIGHTLY_PRESENT: 0, CLASS_PARTIALLY_PRESENT: close(0.5), CLASS_MAJORLY_PRESENT: 0, CLASS_FULLY_PRESENT: close(0.5) }],
    ]);
    const inverted = await t.db.verdict.findFirstOrThrow({ where: { runId, kind: 'text', source: 'should_not' } });
    expect(inverted.score).toBeCloseTo(1 - consensus, 10);

    const cells = await t.db.runCellSummary.findMany({ where: { runId, promptKey: 'test-utility-and-full-syntax' } });
    expect(cells).toHaveLength(2);
    for (const c of cells) expect(c.score).toBeCloseTo(utility, 10);
    const models = await t.db.runModelSummary.findMany({ where: { runId }, orderBy: { modelId: 'asc' } });
    expect(models.map((m) => m.modelId)).toEqual(['openrouter:anthropic/claude-3.5-haiku', 'openrouter:openai/gpt-4.1-mini']);
    for (const m of models) {
      expect(m.score).toBeCloseTo(expectedModel, 10);
      expect(m.replyCount).toBe(24);
      expect(m.verdictCount).toBe(4 * 21);
      expect(m.ciLow).not.toBeNull();
      expect(m.ciLow!).toBeLessThanOrEqual(m.score!);
      expect(m.ciHigh!).toBeGreaterThanOrEqual(m.score!);
    }
    const board = await t.db.blueprintModelSummary.findMany({ where: { blueprintId } });
    expect(board.map((r) => r.runId)).toEqual([runId, runId]);
    forgetRunContext(runId);
  });

  it('completes under 20% transient faults with verdicts equal to a fault-free run’s', async () => {
    const scores = async (faults: Parameters<FakeLlm['setFaults']>[0]) => {
      fake.setFaults(faults);
      const deps = await fakeDeps(t.db, fake.url);
      // A fresh identity per variant: a different repeat count keeps the response cache out of it.
      const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', repeats: 1, models: ['openrouter:openai/gpt-4.1-mini'] }, noDispatch, TEST_DEFAULTS);
      await t.db.responseCache.deleteMany({});
      expect(await executeRun(deps, runId)).toBe('completed');
      const rows = await t.db.verdict.findMany({ where: { runId }, select: { promptKey: true, pointIndex: true, status: true, score: true, reply: { select: { systemIndex: true, temperatureIndex: true } } } });
      forgetRunContext(runId);
      return rows
        .map((v) => `${v.promptKey}|${v.reply.systemIndex}|${v.reply.temperatureIndex}|${v.pointIndex}|${v.status}|${v.score?.toFixed(12)}`)
        .sort();
    };
    const clean = await scores(null);
    const faulty = await scores({ rateLimited: 0.1, serverError: 0.1, retryAfter: '0.01' });
    const faulted = fake.requests().filter((r) => r.fault === 'rate_limited' || r.fault === 'server_error').length;
    expect(faulted).toBeGreaterThan(0);
    expect(faulty).toEqual(clean);
    fake.setFaults(null);
  });

  it('turns malformed judge output into error verdicts, never zeros, and leaves them out of the score', async () => {
    fake.setFaults({ model: 'judge-', malformed: 1 });
    const deps = await fakeDeps(t.db, fake.url);
    const { runId } = await requestRun(t.db, { blueprintId, trigger: 'cli', repeats: 1, models: ['openrouter:anthropic/claude-3.5-haiku'] }, noDispatch, TEST_DEFAULTS);
    await t.db.responseCache.deleteMany({});
    expect(await executeRun(deps, runId)).toBe('completed');
    fake.setFaults(null);
    const judged = await t.db.verdict.findMany({ where: { runId, kind: 'text' } });
    expect(judged.length).toBeGreaterThan(0);
    for (const v of judged) {
      expect(v.status).toBe('error');
      expect(v.score).toBeNull();
      expect(v.detail).toMatch(/malformed judge output/);
    }
    // test-utility-and-full-syntax keeps only its function points: (3·1 + 1.5·1) / 4.5 = 1.
    const cell = await t.db.runCellSummary.findFirstOrThrow({ where: { runId, promptKey: 'test-utility-and-full-syntax' } });
    expect(cell.score).toBe(1);
    expect(cell.errorCount).toBe(4 * 4); // 4 judged points on each of 4 system × temperature variants
    forgetRunContext(runId);
  });
});
