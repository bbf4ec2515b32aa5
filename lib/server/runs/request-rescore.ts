/**
 * Use case: re-grade a run's stored replies with a changed rubric (another version of the
 * same blueprint, whose prompts keep their ids) or another judge panel, without calling the
 * models again. The result is a new run (trigger `rescore`) linked to the old one; its
 * verdicts point at the old run's replies.
 */
import { BlueprintSchema, judgePanel, runIdentity, replySourceOf, type RunSettings } from '@/lib/core';
import { type Prisma } from '@/generated/prisma/client';
import type { Db } from '../db/client';
import { PARSER_VERSION } from '../db/commands/store-blueprint-version';
import type { RunDispatcher, RequestedRun } from './contracts';
import { RunConfigError } from './engine/errors';
import type { RunDefaults } from './request-run';

export interface RescoreRequest {
  runId: string;
  /** A later version of the run's blueprint (the changed rubric); default: the run's own. */
  versionId?: string;
  /** A new judge panel (`model` or `model#approach`); default: the run's. */
  judges?: string[];
  createdById?: string;
}

export async function requestRescore(db: Db, req: RescoreRequest, dispatcher: RunDispatcher, defaults: RunDefaults): Promise<RequestedRun> {
  const parent = await db.run.findUnique({
    where: { id: req.runId },
    select: { id: true, blueprintId: true, versionId: true, config: true, trigger: true, parentRunId: true, sourceCommit: true, draft: true, createdById: true },
  });
  if (!parent) throw new RunConfigError(`no run with id ${req.runId}`);
  // Rescoring a rescore grades the same original replies.
  const replyRunId = replySourceOf(parent);
  const versionId = req.versionId ?? parent.versionId;
  const version = await db.blueprintVersion.findUnique({ where: { id: versionId }, select: { blueprintId: true, valid: true, normalized: true, contentHash: true, sourceCommit: true } });
  if (!version || version.blueprintId !== parent.blueprintId) throw new RunConfigError(`version ${versionId} is not a version of the run's blueprint "${parent.blueprintId}"`);
  if (!version.valid) throw new RunConfigError('that blueprint version does not validate');
  const bp = BlueprintSchema.parse(version.normalized);
  const old = (parent.config as { settings: RunSettings }).settings;
  const settings: RunSettings = { ...old, judges: req.judges ? judgePanel(req.judges, bp, defaults.judges) : old.judges };

  const replies = await db.reply.groupBy({ by: ['promptKey'], where: { runId: replyRunId }, _count: { _all: true } });
  const keys = new Set(bp.prompts.map((p) => p.id));
  const graded = replies.filter((r) => keys.has(r.promptKey));
  if (graded.length === 0) throw new RunConfigError('none of the run’s replies belongs to a prompt of that version: nothing to rescore');
  const points = new Map(bp.prompts.map((p) => [p.id, p.points.length]));
  const totalCalls = graded.reduce((n, r) => n + r._count._all, 0);
  const totalVerdicts = graded.reduce((n, r) => n + r._count._all * (points.get(r.promptKey) ?? 0), 0);

  const identityHash = runIdentity({ contentHash: `${version.contentHash}|rescore:${replyRunId}`, settings, parserVersion: PARSER_VERSION });
  const run = await db.run.create({
    data: {
      identityHash,
      blueprintId: parent.blueprintId,
      versionId,
      sourceCommit: version.sourceCommit,
      trigger: 'rescore',
      parentRunId: replyRunId,
      models: settings.models,
      judges: settings.judges as unknown as Prisma.InputJsonValue,
      config: { settings, bypassCache: false } as unknown as Prisma.InputJsonValue,
      // a rescore of a draft (try-it) run stays a draft of the same author: private, unpublished, on their budget
      createdById: parent.draft ? parent.createdById : (req.createdById ?? null),
      draft: parent.draft,
      totalCalls,
      totalVerdicts,
    },
    select: { id: true },
  });
  await dispatcher.dispatch(run.id);
  return { runId: run.id, identityHash, deduplicated: false };
}
