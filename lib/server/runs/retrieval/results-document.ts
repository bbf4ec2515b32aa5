/** A retrieval run's results as one document (`assay run --json` on a retrieval blueprint). */
import type { Db } from '../../db/client';
import { getRetrievalRunResults } from '../../db/queries/retrieval-results';

export async function retrievalResultsDocument(db: Db, runId: string) {
  const [run, results] = await Promise.all([
    db.run.findUniqueOrThrow({
      where: { id: runId },
      select: { id: true, blueprintId: true, status: true, identityHash: true, error: true, totalCalls: true, doneCalls: true, errorCalls: true, totalVerdicts: true, doneVerdicts: true, providerCalls: true, costUsd: true, startedAt: true, finishedAt: true },
    }),
    getRetrievalRunResults(db, runId),
  ]);
  if (!results) throw new Error(`run ${runId} is not a retrieval run`);
  return {
    run: {
      id: run.id,
      kind: 'retrieval' as const,
      blueprintId: run.blueprintId,
      status: run.status,
      identityHash: run.identityHash,
      error: run.error,
      texts: { done: run.doneCalls, total: run.totalCalls, errors: run.errorCalls },
      queries: { done: run.doneVerdicts, total: run.totalVerdicts },
      providerCalls: run.providerCalls,
      costUsd: run.costUsd,
      startedAt: run.startedAt?.toISOString() ?? null,
      finishedAt: run.finishedAt?.toISOString() ?? null,
    },
    primaryMetric: results.primaryMetric,
    models: results.models,
  };
}

export type RetrievalRunDocument = Awaited<ReturnType<typeof retrievalResultsDocument>>;
