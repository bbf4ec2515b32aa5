/** The home page's recent runs across every blueprint (index on runs.created_at). */
import type { Db } from '../client';

export async function listRecentRuns(db: Db, limit = 8) {
  return db.run.findMany({
    orderBy: { createdAt: 'desc' },
    take: limit,
    select: {
      id: true,
      status: true,
      trigger: true,
      createdAt: true,
      finishedAt: true,
      totalCalls: true,
      doneCalls: true,
      errorCalls: true,
      errorVerdicts: true,
      models: true,
      blueprint: { select: { id: true, title: true } },
    },
  });
}
export type RecentRun = Awaited<ReturnType<typeof listRecentRuns>>[number];
