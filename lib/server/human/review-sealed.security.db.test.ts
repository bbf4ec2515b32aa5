/**
 * Sealed prompts never reach a reviewer, whatever the spelling of `split: test`: for each
 * spelling the parser accepts (lib/server/blueprints/sealed-spellings.testkit.ts, with a judged
 * point added to every prompt so the sealed prompts have judged verdicts and replies to leak), a
 * blueprint is run against the fake LLM with a panel of two judges; a draw over every candidate
 * (each drawn with probability 1) and a draw of every pair take nothing of a sealed prompt, and
 * walking the whole queue never shows one. An item or pair pointing at a sealed prompt (as a bug
 * in a draw would make) is never offered, shown or answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm } from '@/testing/fakes/llm-server';
import { SEALED_SPELLINGS } from '../blueprints/sealed-spellings.testkit';
import { freshDatabase, type TestDatabase } from '../db/db.testkit';
import { NotFoundError } from '../http/errors';
import { checkJudgedSpelling, makeUser, runReviewBlueprint, withJudgedPoints, type ReviewRun } from './human.testkit';
import { answerPair, answerReviewItem, drawPairs, drawReviewItems, nextPair, nextReviewItem, shownPair, shownReviewItem } from './index';

let t: TestDatabase;
let fake: FakeLlm;
let maintainer: Awaited<ReturnType<typeof makeUser>>;
const MODELS = ['openai:model-1', 'openai:model-2'];
const SPELLINGS = SEALED_SPELLINGS.map(withJudgedPoints);
const runs = new Map<string, ReviewRun & { sealed: string[] }>();
const NO_LIMITS = { perMinute: 100_000, perDay: 100_000 };
const EVERY_CANDIDATE = { expectedLabels: 1e9, uniformShare: 1 };

beforeAll(async () => {
  t = await freshDatabase();
  fake = await startFakeLlm({
    rules: [
      { model: 'judge-a', judge: { labels: { C: 0.5, E: 0.5 }, reasoning: 'Judge A.' } },
      { model: 'judge-b', judge: { labels: { E: 1 }, reasoning: 'Judge B.' } },
    ],
  });
  maintainer = await makeUser(t.db, 'maintainer', 'maintainer');
  for (const s of SPELLINGS) {
    expect(checkJudgedSpelling(s), s.name).toBeNull();
    const run = await runReviewBlueprint(t.db, fake.url, { path: s.file, text: s.text, models: MODELS });
    const sealed = (await t.db.versionPrompt.findMany({ where: { versionId: run.versionId, split: 'test' }, select: { promptKey: true } })).map((p) => p.promptKey);
    runs.set(s.name, { ...run, sealed });
  }
}, 300_000);
afterAll(async () => {
  await fake?.close();
  await t?.close();
});

describe(`sealed prompts in the review queue (${process.env.ASSAY_TEST_DB})`, () => {
  it.each(SPELLINGS.map((s) => s.name))('%s: no item, pair or showing comes from a sealed prompt', async (name) => {
    const run = runs.get(name)!;
    const spelling = SPELLINGS.find((s) => s.name === name)!;
    expect(run.sealed).toHaveLength(spelling.sealed);
    // the sealed prompts were answered and judged: there was something to leak
    expect(await t.db.verdict.count({ where: { runId: run.runId, promptKey: { in: run.sealed }, kind: 'text', status: { in: ['pass', 'fail'] } } })).toBeGreaterThan(0);
    const sealedReplies = await t.db.reply.findMany({ where: { runId: run.runId, promptKey: { in: run.sealed } }, select: { content: true } });
    expect(sealedReplies.length).toBeGreaterThan(0);
    expect(sealedReplies.every((r) => r.content.includes('SECRET'))).toBe(true);

    const draw = await drawReviewItems(t.db, { blueprintId: run.blueprintId, design: EVERY_CANDIDATE, by: 'maintainer' });
    const open = await t.db.verdict.count({ where: { runId: run.runId, promptKey: { notIn: run.sealed }, kind: 'text', status: { in: ['pass', 'fail'] } } });
    expect(draw).toMatchObject({ candidates: open, drawn: open });
    const items = await t.db.reviewItem.findMany({ where: { blueprintId: run.blueprintId } });
    expect(items).toHaveLength(open);
    for (const item of items) expect(run.sealed).not.toContain(item.promptKey);

    const { drawn } = await drawPairs(t.db, { blueprintId: run.blueprintId, count: 1000, by: 'maintainer' });
    const pairs = await t.db.pairItem.findMany({ where: { blueprintId: run.blueprintId } });
    expect(pairs).toHaveLength(drawn);
    expect(drawn).toBeGreaterThan(0);
    for (const pair of pairs) expect(run.sealed).not.toContain(pair.promptKey);

    // the whole queue, walked to its end by a maintainer (who may review every blueprint)
    const seen: string[] = [];
    for (let item = await nextReviewItem(t.db, { user: maintainer, blueprintId: run.blueprintId }); item; item = await nextReviewItem(t.db, { user: maintainer, blueprintId: run.blueprintId })) {
      expect(JSON.stringify(item)).not.toMatch(/SECRET/);
      seen.push(item.itemId);
      await answerReviewItem(t.db, { user: maintainer, itemId: item.itemId, action: 'skip' }, NO_LIMITS);
    }
    expect(seen.sort()).toEqual(items.map((i) => i.id).sort());
    const compared: string[] = [];
    for (let pair = await nextPair(t.db, { user: maintainer, blueprintId: run.blueprintId }); pair; pair = await nextPair(t.db, { user: maintainer, blueprintId: run.blueprintId })) {
      expect(JSON.stringify(pair)).not.toMatch(/SECRET/);
      compared.push(pair.pairId);
      await answerPair(t.db, { user: maintainer, pairId: pair.pairId, action: 'skip' }, NO_LIMITS);
    }
    expect(compared.sort()).toEqual(pairs.map((p) => p.id).sort());
  });

  it.each(SPELLINGS.map((s) => s.name))('%s: an item or pair made of a sealed prompt by mistake is never offered, shown or answered', async (name) => {
    const run = runs.get(name)!;
    const verdict = await t.db.verdict.findFirstOrThrow({ where: { runId: run.runId, promptKey: { in: run.sealed }, kind: 'text' } });
    const draw = await t.db.reviewDraw.findFirstOrThrow({ where: { runId: run.runId } });
    // a row no draw would make (its verdict's prompt is sealed), placed first in the queue
    const item = await t.db.reviewItem.create({
      data: { drawId: draw.id, blueprintId: run.blueprintId, runId: run.runId, verdictId: verdict.id, promptKey: verdict.promptKey, modelId: verdict.modelId, pointIndex: verdict.pointIndex, inclusion: 1, stratum: 'uniform', reviewersWanted: 5, position: -1 },
    });
    const replies = await t.db.reply.findMany({ where: { runId: run.runId, promptKey: verdict.promptKey }, orderBy: { modelId: 'asc' } });
    const pair = await t.db.pairItem.create({
      data: { blueprintId: run.blueprintId, runId: run.runId, promptKey: verdict.promptKey, modelA: replies[0]!.modelId, modelB: replies[1]!.modelId, replyAId: replies[0]!.id, replyBId: replies[1]!.id, design: { ranking: 'rubric', scoreA: null, scoreB: null, gap: null, seed: 0 }, reviewersWanted: 5, position: -1 },
    });
    const reviewer = await makeUser(t.db, `fresh-${SPELLINGS.findIndex((s) => s.name === name)}`, 'admin');
    // the open prompts' items and pairs still wait for this reviewer; the sealed one is passed over
    const offered = await nextReviewItem(t.db, { user: reviewer, blueprintId: run.blueprintId });
    expect(offered?.itemId).toBeDefined();
    expect(offered!.itemId).not.toBe(item.id);
    const offeredPair = await nextPair(t.db, { user: reviewer, blueprintId: run.blueprintId });
    expect(offeredPair?.pairId).toBeDefined();
    expect(offeredPair!.pairId).not.toBe(pair.id);
    expect(await shownReviewItem(t.db, item.id)).toBeNull();
    expect(await shownPair(t.db, pair.id, reviewer.id)).toBeNull();
    await expect(answerReviewItem(t.db, { user: reviewer, itemId: item.id, action: 'label', answer: 'CLASS_ABSENT' }, NO_LIMITS)).rejects.toThrow(NotFoundError);
    await expect(answerPair(t.db, { user: reviewer, pairId: pair.id, action: 'label', answer: 'a' }, NO_LIMITS)).rejects.toThrow(NotFoundError);
    expect(await t.db.reviewLabel.count({ where: { itemId: item.id } })).toBe(0);
    expect(await t.db.pairLabel.count({ where: { pairId: pair.id } })).toBe(0);
  });
});
