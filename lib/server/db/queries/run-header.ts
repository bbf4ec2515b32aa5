/**
 * The run every drill-down page starts from: does it exist (a 404 otherwise, decided before
 * streaming), its blueprint, version and state, and the other runs of the same blueprint
 * (the diff picker), its judge panel and graded models, its coverage (summed over its model
 * summaries), what batch mode saved it (when it ran in batch mode), and its rescore links: the run it re-graded and the rescores of it. Small and
 * indexed: the pages' sections stream after it.
 */
import type { Db } from '../client';
import { batchSavings } from './batch-savings';
import { runCountersSelect } from './run-select';
import { withLiveVerdictCount } from '../verdict-counts';
import { redactStored, storedTextRedactor } from './redact-stored';
import { unpricedOfStoredRun } from './run-unpriced';
import { getRunJudgeMethods } from './run-judge-methods';
import { liveWaits, runWaitsSelect } from './run-waits';

export async function getRunHeader(db: Db, runId: string) {
  const read = await db.run.findUnique({
    where: { id: runId },
    select: {
      id: true,
      kind: true,
      status: true,
      trigger: true,
      draft: true,
      createdById: true,
      versionId: true,
      sourceCommit: true,
      createdAt: true,
      startedAt: true,
      finishedAt: true,
      ...runCountersSelect,
      parentRunId: true,
      models: true,
      judges: true,
      config: true,
      parentRun: { select: { id: true, createdAt: true, status: true } },
      rescores: { orderBy: { createdAt: 'desc' }, take: 20, select: { id: true, createdAt: true, status: true } },
      blueprint: { select: { id: true, title: true, path: true, source: { select: { kind: true, owner: true, repo: true } } } },
      ...runWaitsSelect,
    },
  });
  if (!read) return null;
  const run = await withLiveVerdictCount(db, read);
  const siblings = await db.run.findMany({
    where: { blueprintId: run.blueprint.id, id: { not: run.id }, status: 'completed' },
    orderBy: { createdAt: 'desc' },
    take: 20,
    select: { id: true, createdAt: true, sourceCommit: true },
  });
  const { config, waits, ...fields } = run;
  // the mode and what batch mode saved (read from batch_results: a live run has none)
  const batch = await batchSavings(db, runId, config);
  const c = await db.runModelSummary.aggregate({
    where: { runId },
    _sum: { judgedVerdicts: true, judgedScored: true, deterministicVerdicts: true, deterministicScored: true },
  });
  const coverage = {
    judgedVerdicts: c._sum.judgedVerdicts ?? 0,
    judgedScored: c._sum.judgedScored ?? 0,
    deterministicVerdicts: c._sum.deterministicVerdicts ?? 0,
    deterministicScored: c._sum.deterministicScored ?? 0,
  };
  // calls to these are not in costUsd: the page says the cost is unknown for them (run-unpriced.ts)
  const unpricedModels = await unpricedOfStoredRun(db, run);
  // how each judge's answers were read (log-probabilities, or samples and why): the judges line says so
  const judgeMethods = await getRunJudgeMethods(db, runId);
  // a failure message stored before redaction existed may quote a key (redact-stored.ts)
  // why a working run waits and until when (run-waits.ts): the header says it on every run page
  return { ...fields, error: redactStored(run.error, storedTextRedactor()), siblings, coverage, batch, unpricedModels, judgeMethods, waits: liveWaits(run.status, waits) };
}
export type RunHeader = NonNullable<Awaited<ReturnType<typeof getRunHeader>>>;
