/**
 * Pairs of replies on a real run (the fake LLM, a panel of two judges, three models the judges
 * score apart): drawn pairs are the models closest in the run's scores, never of a sealed prompt;
 * the order a reviewer sees is decided by the server and recorded; an answer maps to the model
 * preferred; undo offers the pair again; the pairwise figures follow the answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { humanFiguresKey, ShownPairSchema, StoredPairDesignSchema } from '@/lib/core';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { readHumanFigures } from '../db/queries/human-figures';
import { humanFiguresSettled } from './figures';
import { ConflictError, ForbiddenError } from '../http/errors';
import { makeUser, REVIEW_MODELS, REVIEW_RULES, runReviewBlueprint, SEALED_KEYS, type ReviewRun } from './human.testkit';
import { answerPair, drawPairs, grantReviewer, nextPair, preferredModel, shownSwapped, undoLastPair } from './index';
import { pairPreferences } from './figures';

let t: TestDatabase;
let fake: FakeLlm;
let run: ReviewRun;
let scores: Map<string, number>;
type User = Awaited<ReturnType<typeof makeUser>>;
const reviewers: User[] = [];

/** Each model's reply starts with its style word (human.testkit's rules), so a shown reply tells which model wrote it. */
const STYLE: Record<string, string> = { 'openai:model-alpha': 'Alpha style', 'openai:model-beta': 'Beta style', 'openai:model-gamma': 'Gamma style' };
const modelOf = (reply: string) => Object.entries(STYLE).find(([, style]) => reply.startsWith(style))![0];

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: REVIEW_RULES });
  run = await runReviewBlueprint(t.db, fake.url);
  scores = new Map((await t.db.runModelSummary.findMany({ where: { runId: run.runId } })).map((s) => [s.modelId, s.score!]));
  for (let i = 0; i < 8; i++) {
    const user = await makeUser(t.db, `pair-reviewer-${i}`);
    await grantReviewer(t.db, { login: user.githubLogin, scope: run.blueprintId, by: 'test' });
    reviewers.push(user);
  }
}, 120_000);
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

