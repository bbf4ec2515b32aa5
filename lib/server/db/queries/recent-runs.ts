/** The home page's recent runs across every blueprint (index on runs.created_at). */
import type { Db } from '../client';
import { runListRowSelect } from './run-select';
import { withLiveVerdictCounts } from '../verdict-counts';

export async function listRecentRuns(db: Db, limit = 8) {
  const runs = await db.run.findMany({
    // an author's draft (try-it) run is seen only by its author and maintainers
    where: { draft: false },
    orderBy: { createdAt: 'desc' },
    take: limit,
    select: {
      id: true,
      status: true,
      trigger: true,
      kind: true,
      ...runListRowSelect,
      models: true,
      blueprint: { select: { id: true, title: true } },
    },
  });
  return withLiveVerdictCounts(db, runs);
}
export type RecentRun = Awaited<ReturnType<typeof listRecentRuns>>[number];
