/**
 * POST {blueprintId, kind: verdicts | pairs, runId?, expectedLabels?, overlapItems?, count?}: a
 * maintainer draws a run's judged verdicts for people to label, or pairs of replies to compare
 * (default: the blueprint's latest completed run).
 */
import { z } from 'zod';
import { isFormPost, route } from '@/lib/server/http';
import { adminNotice, BlueprintIdField, drawPairs, drawReviewItems, optionalInt, optionalText, ReviewQueueKindSchema, reviewAdminActor } from '@/lib/server/human';
import { authenticateActor, getDb } from '@/lib/server/platform';

export const dynamic = 'force-dynamic';

/** Pairs drawn when the form does not say: enough for a first ranking of a few close models. */
const DEFAULT_PAIR_COUNT = 20;

export const POST = route(
  {
    authenticate: authenticateActor,
    body: z.object({
      blueprintId: BlueprintIdField,
      kind: ReviewQueueKindSchema,
      runId: optionalText(200),
      expectedLabels: optionalInt(1, 100_000),
      overlapItems: optionalInt(0, 100_000),
      count: optionalInt(1, 10_000),
    }),
    response: z.object({ kind: ReviewQueueKindSchema, runId: z.string().nullable(), candidates: z.number().nullable(), drawn: z.number() }),
    status: 201,
    formErrorsTo: '/admin',
  },
  async ({ principal, body, request }) => {
    const db = getDb();
    const by = await reviewAdminActor(db, principal);
    if (body.kind === 'pairs') {
      const { drawn } = await drawPairs(db, { blueprintId: body.blueprintId, runId: body.runId, count: body.count ?? DEFAULT_PAIR_COUNT, by });
      if (isFormPost(request)) return adminNotice(`Drew ${drawn} pair(s) of replies to compare on ${body.blueprintId}.`);
      return { kind: body.kind, runId: body.runId ?? null, candidates: null, drawn };
    }
    const design = { ...(body.expectedLabels === undefined ? {} : { expectedLabels: body.expectedLabels }), ...(body.overlapItems === undefined ? {} : { overlapItems: body.overlapItems }) };
    const draw = await drawReviewItems(db, { blueprintId: body.blueprintId, runId: body.runId, design, by });
    if (isFormPost(request)) return adminNotice(`Drew ${draw.drawn} of ${draw.candidates} judged verdicts of run ${draw.runId} for review on ${body.blueprintId}.`);
    return { kind: body.kind, runId: draw.runId, candidates: draw.candidates, drawn: draw.drawn };
  },
);
