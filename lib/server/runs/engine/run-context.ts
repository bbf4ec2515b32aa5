/**
 * Everything a step needs to know about a run, loaded once per process and cached: the run
 * row, its blueprint (the stored normalised form, validated again with the schema), the
 * settings, and the prompts by key. A step never loads more than this plus its own rows.
 */
import { BlueprintSchema, RunSettingsSchema, runModeOf, type Blueprint, type Prompt, replySourceOf, type RunMode, type RunSettings } from '@/lib/core';
import type { Db } from '../../db/client';
import { RunNotFoundError, RunConfigError } from './errors';

export interface RunContext {
  runId: string;
  blueprintId: string;
  versionId: string;
  blueprint: Blueprint;
  /** The blueprint file's path in its source (files it names, such as a `corpus:`, are beside it). */
  blueprintPath: string;
  settings: RunSettings;
  prompts: Map<string, Prompt>;
  /**
   * Set when the run bypasses the cache (`--no-cache`, scheduled re-runs: drift is real): the
   * gateway then reads no cache entry at all, so not even an identical call of this run is reused.
   */
  cacheNotBefore: Date | null;
  /** For a rescore: the run whose replies are graded. */
  replySourceRunId: string;
  /** `batch`: calls go through the providers' batch APIs where they have one (batch-steps.ts). */
  mode: RunMode;
  /** A draft (try-it) run's author: each provider call also reserves one call of their day (author-budget.ts). */
  draftAuthorId?: string | null;
  /**
   * Set by the in-process runner for one execution (never cached): the lease it holds, which
   * every provider call checks in the same statement that reserves the call, and the run's
   * deadline, whose abort stops calls in flight.
   */
  leaseHolder?: string;
  signal?: AbortSignal;
}

const cache = new Map<string, RunContext>();

export async function loadRunContext(db: Db, runId: string): Promise<RunContext> {
  const hit = cache.get(runId);
  if (hit) return hit;
  const run = await db.run.findUnique({
    where: { id: runId },
    select: { id: true, blueprintId: true, versionId: true, config: true, parentRunId: true, trigger: true, createdAt: true, draft: true, createdById: true, version: { select: { normalized: true, path: true } } },
  });
  if (!run) throw new RunNotFoundError(runId);
  const bp = BlueprintSchema.safeParse(run.version.normalized);
  if (!bp.success) throw new RunConfigError(`run ${runId}: its blueprint version is not valid (${bp.error.issues[0]?.message ?? 'no normalised form'})`);
  const config = run.config as { settings?: unknown; bypassCache?: boolean };
  const settings = RunSettingsSchema.safeParse(config.settings);
  if (!settings.success) throw new RunConfigError(`run ${runId}: stored settings are invalid: ${settings.error.issues[0]?.message}`);
  const ctx: RunContext = {
    runId,
    blueprintId: run.blueprintId,
    versionId: run.versionId,
    blueprint: bp.data,
    blueprintPath: run.version.path,
    settings: settings.data,
    prompts: new Map(bp.data.prompts.map((p) => [p.id, p])),
    cacheNotBefore: config.bypassCache ? run.createdAt : null,
    replySourceRunId: replySourceOf(run),
    mode: runModeOf(config),
    draftAuthorId: run.draft ? run.createdById : null,
  };
  cache.set(runId, ctx);
  return ctx;
}

/** Tests and long-lived workers drop a finished run's context. */
export function forgetRunContext(runId: string): void {
  cache.delete(runId);
}
