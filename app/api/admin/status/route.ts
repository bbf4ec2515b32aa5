/** GET: sync status, job counts, costs and pending pull requests, for scripts (admin token or a maintainer's session). */
import { z } from 'zod';
import { route } from '@/lib/server/http';
import { adminOverview } from '@/lib/server/db/queries/admin-overview';
import { authenticateActor, githubServices } from '@/lib/server/platform';

export const dynamic = 'force-dynamic';

const Status = z.object({
  sources: z.array(z.object({ key: z.string(), kind: z.string(), blueprintCount: z.number(), lastSyncedSha: z.string().nullable(), lastSyncedAt: z.string().nullable(), lastSyncError: z.string().nullable() })),
  runsByStatus: z.record(z.string(), z.number()),
  failedSteps: z.number(),
  costs: z.array(z.object({ days: z.number(), costUsd: z.number(), runs: z.number() })),
  pullRequests: z.array(z.object({ number: z.number(), headSha: z.string(), author: z.string(), title: z.string(), state: z.string() })),
});

export const GET = route({ authenticate: authenticateActor, response: Status }, async () => {
  const o = await adminOverview(githubServices().db);
  return {
    sources: o.sources.map((s) => ({ key: s.key, kind: s.kind, blueprintCount: s.blueprintCount, lastSyncedSha: s.lastSyncedSha, lastSyncedAt: s.lastSyncedAt?.toISOString() ?? null, lastSyncError: s.lastSyncError })),
    runsByStatus: o.runsByStatus,
    failedSteps: o.failedSteps.length,
    costs: o.costs,
    pullRequests: o.pullRequests.map((p) => ({ number: p.number, headSha: p.headSha, author: p.author, title: p.title, state: p.state })),
  };
});
