import { describe, expect, it } from 'vitest';
import { adminView, ago, money } from './admin-view';
import type { AdminOverview } from '@/lib/server/db/queries/admin-overview';

const now = new Date('2025-06-01T12:00:00Z');
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);

describe('admin view model', () => {
  it('formats money and ages for people', () => {
    expect([money(0), money(0.00123), money(2.5), money(1234.4)]).toEqual(['$0', '$0.0012', '$2.50', '$1234']);
    expect([ago(null, now), ago(minutesAgo(0.5), now), ago(minutesAgo(5), now), ago(minutesAgo(180), now), ago(minutesAgo(3 * 1440), now)]).toEqual(['never', '30 s ago', '5 min ago', '3 h ago', '3 d ago']);
  });

  it('marks failures, labels PR runs, and offers approval only for pull requests awaiting it', () => {
    const o: AdminOverview = {
      sources: [{ id: 's', key: 'github:o/r@main', kind: 'github', lastSyncedSha: 'abcdef0123', lastSyncedAt: minutesAgo(2), lastSyncError: null, blueprintCount: 196 }],
      syncs: [{ id: 'y', trigger: 'webhook', status: 'failed', commitSha: null, added: 0, changed: 0, removed: 0, unchanged: 0, invalid: 0, blobsFetched: 0, error: 'boom', startedAt: minutesAgo(1), finishedAt: minutesAgo(1) }],
      runsByStatus: { queued: 2, failed: 1 },
      recentRuns: [{ id: 'r1', blueprintId: 'b', status: 'failed', trigger: 'pull_request', error: 'budget', costUsd: 0.5, doneCalls: 3, totalCalls: 10, errorCalls: 2, createdAt: minutesAgo(10), pullRequestNumber: 7 }],
      failedSteps: [],
      pullRequests: [
        { id: 'p1', number: 7, headSha: '1234567890', author: 'al', title: 'T', state: 'awaiting_approval', approvedBy: null, updatedAt: now },
        { id: 'p2', number: 8, headSha: '0987654321', author: 'al', title: 'U', state: 'invalid', approvedBy: null, updatedAt: now },
      ],
      blueprints: [{ id: 'b', title: 'B' }],
      costs: [{ days: 1, costUsd: 0.5, runs: 1 }],
      costByTrigger: [{ trigger: 'pull_request', costUsd: 0.5, runs: 1 }],
    };
    const v = adminView(o, now);
    expect(v.sources[0]).toMatchObject({ commit: 'abcdef0', synced: '2 min ago', blueprints: 196 });
    expect(v.syncs[0]).toMatchObject({ failed: true, error: 'boom' });
    expect(v.runCounts).toEqual([{ status: 'failed', count: 1 }, { status: 'queued', count: 2 }]);
    expect(v.runs[0]).toMatchObject({ href: '/runs/r1', trigger: 'PR #7', failed: true, calls: '3/10 (2 errors)', cost: '$0.5000' });
    expect(v.pullRequests.map((p) => [p.number, p.approvable, p.state])).toEqual([[7, true, 'awaiting approval'], [8, false, 'invalid']]);
    expect(v.costs[0]).toEqual({ label: 'last 24 h', cost: '$0.5000', runs: 1 });
  });
});
