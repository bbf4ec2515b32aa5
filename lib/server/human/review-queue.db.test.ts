/**
 * The verdict-labelling queue end to end on a real run (the fake LLM, a panel of two judges):
 * a draw's items carry the design's inclusion probabilities, strata and overlap, and no sealed
 * prompt; reviewers are offered items in the draw's order until each has the labels it wants;
 * skip, flag and undo; wrong answers, the per-minute limit and the daily cap are refused with
 * reasons; what is stored as shown names neither the model nor a judge; non-reviewers are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xoroshiro128plus } from 'pure-rand';
import {
  drawForReview,
  humanFiguresKey,
  HumanFiguresSchema,
  inclusionProbabilities,
  judgeScaleQuestion,
  questionValue,
  ShownReviewItemSchema,
  StoredReviewDesignSchema,
  uncertaintyOf,
  type ReviewCandidate,
} from '@/lib/core';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { readHumanFigures } from '../db/queries/human-figures';
import { humanFiguresSettled } from './figures';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, RateLimitedError } from '../http/errors';
import { JUDGE_REASONINGS, makeUser, REVIEW_MODELS, REVIEW_RULES, runReviewBlueprint, SEALED_KEYS, type ReviewRun } from './human.testkit';
import { answerReviewItem, drawReviewItems, grantReviewer, mayReview, nextReviewItem, reviewableBlueprints, revokeReviewer, undoLastReview } from './index';

let t: TestDatabase;
let fake: FakeLlm;
let run: ReviewRun;
type User = Awaited<ReturnType<typeof makeUser>>;
const users: Record<string, User> = {};
const DESIGN = { expectedLabels: 12, uniformShare: 0.5, overlapItems: 4, overlapReviewers: 2, otherReviewers: 1 };
const SEED = 7;

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({ rules: REVIEW_RULES });
  run = await runReviewBlueprint(t.db, fake.url);
  for (const [login, role] of [['mia', 'maintainer'], ['rita', 'reader'], ['ravi', 'reader'], ['rosa', 'reader'], ['rex', 'reader'], ['dana', 'reader'], ['nobody', 'reader']] as const) users[login] = await makeUser(t.db, login, role);
  for (const login of ['rita', 'rosa', 'rex', 'dana']) await grantReviewer(t.db, { login, scope: run.blueprintId, by: 'mia' });
  await grantReviewer(t.db, { login: 'ravi', scope: '*', by: 'mia' });
}, 120_000);
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

/** The run's candidates, found here without the draw's code: judged verdicts with a pass or fail outside the sealed prompts. */
async function expectedCandidates(): Promise<ReviewCandidate[]> {
  const sealed = (await t.db.versionPrompt.findMany({ where: { versionId: run.versionId, split: 'test' }, select: { promptKey: true } })).map((p) => p.promptKey);
  expect(sealed.sort()).toEqual(SEALED_KEYS);
  const verdicts = await t.db.verdict.findMany({
    where: { runId: run.runId, kind: 'text', status: { in: ['pass', 'fail'] }, promptKey: { notIn: sealed } },
    orderBy: [{ promptKey: 'asc' }, { modelId: 'asc' }, { replyId: 'asc' }, { pointIndex: 'asc' }],
  });
  return verdicts.map((v) => {
    const value = questionValue(judgeScaleQuestion(v.pointText), v.distribution as Record<string, number>);
    if (!('applicable' in value) || !value.applicable) throw new Error('a judged verdict without a value');
    return { id: v.id, probability: value.value, disagreement: v.disagreement };
  });
}

