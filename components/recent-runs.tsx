import Link from 'next/link';
import type { RecentRunView } from '@/lib/views/recent-runs-view';
import { Empty, StatusBadge, link, muted } from './ui';

export function RecentRuns({ runs }: { runs: RecentRunView[] }) {
  if (runs.length === 0) return <Empty>No runs yet.</Empty>;
  return (
    <ul className="divide-y divide-zinc-100 dark:divide-zinc-900" data-testid="recent-runs">
      {runs.map((r) => (
        <li key={r.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-2 text-sm">
          <StatusBadge label={r.statusLabel} tone={r.statusTone} />
          <Link href={r.href} className={`font-medium ${link}`} prefetch={false}>
            {r.blueprintTitle}
          </Link>
          <span className={muted}>{r.when}</span>
          <span className={`${muted} text-xs`}>{r.detail}</span>
        </li>
      ))}
    </ul>
  );
}
