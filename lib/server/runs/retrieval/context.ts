/**
 * Everything a retrieval step needs about its run, loaded once per process and cached (as
 * run-context.ts does for chat runs): the block (from the stored normalised blueprint), the
 * run's models and retrieval settings, and the dataset with its qrels.
 */
import { BlueprintSchema, RetrievalRunSettingsSchema, RunSettingsSchema, type RetrievalBlock, type RetrievalRunSettings, type RetrievalData } from '@/lib/core';
import type { Db } from '../../db/client';
import { RunConfigError, RunNotFoundError } from '../engine/errors';
import { loadDataset } from '../../db/queries/retrieval-dataset';

export interface RetrievalContext {
  runId: string;
  blueprintId: string;
  versionId: string;
  /** The run's identity: the seed of its intervals, so identical runs give identical intervals. */
  identityHash: string;
  block: RetrievalBlock;
  models: string[];
  settings: RetrievalRunSettings;
  data: RetrievalData;
  /** Set by the in-process runner for one execution (never cached): its lease and its deadline's signal. */
  leaseHolder?: string;
  signal?: AbortSignal;
}

const cache = new Map<string, RetrievalContext>();

/** Whether a run is a retrieval run (schedulers branch on it before loading anything else). */
export async function isRetrievalRun(db: Db, runId: string): Promise<boolean> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { kind: true } });
  if (!run) throw new RunNotFoundError(runId);
  return run.kind === 'retrieval';
}

export async function loadRetrievalContext(db: Db, runId: string): Promise<RetrievalContext> {
  const hit = cache.get(runId);
  if (hit) return hit;
  const run = await db.run.findUnique({ where: { id: runId }, select: { blueprintId: true, versionId: true, identityHash: true, config: true, version: { select: { normalized: true } } } });
  if (!run) throw new RunNotFoundError(runId);
  const bp = BlueprintSchema.safeParse(run.version.normalized);
  if (!bp.success || !bp.data.retrieval) throw new RunConfigError(`run ${runId}: its blueprint version is not a valid retrieval blueprint`);
  const config = run.config as { settings?: unknown; retrieval?: unknown };
  const settings = RunSettingsSchema.safeParse(config.settings);
  const retrieval = RetrievalRunSettingsSchema.safeParse(config.retrieval);
  if (!settings.success || !retrieval.success) throw new RunConfigError(`run ${runId}: stored retrieval settings are invalid: ${(settings.error ?? retrieval.error)?.issues[0]?.message}`);
  const ctx: RetrievalContext = {
    runId,
    blueprintId: run.blueprintId,
    versionId: run.versionId,
    identityHash: run.identityHash,
    block: bp.data.retrieval,
    models: settings.data.models,
    settings: retrieval.data,
    data: await loadDataset(db, retrieval.data.datasetId),
  };
  cache.set(runId, ctx);
  return ctx;
}

export function forgetRetrievalContext(runId: string): void {
  cache.delete(runId);
}