describe(`drawing verdicts for review (${process.env.ASSAY_TEST_DB})`, () => {
  it('stores the design, the inclusion probabilities, strata and overlap, and never a sealed prompt', async () => {
    const candidates = await expectedCandidates();
    // 8 judged points of the open prompts × 3 models
    expect(candidates).toHaveLength(8 * REVIEW_MODELS.length);
    expect(candidates.some((c) => c.disagreement)).toBe(true);
    // the sealed prompts were judged too (so leaving them out is a real test)
    expect(await t.db.verdict.count({ where: { runId: run.runId, promptKey: { in: SEALED_KEYS }, kind: 'text', status: { in: ['pass', 'fail'] } } })).toBe(4 * REVIEW_MODELS.length);

    const draw = await drawReviewItems(t.db, { blueprintId: run.blueprintId, design: DESIGN, seed: SEED, by: 'mia' });
    expect(draw).toMatchObject({ runId: run.runId, candidates: candidates.length });
    const stored = await t.db.reviewDraw.findUniqueOrThrow({ where: { id: draw.drawId } });
    expect(StoredReviewDesignSchema.parse(stored.design)).toEqual({ ...DESIGN, seed: SEED });

    const items = await t.db.reviewItem.findMany({ where: { drawId: draw.drawId }, orderBy: { position: 'asc' } });
    expect(items).toHaveLength(draw.drawn);
    // the same draw, made here from the candidates found independently
    const expected = drawForReview(candidates, xoroshiro128plus(SEED), DESIGN);
    expect(items.map((i) => i.verdictId).sort()).toEqual(expected.map((e) => e.id).sort());
    const pis = new Map(candidates.map((c, i) => [c.id, inclusionProbabilities(candidates, DESIGN)[i]!]));
    const byId = new Map(candidates.map((c) => [c.id, c]));
    items.forEach((item, rank) => {
      expect(item.inclusion).toBeCloseTo(pis.get(item.verdictId)!, 12);
      const c = byId.get(item.verdictId)!;
      expect(item.stratum).toBe(c.disagreement ? 'disputed' : uncertaintyOf(c.probability) >= 0.5 ? 'uncertain' : 'uniform');
      expect(item.reviewersWanted).toBe(rank < DESIGN.overlapItems ? 2 : 1);
      expect(item.position).toBe(rank);
      expect(SEALED_KEYS).not.toContain(item.promptKey);
    });
    expect(new Set(items.map((i) => i.stratum))).toEqual(new Set(['disputed', 'uncertain', 'uniform']));
  });

  it('draws only verdicts not drawn before, and refuses when none is left', async () => {
    const all = await drawReviewItems(t.db, { blueprintId: run.blueprintId, design: { expectedLabels: 10_000, uniformShare: 1 }, by: 'mia' });
    const first = await t.db.reviewItem.count({ where: { drawId: { not: all.drawId } } });
    expect(all.candidates).toBe(8 * REVIEW_MODELS.length - first);
    expect(all.drawn).toBe(all.candidates);
    // positions continue after the first draw's
    const positions = (await t.db.reviewItem.findMany({ select: { position: true } })).map((p) => p.position).sort((a, b) => a - b);
    expect(positions).toEqual(positions.map((_, i) => i));
    await expect(drawReviewItems(t.db, { blueprintId: run.blueprintId, by: 'mia' })).rejects.toThrow(ConflictError);
    await expect(drawReviewItems(t.db, { blueprintId: run.blueprintId, by: 'mia' })).rejects.toThrow(/no judged verdicts left/);
    await expect(drawReviewItems(t.db, { blueprintId: 'no-such', by: 'mia' })).rejects.toThrow(NotFoundError);
    await expect(drawReviewItems(t.db, { blueprintId: run.blueprintId, design: { overlapReviewers: 1 }, by: 'mia' })).rejects.toThrow(/design is not valid/);
  });
});

