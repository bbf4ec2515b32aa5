/**
 * STAND-IN for the run pipeline's `requestRun` (lib/server/runs, being written): it does
 * only what the GitHub and admin use cases can observe — insert a queued `runs` row with the
 * budget, honour `skipIfIdentical` over an identity hash of version × models × repeats, and
 * hand the run id to the dispatcher. It resolves no collections and runs nothing. Used by
 * tests, and by lib/server/platform.ts until the real requestRun is wired there; delete it then.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../db/client';
import { NotFoundError } from '../http/errors';
import type { RequestRun, RunDispatcher } from '../runs/contracts';

export const standInRequestRun: RequestRun = async (db: Db, req, dispatcher) => {
  const blueprint = await db.blueprint.findUnique({ where: { id: req.blueprintId }, select: { latestVersionId: true } });
  const versionId = req.versionId ?? blueprint?.latestVersionId;
  if (!versionId) throw new NotFoundError(`Blueprint ${req.blueprintId} has no stored version to run.`);
  const version = await db.blueprintVersion.findUniqueOrThrow({ where: { id: versionId }, select: { sourceCommit: true, normalized: true } });
  const declared = ((version.normalized as { models?: { kind: string; id?: string; name?: string }[] } | null)?.models ?? []).map((m) => m.id ?? m.name ?? '?');
  const models = (req.models ?? declared).slice(0, req.budget?.maxModels ?? Infinity);
  const identityHash = createHash('sha256').update(JSON.stringify({ versionId, models, judges: req.judges ?? [], repeats: req.repeats ?? 1 })).digest('hex');
  if (req.skipIfIdentical) {
    const same = await db.run.findFirst({ where: { identityHash, status: { notIn: ['failed', 'cancelled'] } }, select: { id: true } });
    if (same) return { runId: same.id, identityHash, deduplicated: true };
  }
  const run = await db.run.create({
    data: {
      identityHash,
      blueprintId: req.blueprintId,
      versionId,
      sourceCommit: version.sourceCommit,
      trigger: req.trigger,
      models,
      judges: req.judges ?? [],
      config: { repeats: req.repeats ?? 1, bypassCache: req.bypassCache ?? false, maxPrompts: req.budget?.maxPrompts ?? null, standIn: true },
      pullRequestId: req.pullRequestId ?? null,
      createdById: req.createdById ?? null,
      maxCalls: req.budget?.maxCalls ?? null,
      maxCostUsd: req.budget?.maxCostUsd ?? null,
    },
    select: { id: true },
  });
  await dispatcher.dispatch(run.id);
  return { runId: run.id, identityHash, deduplicated: false };
};

/** STAND-IN dispatcher: records nothing and runs nothing; the run stays queued. */
export const standInDispatcher: RunDispatcher = {
  async dispatch(runId) {
    console.warn(`assay: run ${runId} is queued, but the run pipeline is not wired yet (lib/server/platform.ts uses a stand-in).`);
  },
};
