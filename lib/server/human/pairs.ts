/**
 * Drawing pairs of replies for people to compare: two models' replies to the same prompt of one
 * run, the models chosen close in the run's rubric scores (lib/core choosePairs), where a
 * preference says the most about their order. Each model's reply is its first (attempt 0, the
 * first system prompt and temperature) when it answered without error and said something; a
 * prompt is used only when every model has such a reply to the same conversation (a turn a model
 * generated earlier in the conversation would tell the models apart). Sealed prompts are never used.
 */
import { choosePairs, hashSeed, parseStored, StoredPairDesignSchema, StoredTurnsSchema } from '@/lib/core';
import type { Prisma } from '@/generated/prisma/client';
import type { Db } from '../db/client';
import { notSealedIn } from '../db/queries/sealed';
import { BadRequestError, ConflictError } from '../http/errors';
import { runToDrawFrom, type DrawRun } from './draw-run';

export interface DrawPairsInput {
  blueprintId: string;
  runId?: string;
  /** Pairs wanted. */
  count: number;
  seed?: number;
  /** Reviewers each pair goes to. */
  reviewersWanted?: number;
  by: string;
}

interface ReplyRow {
  id: string;
  promptKey: string;
  modelId: string;
  turns: unknown;
}

/** Per prompt, each model's reply to compare, for the prompts every model answered on the same conversation. */
export async function comparableReplies(db: Db, run: DrawRun, models: readonly string[]): Promise<Map<string, Map<string, string>>> {
  const rows = await db.$queryRaw<ReplyRow[]>`
    SELECT r.id, r.prompt_key AS "promptKey", r.model_id AS "modelId", r.turns
    FROM replies r
    WHERE r.run_id = ${run.replyRunId}
      AND r.attempt = 0 AND r.system_index = 0 AND r.temperature_index = 0
      AND r.error IS NULL AND btrim(r.content) <> ''
      AND r.model_id = ANY(${[...models]}::text[])
      AND ${notSealedIn(run.versionId, 'r.prompt_key')}
      AND ${notSealedIn(run.replyVersionId, 'r.prompt_key')}
    ORDER BY r.prompt_key, r.model_id`;
  const byPrompt = new Map<string, { conversation: string; replies: Map<string, string> }[]>();
  for (const r of rows) {
    const conversation = JSON.stringify(parseStored(StoredTurnsSchema, r.turns, `replies ${r.id}.turns`).slice(0, -1));
    const list = byPrompt.get(r.promptKey) ?? byPrompt.set(r.promptKey, []).get(r.promptKey)!;
    const same = list.find((g) => g.conversation === conversation);
    if (same) same.replies.set(r.modelId, r.id);
    else list.push({ conversation, replies: new Map([[r.modelId, r.id]]) });
  }
  const out = new Map<string, Map<string, string>>();
  for (const [key, groups] of byPrompt) {
    if (groups.length === 1 && groups[0]!.replies.size === models.length) out.set(key, groups[0]!.replies);
  }
  return out;
}

/**
 * Pairs are stored with their two models in one order (which reply a reviewer sees first is
 * decided when it is shown), so the same pair drawn again is known as the same.
 */
function pairKey(promptKey: string, modelA: string, modelB: string): string {
  return JSON.stringify([promptKey, modelA, modelB]);
}

export async function drawPairs(db: Db, input: DrawPairsInput): Promise<{ drawn: number }> {
  if (!Number.isInteger(input.count) || input.count < 1) throw new BadRequestError(`Ask for at least one pair (count ${input.count}).`);
  const reviewersWanted = input.reviewersWanted ?? 2;
  if (!Number.isInteger(reviewersWanted) || reviewersWanted < 1) throw new BadRequestError(`Each pair needs at least one reviewer (reviewersWanted ${reviewersWanted}).`);
  const run = await runToDrawFrom(db, input.blueprintId, input.runId);
  const models = (await db.runModelSummary.findMany({ where: { runId: run.id }, select: { modelId: true, score: true }, orderBy: { modelId: 'asc' } })).map((m) => ({ modelId: m.modelId, score: m.score }));
  if (models.length < 2) throw new ConflictError(`Run ${run.id} scored ${models.length} model(s): comparing replies needs two.`);
  const replies = await comparableReplies(db, run, models.map((m) => m.modelId));
  const prompts = [...replies.keys()].sort();
  if (prompts.length === 0) throw new ConflictError(`Run ${run.id} has no prompt outside the sealed ones that every model answered: no pair can be drawn.`);
  const earlier = await db.pairItem.count({ where: { runId: run.id } });
  const seed = input.seed ?? hashSeed(`pairs:${run.id}:${earlier}`);
  const chosen = choosePairs({ models, prompts, count: input.count, seed });
  // a pair drawn before (same prompt, same two models) is not drawn again
  const existing = new Set((await db.pairItem.findMany({ where: { runId: run.id }, select: { promptKey: true, modelA: true, modelB: true } })).map((p) => pairKey(p.promptKey, p.modelA, p.modelB)));
  const fresh = chosen
    .map((p) => (p.modelA > p.modelB ? { ...p, modelA: p.modelB, modelB: p.modelA, scoreA: p.scoreB, scoreB: p.scoreA } : p))
    .filter((p) => !existing.has(pairKey(p.promptKey, p.modelA, p.modelB)));
  const last = await db.pairItem.aggregate({ where: { blueprintId: input.blueprintId }, _max: { position: true } });
  const base = (last._max.position ?? -1) + 1;
  const rows = fresh.flatMap((p) => {
    const replyA = replies.get(p.promptKey)?.get(p.modelA);
    const replyB = replies.get(p.promptKey)?.get(p.modelB);
    if (!replyA || !replyB) return [];
    const design = StoredPairDesignSchema.parse({ ranking: 'rubric', scoreA: p.scoreA, scoreB: p.scoreB, gap: p.gap, seed });
    return [{ blueprintId: input.blueprintId, runId: run.id, promptKey: p.promptKey, modelA: p.modelA, modelB: p.modelB, replyAId: replyA, replyBId: replyB, design: design as unknown as Prisma.InputJsonValue, reviewersWanted }];
  }).map((row, i) => ({ ...row, position: base + i }));
  if (rows.length === 0) return { drawn: 0 };
  // a pair drawn meanwhile by another draw is kept once (the unique key)
  const { count } = await db.pairItem.createMany({ data: rows, skipDuplicates: true });
  return { drawn: count };
}
