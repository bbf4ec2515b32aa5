/**
 * Use case: request a retrieval run (requestRun hands a blueprint with a `retrieval:` block
 * here). The run reads the data files its version was last synced with; its identity is the
 * blueprint's content, the files' content, the models and the search depth. Its counters are
 * texts to embed (calls: every document and query per model) and queries to score (verdicts).
 */
import { RETRIEVAL_BATCH_TEXTS, retrievalRunIdentity, searchDepth, type RetrievalBlock, type RetrievalRunSettings, type RunSettings } from '@/lib/core';
import type { Prisma } from '@/generated/prisma/client';
import type { Db } from '../../db/client';
import { PARSER_VERSION } from '../../db/commands/store-blueprint-version';
import type { RequestedRun, RunDispatcher, RunRequest } from '../contracts';
import { RunConfigError } from '../engine/errors';
import { versionRetrievalData } from '../../db/queries/retrieval-dataset';
import { identicalRun } from '../identical-run';

export interface RetrievalRunTarget {
  blueprintId: string;
  version: { id: string; contentHash: string; sourceCommit: string | null };
  block: RetrievalBlock;
}

export async function requestRetrievalRun(db: Db, req: RunRequest, target: RetrievalRunTarget, dispatcher: RunDispatcher, judgeSamples: number): Promise<RequestedRun> {
  const data = await versionRetrievalData(db, target.version.id);
  if (!data.ok) throw new RunConfigError(`retrieval blueprint "${target.blueprintId}" has no data to run on:\n${data.issues.join('\n')}`);
  const requested = req.models?.length ? req.models : target.block.models.map((m) => m.id);
  const models = [...new Set(requested)].slice(0, req.budget?.maxModels ?? undefined);
  if (models.length === 0) throw new RunConfigError('the retrieval run has no embedding models: name some with --models or in the block’s `models`');

  const retrieval: RetrievalRunSettings = {
    datasetId: data.datasetId,
    dataHash: data.contentHash,
    depth: searchDepth(target.block.metrics, data.docCount),
    batchTexts: RETRIEVAL_BATCH_TEXTS,
  };
  // The chat settings' shape (no judges, prompts or repeats), so every reader of runs.config reads it.
  const settings: RunSettings = { models, judges: [], repeats: null, maxPrompts: null, judgeSamples, customModels: {} };
  const identityHash = retrievalRunIdentity({ contentHash: target.version.contentHash, dataHash: data.contentHash, models, depth: retrieval.depth, parserVersion: PARSER_VERSION });

  if (req.skipIfIdentical) {
    const same = await identicalRun(db, identityHash);
    if (same) return { runId: same, identityHash, deduplicated: true };
  }

  const run = await db.run.create({
    data: {
      identityHash,
      kind: 'retrieval',
      blueprintId: target.blueprintId,
      versionId: target.version.id,
      sourceCommit: target.version.sourceCommit,
      trigger: req.trigger,
      models,
      judges: [],
      config: { settings, retrieval, bypassCache: req.bypassCache ?? false } as unknown as Prisma.InputJsonValue,
      pullRequestId: req.pullRequestId ?? null,
      createdById: req.createdById ?? null,
      maxCalls: req.budget?.maxCalls ?? null,
      maxCostUsd: req.budget?.maxCostUsd ?? null,
      totalCalls: models.length * (data.docCount + data.queryCount),
      totalVerdicts: models.length * data.queryCount,
    },
    select: { id: true },
  });
  await dispatcher.dispatch(run.id);
  return { runId: run.id, identityHash, deduplicated: false };
}
