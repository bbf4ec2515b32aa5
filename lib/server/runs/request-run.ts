/**
 * Use case: request a run of a blueprint. Resolves the model set (ids, collections from the
 * blueprint's source, HTTP systems under test) and the judge panel, applies the budget's
 * caps, computes the run's identity, and hands the new run to a dispatcher (Inngest at
 * scale, the in-process runner locally). With `skipIfIdentical`, an identical run that is
 * complete or in progress is returned instead of a new one (schedules never repeat a run).
 */
import {
  BlueprintSchema,
  judgeModeFor,
  judgePanel,
  planGenerations,
  promptsToRun,
  RunModeSchema,
  runIdentity,
  type Blueprint,
  type RunSettings,
} from '@/lib/core';
import { type Prisma } from '@/generated/prisma/client';
import type { Db } from '../db/client';
import { PARSER_VERSION } from '../db/commands/store-blueprint-version';
import type { RunDispatcher, RunRequest, RequestedRun } from './contracts';
import { RunConfigError } from './engine/errors';
import { requestRetrievalRun } from './retrieval/request';
import { identicalRun } from './identical-run';
import { refuseUnpricedUnderCostCap } from './calls/unpriced-models';

export interface RunDefaults {
  /** The platform's judge panel (ASSAY_JUDGES). */
  judges: string[];
  /** Collection used when a blueprint names no models (Weval's CORE). */
  defaultCollection: string;
  judgeSamples: number;
}

async function resolveModels(db: Db, bp: Blueprint, sourceId: string, requested: string[] | undefined, defaults: RunDefaults) {
  const customModels: RunSettings['customModels'] = {};
  const ids: string[] = [];
  const expandCollection = async (name: string) => {
    // The blueprint's own source first (a repository's models/NAME.json), then any other.
    const c =
      (await db.modelCollection.findUnique({ where: { sourceId_name: { sourceId, name } }, select: { models: true } })) ??
      (await db.modelCollection.findFirst({ where: { name }, orderBy: { updatedAt: 'desc' }, select: { models: true } }));
    if (!c || !Array.isArray(c.models)) {
      throw new RunConfigError(`model collection "${name}" is not known: add models/${name}.json to the blueprint source and sync it`);
    }
    for (const m of c.models) if (typeof m === 'string') ids.push(m);
  };
  if (requested?.length) {
    for (const m of requested) {
      if (/^[A-Z][A-Z0-9_]*$/.test(m)) await expandCollection(m);
      else ids.push(m);
    }
  } else if (bp.models.length === 0) {
    await expandCollection(defaults.defaultCollection);
  } else {
    for (const m of bp.models) {
      if (m.kind === 'id') ids.push(m.id);
      else if (m.kind === 'collection') await expandCollection(m.name);
      else {
        ids.push(m.id);
        customModels[m.id] = m.spec;
      }
    }
  }
  const unique = [...new Set(ids)];
  if (unique.length === 0) throw new RunConfigError('the run has no models: name some with --models or in the blueprint’s `models`');
  return { models: unique, customModels };
}

export async function requestRun(db: Db, req: RunRequest, dispatcher: RunDispatcher, defaults: RunDefaults): Promise<RequestedRun> {
  const blueprint = await db.blueprint.findUnique({
    where: { id: req.blueprintId },
    select: { id: true, sourceId: true, latestVersionId: true },
  });
  if (!blueprint) throw new RunConfigError(`no blueprint with id "${req.blueprintId}"`);
  const versionId = req.versionId ?? blueprint.latestVersionId;
  if (!versionId) throw new RunConfigError(`blueprint "${req.blueprintId}" has no stored version`);
  const version = await db.blueprintVersion.findUnique({
    where: { id: versionId },
    select: { id: true, blueprintId: true, valid: true, normalized: true, contentHash: true, sourceCommit: true },
  });
  if (!version || version.blueprintId !== blueprint.id) throw new RunConfigError(`version ${versionId} is not a version of "${req.blueprintId}"`);
  if (!version.valid) throw new RunConfigError(`blueprint "${req.blueprintId}" does not validate at this version: fix its errors first`);
  const bp = BlueprintSchema.parse(version.normalized);
  if (bp.retrieval) {
    return requestRetrievalRun(db, req, { blueprintId: blueprint.id, version, block: bp.retrieval }, dispatcher, defaults.judgeSamples);
  }

  const { models, customModels } = await resolveModels(db, bp, blueprint.sourceId, req.models, defaults);
  const capped = req.budget?.maxModels ? models.slice(0, req.budget.maxModels) : models;
  const settings: RunSettings = {
    models: capped,
    judges: judgePanel(req.judges ?? null, bp, defaults.judges),
    repeats: req.repeats ?? null,
    maxPrompts: req.budget?.maxPrompts ?? null,
    judgeSamples: defaults.judgeSamples,
    ...(judgeModeFor(req.judgeMode, bp) === 'batched' ? { judgeMode: 'batched' as const } : {}),
    customModels: Object.fromEntries(Object.entries(customModels).filter(([id]) => capped.includes(id))),
  };
  // Before anything is stored: a cost cap with an unpriced model could not be kept (unpriced-models.ts).
  refuseUnpricedUnderCostCap(settings, req.budget?.maxCostUsd);
  const identityHash = runIdentity({ contentHash: version.contentHash, settings, parserVersion: PARSER_VERSION });

  if (req.skipIfIdentical) {
    const same = await identicalRun(db, identityHash);
    if (same) return { runId: same, identityHash, deduplicated: true };
  }

  const cells = planGenerations(bp, settings);
  const pointsByPrompt = new Map(promptsToRun(bp, settings).map((p) => [p.id, p.points.length]));
  const totalVerdicts = cells.reduce((n, c) => n + (pointsByPrompt.get(c.promptKey) ?? 0), 0);
  const run = await db.run.create({
    data: {
      identityHash,
      blueprintId: blueprint.id,
      versionId: version.id,
      sourceCommit: version.sourceCommit,
      trigger: req.trigger,
      models: settings.models,
      judges: settings.judges as unknown as Prisma.InputJsonValue,
      config: { settings, bypassCache: req.bypassCache ?? false, mode: RunModeSchema.parse(req.mode ?? 'live') } as unknown as Prisma.InputJsonValue,
      pullRequestId: req.pullRequestId ?? null,
      createdById: req.createdById ?? null,
      draft: req.draft ?? false,
      maxCalls: req.budget?.maxCalls ?? null,
      maxCostUsd: req.budget?.maxCostUsd ?? null,
      maxSandboxMs: req.budget?.maxSandboxSeconds ? Math.round(req.budget.maxSandboxSeconds * 1000) : null,
      totalCalls: cells.length,
      totalVerdicts,
    },
    select: { id: true },
  });
  await dispatcher.dispatch(run.id);
  return { runId: run.id, identityHash, deduplicated: false };
}
