/**
 * Judging on real OpenAI tokens through the run path, against the fake LLM (which tokenises its
 * judge answers with each model's tokenizer). o200k_base (gpt-4o) glues E to `>` but not F, so
 * when the judge answers E with probability left on F, the bare `>` beside the chosen `>E` hides
 * F's share: the answer's position cannot be read, the judge is sampled (`judgeSamples` answers
 * at temperature 1) and its record says why and from how many answers. cl100k_base (gpt-4) glues
 * both letters, so the same judge is read from its log-probabilities, the whole distribution
 * stored. Batched, the options are numbers, each its own token: read in both.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseStored, StoredJudgesSchema } from '@/lib/core';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../../db/db.testkit';
import { runInMode } from './judge-modes.testkit';
import { fakeDeps, storeBlueprint } from '../runs.testkit';

const BLUEPRINT = `title: A grade out of eight
---
- id: eight
  prompt: "Describe the weather."
  should:
    - choice: "Which grade does the reply earn?"
      options:
        g1: 0
        g2: 0.1
        g3: 0.3
        g4: 0.4
        g5: 0.6
        g6: 0.7
        g7: 0.9
        g8: 1
`;

const TWELVE = `title: A grade out of twelve, and a statement
---
- id: twelve
  prompt: "Describe the weather."
  should:
    - choice: "Which of twelve grades does the reply earn?"
      options: { g1: 0, g2: 0.1, g3: 0.2, g4: 0.3, g5: 0.4, g6: 0.5, g7: 0.6, g8: 0.7, g9: 0.8, g10: 0.9, g11: 0.95, g12: 1 }
    - noul: "The reply is polite"
`;

// Letters E and F are the fifth and sixth options (g5, g6); batched they are options 5 and 6.
const LABELS = { E: 0.6, F: 0.4 };
const JUDGES = ['openai:gpt-4o#standard', 'openai:gpt-4#standard'];

let t: TestDatabase;
let fake: FakeLlm;
let blueprintId: string;

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: [{ model: '^gpt-4o?$', judge: { labels: LABELS, reasoning: 'Mostly accurate.' } }] });
  ({ blueprintId } = await storeBlueprint(t.db, 'eight.yml', BLUEPRINT));
});
afterAll(async () => {
  await fake?.close();
  await t?.close();
});
beforeEach(() => fake.reset());

const callsOf = (model: string) => fake.requests().filter((r) => r.request.model === model);

async function judgeRecords(runId: string) {
  const v = await t.db.verdict.findFirstOrThrow({ where: { runId, kind: 'question' } });
  return parseStored(StoredJudgesSchema, v.judges, 'verdicts.judges');
}

describe(`judging reads what real OpenAI judges send (${process.env.ASSAY_TEST_DB})`, () => {
  it('per point: an answer position the tokens hide is sampled and says so; a readable one keeps its whole distribution', async () => {
    const deps = await fakeDeps(t.db, fake.url, { gradingPool: null });
    const runId = await runInMode(t.db, deps, blueprintId, { models: ['openai:sut-model'], judges: JUDGES, judgeMode: 'per-point', judgeSamples: 3 });
    const [gpt4o, gpt4] = await judgeRecords(runId);

    // gpt-4o: one call with log-probabilities, then 3 samples at temperature 1 (attempts 1–3).
    const asked = callsOf('gpt-4o');
    expect(asked.map((r) => [r.request.topLogprobs ?? null, r.request.temperature])).toEqual([[5, 0], [null, 1], [null, 1], [null, 1]]);
    // The fake's samples at attempts 1, 2, 3 fall at quantiles 0.93, 0.55, 0.16 of {E 0.6, F 0.4}: F, E, E.
    expect(gpt4o).toMatchObject({ judge: 'openai:gpt-4o', method: 'samples', sampledBecause: 'label-not-in-logprobs', n: 3, error: null });
    expect(gpt4o!.distribution).toEqual({ g1: 0, g2: 0, g3: 0, g4: 0, g5: 2 / 3, g6: 1 / 3, g7: 0, g8: 0 });

    // gpt-4: one call, read at `>E` whose alternatives `>E`, `>F` carry both letters.
    expect(callsOf('gpt-4')).toHaveLength(1);
    expect(gpt4).toMatchObject({ judge: 'openai:gpt-4', method: 'logprobs', error: null });
    expect(gpt4!.sampledBecause).toBeUndefined();
    expect(gpt4!.n).toBeUndefined();
    expect(gpt4!.distribution).toEqual({ g1: 0, g2: 0, g3: 0, g4: 0, g5: expect.closeTo(0.6, 12), g6: expect.closeTo(0.4, 12), g7: 0, g8: 0 });
  });

  it('batched, numbers split into digits (option 10 as "1" + "0"): that question is sampled and says so, the others keep their log-probabilities', async () => {
    const { blueprintId: twelve } = await storeBlueprint(t.db, 'twelve.yml', TWELVE);
    fake.setRules([
      { model: '^judge-d$', lastUser: /<QUESTION>\nWhich of twelve grades/, judge: { labels: { J: 0.6, K: 0.4 }, splitDigits: true } },
      { model: '^judge-d$', lastUser: /<QUESTION>\nIs this statement about the text true\?\nThe reply is polite/, judge: { labels: { A: 0.3, B: 0.7 } } },
    ]);
    const deps = await fakeDeps(t.db, fake.url, { gradingPool: null });
    const runId = await runInMode(t.db, deps, twelve, { models: ['openai:sut-model'], judges: ['openai:judge-d#standard'], judgeMode: 'batched', judgeSamples: 3 });
    // One call with log-probabilities (answers "A: 10", "B: 2"), then 3 samples of the whole batch.
    expect(callsOf('judge-d').map((r) => [r.request.topLogprobs ?? null, r.request.temperature])).toEqual([[5, 0], [null, 1], [null, 1], [null, 1]]);
    const verdicts = await t.db.verdict.findMany({ where: { runId, kind: 'question' }, orderBy: { pointIndex: 'asc' } });
    const [grade, polite] = verdicts.map((v) => parseStored(StoredJudgesSchema, v.judges, 'verdicts.judges')[0]!);
    // Samples at attempts 1, 2, 3 fall at quantiles 0.93, 0.55, 0.16 of {10: 0.6, 11: 0.4}: 11, 10, 10.
    expect(grade).toMatchObject({ method: 'samples', sampledBecause: 'label-not-in-logprobs', n: 3, batch: { question: 'A', of: 2 } });
    expect(grade!.distribution).toMatchObject({ g10: 2 / 3, g11: 1 / 3, g1: 0 });
    expect(polite).toMatchObject({ method: 'logprobs', batch: { question: 'B', of: 2 }, distribution: { true: expect.closeTo(0.7, 12), false: expect.closeTo(0.3, 12) } });
    expect(polite!.sampledBecause).toBeUndefined();
  });

  it('batched: option numbers are tokens of their own in both tokenizers, so both judges are read from log-probabilities', async () => {
    const deps = await fakeDeps(t.db, fake.url, { gradingPool: null });
    const runId = await runInMode(t.db, deps, blueprintId, { models: ['openai:sut-model'], judges: JUDGES, judgeMode: 'batched', judgeSamples: 3 });
    const records = await judgeRecords(runId);
    expect(records.map((r) => [r.judge, r.method, r.sampledBecause, r.distribution?.g5, r.distribution?.g6])).toEqual([
      ['openai:gpt-4o', 'logprobs', undefined, expect.closeTo(0.6, 12), expect.closeTo(0.4, 12)],
      ['openai:gpt-4', 'logprobs', undefined, expect.closeTo(0.6, 12), expect.closeTo(0.4, 12)],
    ]);
    expect(callsOf('gpt-4o')).toHaveLength(1);
  });
});