describe(`the queue (${process.env.ASSAY_TEST_DB})`, () => {
  it('offers two reviewers the first item, then no one else once it has its two labels', async () => {
    const first = await t.db.reviewItem.findFirstOrThrow({ where: { position: 0 } });
    expect(first.reviewersWanted).toBe(2);
    const forRita = await nextReviewItem(t.db, { user: users.rita!, blueprintId: run.blueprintId });
    expect(forRita?.itemId).toBe(first.id);
    await answerReviewItem(t.db, { user: users.rita!, itemId: first.id, action: 'label', answer: forRita!.options.at(-1)!.label });
    // rita has answered it: she is offered the next one
    expect((await nextReviewItem(t.db, { user: users.rita!, blueprintId: run.blueprintId }))?.itemId).not.toBe(first.id);
    const forRavi = await nextReviewItem(t.db, { user: users.ravi!, blueprintId: run.blueprintId });
    expect(forRavi?.itemId).toBe(first.id);
    await answerReviewItem(t.db, { user: users.ravi!, itemId: first.id, action: 'label', answer: forRavi!.options[0]!.label });
    const forRosa = await nextReviewItem(t.db, { user: users.rosa!, blueprintId: run.blueprintId });
    expect(forRosa?.itemId).not.toBe(first.id);
    // a third label is refused even when asked for directly
    await expect(answerReviewItem(t.db, { user: users.rosa!, itemId: first.id, action: 'label', answer: forRosa!.options[0]!.label })).rejects.toThrow(/already has the labels it needs/);
    // and the same reviewer cannot answer twice
    await expect(answerReviewItem(t.db, { user: users.rita!, itemId: first.id, action: 'skip' })).rejects.toThrow(ConflictError);

    await humanFiguresSettled(t.db);
    const figures = await readHumanFigures(t.db, [humanFiguresKey.blueprint(run.blueprintId), humanFiguresKey.all]);
    const mine = figures.get(humanFiguresKey.blueprint(run.blueprintId));
    expect(mine).toMatchObject({ kind: 'calibration', blueprintId: run.blueprintId, labels: 2, items: 1, reviewers: 2 });
    expect(figures.get(humanFiguresKey.all)).toMatchObject({ kind: 'calibration', blueprintId: null, labels: 2 });
  });

  it('shows the judge’s own question and options, and stores the showing without the model or the judges', async () => {
    const item = await nextReviewItem(t.db, { user: users.rosa!, blueprintId: run.blueprintId });
    expect(item).not.toBeNull();
    const row = await t.db.reviewItem.findUniqueOrThrow({ where: { id: item!.itemId } });
    const verdict = await t.db.verdict.findUniqueOrThrow({ where: { id: row.verdictId }, include: { reply: true } });
    expect(item!.reply).toBe(verdict.reply.content);
    expect(item!.question).toEqual(judgeScaleQuestion(verdict.pointText));
    expect(item!.options.map((o) => o.label)).toEqual(['CLASS_ABSENT', 'CLASS_SLIGHTLY_PRESENT', 'CLASS_PARTIALLY_PRESENT', 'CLASS_MAJORLY_PRESENT', 'CLASS_FULLY_PRESENT']);
    expect(item!.conversation.at(-1)).toMatchObject({ role: 'user' });

    await answerReviewItem(t.db, { user: users.rosa!, itemId: item!.itemId, action: 'label', answer: 'CLASS_MAJORLY_PRESENT' });
    const label = await t.db.reviewLabel.findFirstOrThrow({ where: { itemId: item!.itemId, reviewerId: users.rosa!.id } });
    expect(ShownReviewItemSchema.parse(label.shown)).toEqual(item);
    const text = JSON.stringify(label.shown);
    for (const model of REVIEW_MODELS) {
      expect(text).not.toContain(model);
      expect(text).not.toContain(model.split(':')[1]!);
    }
    for (const reasoning of JUDGE_REASONINGS) expect(text).not.toContain(reasoning);
    expect(text).not.toContain('judge-');
    // the stored verdict did carry them (so their absence is a real test)
    expect(JSON.stringify(verdict.judges)).toMatch(/JUDGE-.*REASONING/);
  });

  it('refuses an answer that is not one of the options, with the options it could be', async () => {
    const item = (await nextReviewItem(t.db, { user: users.rita!, blueprintId: run.blueprintId }))!;
    const wrong = answerReviewItem(t.db, { user: users.rita!, itemId: item.itemId, action: 'label', answer: 'CLASS_NOPE' });
    await expect(wrong).rejects.toThrow(BadRequestError);
    await expect(answerReviewItem(t.db, { user: users.rita!, itemId: item.itemId, action: 'label', answer: 'CLASS_NOPE' })).rejects.toThrow(/"CLASS_NOPE" is not one of this question's options: CLASS_ABSENT, .*CLASS_FULLY_PRESENT/);
    await expect(answerReviewItem(t.db, { user: users.rita!, itemId: item.itemId, action: 'label' })).rejects.toThrow(/needs an answer/);
    await expect(answerReviewItem(t.db, { user: users.rita!, itemId: item.itemId, action: 'flag', flag: 'boring' })).rejects.toThrow(/bad-question or unreadable-reply/);
    expect(await t.db.reviewLabel.count({ where: { itemId: item.itemId, reviewerId: users.rita!.id } })).toBe(0);
  });

  it('skip and flag move the reviewer on; undo offers the item again', async () => {
    const a = (await nextReviewItem(t.db, { user: users.rita!, blueprintId: run.blueprintId }))!;
    await answerReviewItem(t.db, { user: users.rita!, itemId: a.itemId, action: 'skip' });
    const b = (await nextReviewItem(t.db, { user: users.rita!, blueprintId: run.blueprintId }))!;
    expect(b.itemId).not.toBe(a.itemId);
    await answerReviewItem(t.db, { user: users.rita!, itemId: b.itemId, action: 'flag', flag: 'bad-question' });
    const c = (await nextReviewItem(t.db, { user: users.rita!, blueprintId: run.blueprintId }))!;
    expect([a.itemId, b.itemId]).not.toContain(c.itemId);
    expect(await t.db.reviewLabel.findFirst({ where: { itemId: b.itemId, reviewerId: users.rita!.id } })).toMatchObject({ action: 'flag', flag: 'bad-question', answer: null });

    expect(await undoLastReview(t.db, { user: users.rita!, blueprintId: run.blueprintId })).toEqual({ itemId: b.itemId });
    expect((await nextReviewItem(t.db, { user: users.rita!, blueprintId: run.blueprintId }))?.itemId).toBe(b.itemId);
    expect(await undoLastReview(t.db, { user: users.rita!, blueprintId: run.blueprintId })).toEqual({ itemId: a.itemId });
    expect((await nextReviewItem(t.db, { user: users.rita!, blueprintId: run.blueprintId }))?.itemId).toBe(a.itemId);
    // the undone rows are kept, marked
    expect(await t.db.reviewLabel.count({ where: { reviewerId: users.rita!.id, undoneAt: { not: null } } })).toBe(2);
  });

  it('an undone label frees its place for another reviewer', async () => {
    const first = await t.db.reviewItem.findFirstOrThrow({ where: { position: 0 } });
    // rita's label on the first item is her latest live answer now that the skip and flag are undone
    expect(await undoLastReview(t.db, { user: users.rita!, blueprintId: run.blueprintId })).toEqual({ itemId: first.id });
    expect((await nextReviewItem(t.db, { user: users.rex!, blueprintId: run.blueprintId }))?.itemId).toBe(first.id);
    await humanFiguresSettled(t.db);
    const figures = await readHumanFigures(t.db, [humanFiguresKey.blueprint(run.blueprintId)]);
    expect(figures.get(humanFiguresKey.blueprint(run.blueprintId))).toMatchObject({ labels: 2 }); // ravi's and rosa's
  });

  it('enforces the per-minute limit and the daily cap, saying when to come back', async () => {
    const now = new Date('2031-05-06T22:30:00Z');
    const skipNext = (user: User, limits: { perMinute: number; perDay: number }, at = now) =>
      nextReviewItem(t.db, { user, blueprintId: run.blueprintId }).then((i) => answerReviewItem(t.db, { user, itemId: i!.itemId, action: 'skip' }, limits, at));
    const perMinute = { perMinute: 2, perDay: 400 };
    await skipNext(users.rex!, perMinute);
    await skipNext(users.rex!, perMinute);
    const third = skipNext(users.rex!, perMinute);
    await expect(third).rejects.toThrow(RateLimitedError);
    await expect(skipNext(users.rex!, perMinute)).rejects.toThrow(/this minute/);
    // the next minute is a new window
    await skipNext(users.rex!, perMinute, new Date(now.getTime() + 60_000));

    const perDay = { perMinute: 1000, perDay: 2 };
    await skipNext(users.dana!, perDay);
    await skipNext(users.dana!, perDay);
    const capped = skipNext(users.dana!, perDay).catch((e: unknown) => e);
    const e = (await capped) as RateLimitedError;
    expect(e).toBeInstanceOf(RateLimitedError);
    expect(e.message).toMatch(/daily limit of 2; it resets at midnight UTC, in 1 h 30 min/);
    expect(e.retryAfterSeconds).toBe(90 * 60);
    // undoing does not give the answer back: the cap counts the work done
    await undoLastReview(t.db, { user: users.dana!, blueprintId: run.blueprintId }, now);
    await expect(skipNext(users.dana!, perDay)).rejects.toThrow(RateLimitedError);
    // the next UTC day
    await skipNext(users.dana!, perDay, new Date('2031-05-07T00:00:01Z'));
  });

  it('refuses a signed-in user who is not a reviewer, and lets a maintainer review', async () => {
    const item = await t.db.reviewItem.findFirstOrThrow({ orderBy: { position: 'desc' } });
    await expect(nextReviewItem(t.db, { user: users.nobody!, blueprintId: run.blueprintId })).rejects.toThrow(ForbiddenError);
    await expect(answerReviewItem(t.db, { user: users.nobody!, itemId: item.id, action: 'skip' })).rejects.toThrow(ForbiddenError);
    await expect(undoLastReview(t.db, { user: users.nobody!, blueprintId: run.blueprintId })).rejects.toThrow(ForbiddenError);
    expect(await reviewableBlueprints(t.db, users.nobody!)).toEqual([]);
    expect(await mayReview(t.db, users.mia!, run.blueprintId)).toBe(true);
    expect(await nextReviewItem(t.db, { user: users.mia!, blueprintId: run.blueprintId })).not.toBeNull();
  });
});

describe(`grants (${process.env.ASSAY_TEST_DB})`, () => {
  it('grants by login (making the user), lists what waits, and revokes', async () => {
    const grant = await grantReviewer(t.db, { login: 'New-Person', scope: run.blueprintId, by: 'mia' });
    const user = await t.db.user.findUniqueOrThrow({ where: { id: grant.userId } });
    expect(user).toMatchObject({ githubLogin: 'New-Person', role: 'reader' });
    // another case is the same GitHub login
    expect((await grantReviewer(t.db, { login: 'new-person', scope: '*', by: 'mia' })).userId).toBe(user.id);
    // an item with its one label is full: not waiting for anyone
    const single = await t.db.reviewItem.findFirstOrThrow({ where: { reviewersWanted: 1, labels: { none: {} } }, orderBy: { position: 'desc' } });
    await answerReviewItem(t.db, { user: users.mia!, itemId: single.id, action: 'label', answer: 'CLASS_ABSENT' });
    const skipped = (await nextReviewItem(t.db, { user, blueprintId: run.blueprintId }))!;
    await answerReviewItem(t.db, { user, itemId: skipped.itemId, action: 'skip' });
    const live = (l: { undoneAt: Date | null; removedAt: Date | null }) => !l.undoneAt && !l.removedAt;
    const waiting = (await t.db.reviewItem.findMany({ include: { labels: true } })).filter(
      (i) => i.labels.filter((l) => l.action === 'label' && live(l)).length < i.reviewersWanted && !i.labels.some((l) => l.reviewerId === user.id && live(l)),
    );
    const items = await t.db.reviewItem.count({ where: { blueprintId: run.blueprintId } });
    // some items are full, and one is answered by this user: fewer wait than were drawn
    expect(waiting.length).toBeLessThan(items - 1);
    expect(await reviewableBlueprints(t.db, user)).toEqual([{ blueprintId: run.blueprintId, title: 'Review queue test', itemsWaiting: waiting.length, pairsWaiting: 0, answeredToday: 1 }]);
    expect(await revokeReviewer(t.db, { login: 'new-person', scope: run.blueprintId })).toEqual({ revoked: true });
    expect(await mayReview(t.db, user, run.blueprintId)).toBe(true); // the '*' grant is still there
    await revokeReviewer(t.db, { login: 'new-person', scope: '*' });
    expect(await mayReview(t.db, user, run.blueprintId)).toBe(false);
    await expect(grantReviewer(t.db, { login: 'someone', scope: 'no-such-blueprint', by: 'mia' })).rejects.toThrow(NotFoundError);
    await expect(grantReviewer(t.db, { login: 'not a login!', scope: '*', by: 'mia' })).rejects.toThrow(BadRequestError);
  });

  it('stores figures that parse', async () => {
    const row = await t.db.humanFigures.findUniqueOrThrow({ where: { key: humanFiguresKey.blueprint(run.blueprintId) } });
    expect(HumanFiguresSchema.parse(row.body).kind).toBe('calibration');
  });
});
