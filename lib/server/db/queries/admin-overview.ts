/**
 * The admin page's data, one module per view (so no page writes its own queries): sync status, jobs and their
 * failures, costs, pull requests waiting for approval, and the blueprints a run can be
 * triggered for. Aggregates are computed by the database, never by loading runs.
 */
import type { Db } from '../client';

const DAY = 86_400_000;

export async function adminOverview(db: Db, now = new Date()) {
  const [sources, syncs, runsByStatus, recentRuns, failedSteps, pullRequests, blueprints, costs] = await Promise.all([
    db.blueprintSource.findMany({
      orderBy: { key: 'asc' },
      select: { id: true, key: true, kind: true, lastSyncedSha: true, lastSyncedAt: true, lastSyncError: true, _count: { select: { blueprints: { where: { removedAt: null } } } } },
    }),
    db.syncRecord.findMany({
      orderBy: { startedAt: 'desc' },
      take: 10,
      select: { id: true, trigger: true, status: true, commitSha: true, added: true, changed: true, removed: true, unchanged: true, invalid: true, blobsFetched: true, error: true, startedAt: true, finishedAt: true },
    }),
    db.run.groupBy({ by: ['status'], _count: { _all: true } }),
    db.run.findMany({
      orderBy: { createdAt: 'desc' },
      take: 20,
      select: { id: true, blueprintId: true, status: true, trigger: true, error: true, costUsd: true, doneCalls: true, totalCalls: true, errorCalls: true, createdAt: true, pullRequest: { select: { number: true } } },
    }),
    db.jobStep.findMany({
      where: { status: 'failed' },
      orderBy: { startedAt: 'desc' },
      take: 10,
      select: { key: true, function: true, runId: true, attempts: true, error: true, startedAt: true },
    }),
    db.pullRequest.findMany({
      where: { state: { in: ['awaiting_approval', 'invalid', 'approved', 'running', 'validating'] } },
      orderBy: { updatedAt: 'desc' },
      take: 20,
      select: { id: true, number: true, headSha: true, author: true, title: true, state: true, approvedBy: true, updatedAt: true },
    }),
    db.blueprint.findMany({ where: { removedAt: null }, orderBy: { id: 'asc' }, select: { id: true, title: true } }),
    Promise.all(
      [1, 7, 30].map(async (days) => {
        const r = await db.run.aggregate({ where: { createdAt: { gte: new Date(now.getTime() - days * DAY) } }, _sum: { costUsd: true }, _count: { _all: true } });
        return { days, costUsd: r._sum.costUsd ?? 0, runs: r._count._all };
      }),
    ),
  ]);
  const costByTrigger = await db.run.groupBy({
    by: ['trigger'],
    where: { createdAt: { gte: new Date(now.getTime() - 30 * DAY) } },
    _sum: { costUsd: true },
    _count: { _all: true },
    orderBy: { trigger: 'asc' },
  });
  return {
    sources: sources.map(({ _count, ...s }) => ({ ...s, blueprintCount: _count.blueprints })),
    syncs,
    runsByStatus: Object.fromEntries(runsByStatus.map((r) => [r.status, r._count._all])) as Record<string, number>,
    recentRuns: recentRuns.map(({ pullRequest, ...r }) => ({ ...r, pullRequestNumber: pullRequest?.number ?? null })),
    failedSteps,
    pullRequests,
    blueprints,
    costs,
    costByTrigger: costByTrigger.map((c) => ({ trigger: c.trigger, costUsd: c._sum.costUsd ?? 0, runs: c._count._all })),
  };
}

export type AdminOverview = Awaited<ReturnType<typeof adminOverview>>;
