/**
 * Drawing a run's judged verdicts for people to label (lib/core review-design.ts says how): every
 * judged verdict of the run that is not already drawn is a candidate, each gets its inclusion
 * probability from the judges' uncertainty and the panel's disagreement, and the draw is stored
 * with its design and seed, so the weights the estimates need (1/π) and the draw itself can be
 * checked later. Sealed prompts are never candidates: their verdicts are filtered out in SQL, and
 * their questions are not even read.
 */
import { xoroshiro128plus } from 'pure-rand';
import {
  DEFAULT_REVIEW_DESIGN,
  drawForReview,
  hashSeed,
  parseStored,
  questionValue,
  StoredDistributionSchema,
  StoredReviewDesignSchema,
  uncertaintyOf,
  type ReviewCandidate,
  type StoredReviewDesign,
} from '@/lib/core';
import type { Prisma } from '@/generated/prisma/client';
import type { Db } from '../db/client';
import { notSealedIn } from '../db/queries/sealed';
import { BadRequestError, ConflictError } from '../http/errors';
import { runToDrawFrom, type DrawRun } from './draw-run';
import { judgeQuestionOf, visiblePoints } from './judged-point';
import { seededOrder } from './order';

/** The design when the admin gives none: 200 labels expected, half of them drawn uniformly, the first 100 items to two reviewers. */
export const DEFAULT_DRAW_DESIGN: Omit<StoredReviewDesign, 'seed'> = {
  ...DEFAULT_REVIEW_DESIGN,
  overlapItems: 100,
  overlapReviewers: 2,
  otherReviewers: 1,
};

export type ReviewStratum = 'uniform' | 'uncertain' | 'disputed';

/** Why an item was likely to be drawn, for the admin's view (its π is what the estimates use). */
export function stratumOf(candidate: ReviewCandidate): ReviewStratum {
  if (candidate.disagreement) return 'disputed';
  return uncertaintyOf(candidate.probability) >= 0.5 ? 'uncertain' : 'uniform';
}

/** A candidate: a judged verdict of the run, with what the design weighs. */
export interface DrawCandidate extends ReviewCandidate {
  promptKey: string;
  modelId: string;
  pointIndex: number;
}

interface CandidateRow {
  id: string;
  promptKey: string;
  modelId: string;
  pointIndex: number;
  distribution: unknown;
  disagreement: boolean;
}

/**
 * The run's judged verdicts that may be drawn: judged points (kind text or question) with a
 * pass or fail and the panel's distribution, of prompts not sealed in the run's version, not
 * drawn before (a rescore's prompt sealed in the version whose replies it re-graded is left out too). In a fixed order (prompt, model, reply, point), so a seed gives one draw.
 * `probability` is the panel's value of the question before any should_not inversion: the
 * judges' belief that what the question asks about is there, which is what their uncertainty is about.
 */
export async function drawCandidates(db: Db, run: DrawRun): Promise<DrawCandidate[]> {
  const rows = await db.$queryRaw<CandidateRow[]>`
    SELECT v.id, v.prompt_key AS "promptKey", v.model_id AS "modelId", v.point_index AS "pointIndex", v.distribution, v.disagreement
    FROM verdicts v
    WHERE v.run_id = ${run.id}
      AND v.kind IN ('text', 'question')
      AND v.status IN ('pass', 'fail')
      AND v.distribution IS NOT NULL
      AND ${notSealedIn(run.versionId, 'v.prompt_key')}
      AND ${notSealedIn(run.replyVersionId, 'v.prompt_key')}
      AND NOT EXISTS (SELECT 1 FROM review_items ri WHERE ri.verdict_id = v.id)
    ORDER BY v.prompt_key, v.model_id, v.reply_id, v.point_index`;
  const points = await visiblePoints(db, run.versionId, rows.map((r) => r.promptKey));
  const out: DrawCandidate[] = [];
  for (const r of rows) {
    // a prompt missing here is sealed (or gone): never a candidate, whatever the SQL above let through
    const question = judgeQuestionOf(points.get(r.promptKey)?.[r.pointIndex]);
    if (!question) continue;
    const distribution = parseStored(StoredDistributionSchema, r.distribution, `verdicts ${r.id}.distribution`);
    const value = questionValue(question, distribution);
    // a pass or fail always had a value; a row that does not is left out rather than given a made-up one
    if (!('applicable' in value) || !value.applicable) continue;
    out.push({ id: r.id, promptKey: r.promptKey, modelId: r.modelId, pointIndex: r.pointIndex, probability: Math.min(1, Math.max(0, value.value)), disagreement: r.disagreement });
  }
  return out;
}

export interface DrawReviewItemsInput {
  blueprintId: string;
  runId?: string;
  design?: Partial<StoredReviewDesign>;
  seed?: number;
  /** Who drew (a login, or ~admin for the admin token). */
  by: string;
}

export async function drawReviewItems(db: Db, input: DrawReviewItemsInput): Promise<{ drawId: string; runId: string; candidates: number; drawn: number }> {
  const run = await runToDrawFrom(db, input.blueprintId, input.runId);
  const previousDraws = await db.reviewDraw.count({ where: { runId: run.id } });
  // deterministic unless a seed is given: the same run and the same number of earlier draws give the same draw
  const seed = input.seed ?? input.design?.seed ?? hashSeed(`review:${run.id}:${previousDraws}`);
  const parsed = StoredReviewDesignSchema.safeParse({ ...DEFAULT_DRAW_DESIGN, ...input.design, seed });
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new BadRequestError(`The review design is not valid: ${first ? `${first.path.join('.')}: ${first.message}` : 'see details'}.`, { issues: parsed.error.issues });
  }
  const design = parsed.data;
  const candidates = await drawCandidates(db, run);
  if (candidates.length === 0) {
    throw new ConflictError(`Run ${run.id} has no judged verdicts left to draw (judged points with a pass or fail, outside sealed prompts, not drawn before).`);
  }
  const drawn = drawForReview(candidates, xoroshiro128plus(design.seed), design);
  const byId = new Map(candidates.map((c) => [c.id, c]));
  // the draw's own random order (another stream of the same seed), after every earlier item of the blueprint
  const order = seededOrder(drawn.length, hashSeed('order', design.seed));
  const last = await db.reviewItem.aggregate({ where: { blueprintId: input.blueprintId }, _max: { position: true } });
  const base = (last._max.position ?? -1) + 1;

  return db.$transaction(async (tx) => {
    const draw = await tx.reviewDraw.create({
      data: { blueprintId: input.blueprintId, runId: run.id, design: design as unknown as Prisma.InputJsonValue, candidates: candidates.length, drawn: 0, createdBy: input.by },
      select: { id: true },
    });
    const rows = order.map((k, rank) => {
      const d = drawn[k]!;
      const c = byId.get(d.id)!;
      return {
        drawId: draw.id,
        blueprintId: input.blueprintId,
        runId: run.id,
        verdictId: c.id,
        promptKey: c.promptKey,
        modelId: c.modelId,
        pointIndex: c.pointIndex,
        inclusion: d.inclusion,
        stratum: stratumOf(c),
        reviewersWanted: rank < design.overlapItems ? design.overlapReviewers : design.otherReviewers,
        position: base + rank,
      };
    });
    // a verdict drawn meanwhile by another draw keeps its first item (verdict_id is unique)
    const { count } = await tx.reviewItem.createMany({ data: rows, skipDuplicates: true });
    await tx.reviewDraw.update({ where: { id: draw.id }, data: { drawn: count } });
    return { drawId: draw.id, runId: run.id, candidates: candidates.length, drawn: count };
  });
}