describe(`pairs of replies (${process.env.ASSAY_TEST_DB})`, () => {
  it('draws the models closest in score, on prompts every model answered, never a sealed one', async () => {
    // the judges score the three models apart: alpha > beta > gamma, and alpha–beta is the closest pair
    const [alpha, beta, gamma] = REVIEW_MODELS.map((m) => scores.get(m)!);
    expect(alpha).toBeGreaterThan(beta!);
    expect(beta).toBeGreaterThan(gamma!);
    expect(alpha! - beta!).toBeLessThan(beta! - gamma!);

    const models = (p: { modelA: string; modelB: string }) => [p.modelA, p.modelB].sort().join(' & ');
    // one pair: the closest two models
    expect(await drawPairs(t.db, { blueprintId: run.blueprintId, count: 1, seed: 3, reviewersWanted: 3, by: 'test' })).toEqual({ drawn: 1 });
    expect((await t.db.pairItem.findMany()).map(models)).toEqual(['openai:model-alpha & openai:model-beta']);
    // two pairs: the two closest pairs of models, never the farthest (alpha and gamma)
    const { drawn } = await drawPairs(t.db, { blueprintId: run.blueprintId, count: 2, seed: 4, by: 'test' });
    expect(drawn).toBeGreaterThan(0);
    const second = await t.db.pairItem.findMany({ where: { position: { gt: 0 } } });
    expect(second).toHaveLength(drawn);
    expect(second.map(models)).toContain('openai:model-beta & openai:model-gamma');
    expect(second.map(models)).not.toContain('openai:model-alpha & openai:model-gamma');

    // every pair of models on every prompt: nothing is drawn twice
    await drawPairs(t.db, { blueprintId: run.blueprintId, count: 100, seed: 5, by: 'test' });
    const pairs = await t.db.pairItem.findMany({ orderBy: { position: 'asc' } });
    const open = (await t.db.versionPrompt.count({ where: { versionId: run.versionId, split: { not: 'test' } } }));
    expect(pairs).toHaveLength(open * 3);
    expect(new Set(pairs.map((p) => `${p.promptKey} ${models(p)}`)).size).toBe(pairs.length);
    expect(pairs.map((p) => p.position)).toEqual(pairs.map((_, i) => i));
    for (const p of pairs) {
      expect(SEALED_KEYS).not.toContain(p.promptKey);
      const design = StoredPairDesignSchema.parse(p.design);
      expect(design).toMatchObject({ ranking: 'rubric', scoreA: scores.get(p.modelA), scoreB: scores.get(p.modelB) });
      expect(design.gap).toBeCloseTo(Math.abs(scores.get(p.modelA)! - scores.get(p.modelB)!), 12);
      const [a, b] = await Promise.all([t.db.reply.findUniqueOrThrow({ where: { id: p.replyAId } }), t.db.reply.findUniqueOrThrow({ where: { id: p.replyBId } })]);
      expect([a.modelId, b.modelId, a.promptKey, b.promptKey, a.attempt, b.attempt]).toEqual([p.modelA, p.modelB, p.promptKey, p.promptKey, 0, 0]);
    }
    // the sealed prompts had replies from every model (so leaving them out is a real test)
    expect(await t.db.reply.count({ where: { runId: run.runId, promptKey: { in: SEALED_KEYS } } })).toBe(SEALED_KEYS.length * REVIEW_MODELS.length);
  });

  it('shows each reviewer a pair in an order the server decides and records; answers map to the model preferred', async () => {
    const pair = await t.db.pairItem.findFirstOrThrow({ where: { position: 0 } });
    expect(pair.reviewersWanted).toBe(3);
    const orders = new Set<boolean>();
    const answers = ['a', 'b', 'tie'] as const;
    const expected: string[] = [];
    for (const [i, user] of reviewers.slice(0, 3).entries()) {
      const answer = answers[i]!;
      const shown = (await nextPair(t.db, { user, blueprintId: run.blueprintId }))!;
      expect(shown.pairId).toBe(pair.id);
      const text = JSON.stringify(shown);
      for (const model of REVIEW_MODELS) expect(text).not.toContain(model.split(':')[1]!);
      const first = modelOf(shown.replyA);
      expect(first).toBe(shownSwapped(pair.id, user.id) ? pair.modelB : pair.modelA);
      expect(modelOf(shown.replyB)).toBe(first === pair.modelA ? pair.modelB : pair.modelA);
      orders.add(shownSwapped(pair.id, user.id));

      await answerPair(t.db, { user, pairId: pair.id, action: 'label', answer });
      const label = await t.db.pairLabel.findFirstOrThrow({ where: { pairId: pair.id, reviewerId: user.id } });
      expect(label).toMatchObject({ action: 'label', answer, shownFirst: first });
      expect(ShownPairSchema.parse(label.shown)).toEqual(shown);
      // the model preferred is the one whose reply was shown where the reviewer pointed
      expected.push(answer === 'tie' ? 'tie' : modelOf(answer === 'a' ? shown.replyA : shown.replyB));
      expect(preferredModel(pair, label.shownFirst, answer)).toBe(expected.at(-1));
    }
    // over every pair and reviewer, both orders are used
    for (const p of await t.db.pairItem.findMany()) for (const user of reviewers) orders.add(shownSwapped(p.id, user.id));
    expect(orders).toEqual(new Set([true, false]));

    // the pair has its three answers: no one else is offered it, and a fourth is refused
    expect((await nextPair(t.db, { user: reviewers[3]!, blueprintId: run.blueprintId }))?.pairId).not.toBe(pair.id);
    await expect(answerPair(t.db, { user: reviewers[3]!, pairId: pair.id, action: 'label', answer: 'a' })).rejects.toThrow(ConflictError);
    await expect(answerPair(t.db, { user: reviewers[3]!, pairId: pair.id, action: 'label', answer: 'left' })).rejects.toThrow(/a \(the first reply\), b \(the second\) or tie/);

    const preferences = await pairPreferences(t.db);
    expect(preferences.map((p) => p.preferred)).toEqual(expected);
    expect(preferences.every((p) => p.modelA === pair.modelA && p.modelB === pair.modelB)).toBe(true);
    await humanFiguresSettled(t.db);
    const figures = (await readHumanFigures(t.db, [humanFiguresKey.pairs])).get(humanFiguresKey.pairs);
    expect(figures).toMatchObject({ kind: 'pairwise', labels: 3, reviewers: 3, blueprints: [run.blueprintId] });
  });

  it('undo offers the pair again and the figures drop the answer', async () => {
    const pair = await t.db.pairItem.findFirstOrThrow({ where: { position: 0 } });
    expect(await undoLastPair(t.db, { user: reviewers[2]!, blueprintId: run.blueprintId })).toEqual({ pairId: pair.id });
    expect((await nextPair(t.db, { user: reviewers[2]!, blueprintId: run.blueprintId }))?.pairId).toBe(pair.id);
    await humanFiguresSettled(t.db);
    expect((await readHumanFigures(t.db, [humanFiguresKey.pairs])).get(humanFiguresKey.pairs)).toMatchObject({ labels: 2 });
    await answerPair(t.db, { user: reviewers[2]!, pairId: pair.id, action: 'skip' });
    expect((await nextPair(t.db, { user: reviewers[2]!, blueprintId: run.blueprintId }))?.pairId).not.toBe(pair.id);
  });

  it('refuses a non-reviewer and a run with one model', async () => {
    const stranger = await makeUser(t.db, 'stranger');
    await expect(nextPair(t.db, { user: stranger, blueprintId: run.blueprintId })).rejects.toThrow(ForbiddenError);
    const single = await runReviewBlueprint(t.db, fake.url, { path: 'review-single.yml', models: ['openai:model-alpha'] });
    await expect(drawPairs(t.db, { blueprintId: single.blueprintId, count: 2, by: 'test' })).rejects.toThrow(/comparing replies needs two/);
  });
});
