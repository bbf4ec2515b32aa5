/**
 * A maintainer removes a reviewer's labels: they are kept, marked removed, and count for nothing;
 * the stored figures are made again without them, and go when no live label is left. The admin
 * overview (lib/server/db/queries/review-overview.ts) counts the queue, each reviewer's answers,
 * their agreement with other reviewers and what was removed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { humanFiguresKey } from '@/lib/core';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { readHumanFigures } from '../db/queries/human-figures';
import { humanFiguresSettled, refreshHumanFigures, scheduleHumanFigures } from './figures';
import { reviewOverview } from '../db/queries/review-overview';
import { NotFoundError } from '../http/errors';
import { makeUser, REVIEW_MODELS, REVIEW_RULES, runReviewBlueprint, type ReviewRun } from './human.testkit';
import { answerPair, answerReviewItem, drawPairs, drawReviewItems, grantReviewer, nextPair, nextReviewItem, removeReviewerLabels } from './index';

let t: TestDatabase;
let fake: FakeLlm;
let run: ReviewRun;
type User = Awaited<ReturnType<typeof makeUser>>;
let ann: User;
let ben: User;
const KEYS = () => [humanFiguresKey.blueprint(run.blueprintId), humanFiguresKey.all, humanFiguresKey.pairs];

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: REVIEW_RULES });
  run = await runReviewBlueprint(t.db, fake.url);
  ann = await makeUser(t.db, 'ann');
  ben = await makeUser(t.db, 'ben');
  for (const u of [ann, ben]) await grantReviewer(t.db, { login: u.githubLogin, scope: run.blueprintId, by: 'mia' });
  // every candidate, the first six to two reviewers
  await drawReviewItems(t.db, { blueprintId: run.blueprintId, design: { expectedLabels: 1e6, uniformShare: 1, overlapItems: 6 }, by: 'mia' });
  await drawPairs(t.db, { blueprintId: run.blueprintId, count: 3, by: 'mia' });
  // both label the six overlap items: the same option on the first four, different ones on the last two
  for (let i = 0; i < 6; i++) {
    const a = (await nextReviewItem(t.db, { user: ann, blueprintId: run.blueprintId }))!;
    await answerReviewItem(t.db, { user: ann, itemId: a.itemId, action: 'label', answer: 'CLASS_FULLY_PRESENT' });
    const b = (await nextReviewItem(t.db, { user: ben, blueprintId: run.blueprintId }))!;
    expect(b.itemId).toBe(a.itemId);
    await answerReviewItem(t.db, { user: ben, itemId: b.itemId, action: 'label', answer: i < 4 ? 'CLASS_FULLY_PRESENT' : 'CLASS_ABSENT' });
  }
  // ann flags one more; each compares the first pair
  const flagged = (await nextReviewItem(t.db, { user: ann, blueprintId: run.blueprintId }))!;
  await answerReviewItem(t.db, { user: ann, itemId: flagged.itemId, action: 'flag', flag: 'unreadable-reply' });
  for (const [u, answer] of [[ann, 'a'], [ben, 'tie']] as const) {
    const pair = (await nextPair(t.db, { user: u, blueprintId: run.blueprintId }))!;
    await answerPair(t.db, { user: u, pairId: pair.pairId, action: 'label', answer });
  }
}, 120_000);
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

describe(`the review overview and removing a reviewer's labels (${process.env.ASSAY_TEST_DB})`, () => {
  it('counts the queue and each reviewer', async () => {
    const overview = await reviewOverview(t.db, new Date());
    const items = await t.db.reviewItem.count();
    expect(overview.blueprints).toEqual([
      { blueprintId: run.blueprintId, title: 'Review queue test', items, itemsComplete: 6, labels: 12, flags: 1, pairs: 3, pairsComplete: 1, pairLabels: 2, judgedVerdicts: 8 * REVIEW_MODELS.length },
    ]);
    const byLogin = new Map(overview.reviewers.map((r) => [r.login, r]));
    expect(byLogin.get('ann')).toMatchObject({ scopes: [run.blueprintId], labels: 6, pairLabels: 1, today: 8, last7Days: 8, removed: 0 });
    expect(byLogin.get('ann')!.agreement).toBeCloseTo(4 / 6, 12);
    expect(byLogin.get('ben')).toMatchObject({ labels: 6, pairLabels: 1, today: 7, removed: 0 });
    expect(byLogin.get('ann')!.lastAt).toBeInstanceOf(Date);
    // tomorrow, today's answers are last week's
    const tomorrow = await reviewOverview(t.db, new Date(Date.now() + 24 * 60 * 60 * 1000));
    expect(tomorrow.reviewers.find((r) => r.login === 'ann')).toMatchObject({ today: 0, last7Days: 8 });
  });

  it('makes the same figures again however the recomputes are asked for: at once, several together, or at start', async () => {
    await humanFiguresSettled(t.db);
    const stored = await readHumanFigures(t.db, KEYS());
    expect(stored.size).toBe(3);
    await t.db.humanFigures.deleteMany();
    await Promise.all([scheduleHumanFigures(t.db, [run.blueprintId]), scheduleHumanFigures(t.db, [run.blueprintId]), refreshHumanFigures(t.db)]);
    expect(await readHumanFigures(t.db, KEYS())).toEqual(stored);
  });

  it('recomputes the figures without the removed labels, and deletes them when none is left', async () => {
    await humanFiguresSettled(t.db);
    const before = await readHumanFigures(t.db, KEYS());
    expect(before.get(humanFiguresKey.blueprint(run.blueprintId))).toMatchObject({ kind: 'calibration', labels: 12, reviewers: 2 });
    expect(before.get(humanFiguresKey.pairs)).toMatchObject({ kind: 'pairwise', labels: 2, reviewers: 2 });

    expect(await removeReviewerLabels(t.db, { login: 'BEN', by: 'mia' })).toEqual({ labels: 6, pairs: 1 });
    await humanFiguresSettled(t.db);
    const after = await readHumanFigures(t.db, KEYS());
    expect(after.get(humanFiguresKey.blueprint(run.blueprintId))).toMatchObject({ labels: 6, reviewers: 1 });
    expect(after.get(humanFiguresKey.all)).toMatchObject({ labels: 6, reviewers: 1 });
    expect(after.get(humanFiguresKey.pairs)).toMatchObject({ labels: 1, reviewers: 1 });
    // kept, marked
    expect(await t.db.reviewLabel.count({ where: { reviewerId: ben.id, removedBy: 'mia', removedAt: { not: null } } })).toBe(6);
    // ben's places are free again: his items wait for another reviewer
    const overview = await reviewOverview(t.db, new Date());
    expect(overview.blueprints[0]).toMatchObject({ itemsComplete: 0, labels: 6, pairLabels: 1 });
    expect(overview.reviewers.find((r) => r.login === 'ben')).toMatchObject({ labels: 0, pairLabels: 0, today: 0, removed: 7, agreement: null });
    expect(overview.reviewers.find((r) => r.login === 'ann')!.agreement).toBeNull();

    // removing again removes nothing more
    expect(await removeReviewerLabels(t.db, { login: 'ben', by: 'mia' })).toEqual({ labels: 0, pairs: 0 });
    expect(await removeReviewerLabels(t.db, { login: 'ann', by: 'mia' })).toEqual({ labels: 7, pairs: 1 });
    await humanFiguresSettled(t.db);
    expect((await readHumanFigures(t.db, KEYS())).size).toBe(0);
    expect(await t.db.humanFigures.count()).toBe(0);
    await expect(removeReviewerLabels(t.db, { login: 'nobody-here', by: 'mia' })).rejects.toThrow(NotFoundError);
  });
});
