/**
 * A blueprint's run history (newest first, a page at a time), each completed run's model
 * scores for the trend chart, and the latest completed run's ranking.
 */
import { storedInterval } from '../stored-interval';
import type { Db } from '../client';
import { runListRowSelect } from './run-select';
import { withLiveVerdictCounts } from '../verdict-counts';

export async function getBlueprintRuns(db: Db, blueprintId: string, opts: { limit?: number } = {}) {
  const read = await db.run.findMany({
    where: { blueprintId },
    orderBy: { createdAt: 'desc' },
    take: opts.limit ?? 30,
    select: {
      id: true,
      status: true,
      trigger: true,
      // the public API leaves draft (try-it) runs out; the page shows them to their author
      draft: true,
      versionId: true,
      sourceCommit: true,
      ...runListRowSelect,
      costUsd: true,
    },
  });
  const runs = await withLiveVerdictCounts(db, read);
  const completed = runs.filter((r) => r.status === 'completed').map((r) => r.id);
  const scores =
    completed.length === 0
      ? []
      : await db.runModelSummary.findMany({
          where: { runId: { in: completed } },
          select: { runId: true, modelId: true, score: true, ciLow: true, ciHigh: true, errorCount: true, ciMethod: true, ciLevel: true, ciN: true, ciClusters: true, ciResamples: true },
          take: 20_000,
        });
  return { runs, scores: scores.map(({ ciMethod, ciLevel, ciN, ciClusters, ciResamples, ...s }) => ({ ...s, interval: storedInterval({ ...s, ciMethod, ciLevel, ciN, ciClusters, ciResamples }) })), latestCompletedRunId: completed[0] ?? null };
}
export type BlueprintRuns = Awaited<ReturnType<typeof getBlueprintRuns>>;
