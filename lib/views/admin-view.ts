/**
 * The admin page's view model: what to show and how (rounding, relative times, short SHAs,
 * which pull requests can be approved), decided here as pure functions so the page only
 * renders, and each decision is tested without a page.
 */
import type { AdminOverview } from '@/lib/server/db/queries/admin-overview';

export function money(usd: number): string {
  if (usd === 0) return '$0';
  return usd >= 100 ? `$${usd.toFixed(0)}` : usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

export function ago(at: Date | null, now: Date): string {
  if (!at) return 'never';
  const s = Math.max(0, Math.round((now.getTime() - at.getTime()) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} d ago`;
}

const short = (sha: string | null) => (sha ? sha.slice(0, 7) : '—');

export function adminView(o: AdminOverview, now: Date) {
  return {
    sources: o.sources.map((s) => ({
      key: s.key,
      kind: s.kind,
      blueprints: s.blueprintCount,
      commit: short(s.lastSyncedSha),
      synced: ago(s.lastSyncedAt, now),
      error: s.lastSyncError,
    })),
    syncs: o.syncs.map((r) => ({
      id: r.id,
      when: ago(r.startedAt, now),
      trigger: r.trigger,
      status: r.status,
      failed: r.status === 'failed',
      commit: short(r.commitSha),
      changes: r.status === 'up_to_date' ? 'up to date' : `+${r.added} ~${r.changed} −${r.removed} (${r.unchanged} unchanged, ${r.invalid} invalid)`,
      blobs: r.blobsFetched,
      error: r.error,
    })),
    runCounts: Object.entries(o.runsByStatus)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, count]) => ({ status, count })),
    runs: o.recentRuns.map((r) => ({
      id: r.id,
      href: `/runs/${r.id}`,
      blueprintId: r.blueprintId,
      trigger: r.pullRequestNumber ? `PR #${r.pullRequestNumber}` : r.trigger,
      status: r.status,
      failed: r.status === 'failed' || r.status === 'budget_exceeded',
      calls: `${r.doneCalls}/${r.totalCalls}${r.errorCalls ? ` (${r.errorCalls} errors)` : ''}`,
      cost: money(r.costUsd),
      when: ago(r.createdAt, now),
      error: r.error,
    })),
    failedSteps: o.failedSteps.map((s) => ({ key: s.key, fn: s.function, runId: s.runId, attempts: s.attempts, error: s.error ?? '', when: ago(s.startedAt, now) })),
    pullRequests: o.pullRequests.map((p) => ({
      number: p.number,
      title: p.title,
      author: p.author,
      commit: short(p.headSha),
      state: p.state.replace('_', ' '),
      approvable: p.state === 'awaiting_approval',
      approvedBy: p.approvedBy,
    })),
    blueprints: o.blueprints,
    costs: o.costs.map((c) => ({ label: c.days === 1 ? 'last 24 h' : `last ${c.days} days`, cost: money(c.costUsd), runs: c.runs })),
    costByTrigger: o.costByTrigger.map((c) => ({ trigger: c.trigger, cost: money(c.costUsd), runs: c.runs })),
  };
}

export type AdminView = ReturnType<typeof adminView>;
