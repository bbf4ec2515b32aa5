import Link from 'next/link';
import type { LeaderboardView, TagChipView } from '@/lib/server/views/leaderboard-view';
import { Empty, IntervalBarView, link, muted } from './ui';

export function TagChips({ tags, overallHref, overallActive }: { tags: TagChipView[]; overallHref: string; overallActive: boolean }) {
  if (tags.length === 0) return null;
  const chip = (active: boolean) =>
    `inline-block rounded-full border px-2.5 py-0.5 text-sm ${active ? 'border-zinc-900 bg-zinc-900 text-white dark:border-zinc-100 dark:bg-zinc-100 dark:text-zinc-900' : 'border-zinc-300 hover:border-zinc-500 dark:border-zinc-700'}`;
  return (
    <nav aria-label="Leaderboard by tag">
      <ul className="flex flex-wrap gap-1.5">
        <li>
          <Link href={overallHref} aria-current={overallActive ? 'page' : undefined} className={chip(overallActive)}>
            Overall
          </Link>
        </li>
        {tags.map((t) => (
          <li key={t.tag}>
            <Link href={t.href} aria-current={t.active ? 'page' : undefined} className={chip(t.active)}>
              {t.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** A ranking of models: score, 95% interval (numbers and a bar), blueprints, errors. */
export function LeaderboardTable({ view, testId = 'leaderboard' }: { view: LeaderboardView; testId?: string }) {
  if (view.entries.length === 0) return <Empty>No completed runs yet: run a blueprint to see models ranked here.</Empty>;
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid={testId}>
        <caption className={`mb-2 text-left text-sm ${muted}`}>{view.caption}</caption>
        <thead className="border-b border-zinc-200 dark:border-zinc-800">
          <tr>
            <th scope="col" className="py-2 pr-3 text-right">
              Rank
            </th>
            <th scope="col" className="py-2 pr-3">
              Model
            </th>
            <th scope="col" className="py-2 pr-3 text-right">
              Score
            </th>
            <th scope="col" className="py-2 pr-3">
              95% interval
            </th>
            <th scope="col" className="py-2 pr-3 text-right">
              Blueprints
            </th>
            <th scope="col" className="py-2 text-right">
              Errors
            </th>
          </tr>
        </thead>
        <tbody>
          {view.entries.map((e) => (
            <tr key={e.modelId} className="border-b border-zinc-100 dark:border-zinc-900" data-testid="leaderboard-row">
              <td className="py-2 pr-3 text-right tabular-nums">{e.rank ?? '—'}</td>
              <th scope="row" className="py-2 pr-3 font-medium">
                <Link href={e.href} prefetch={false} className={link} title={e.modelId}>
                  {e.label}
                </Link>
                <span className={`block text-xs font-normal ${muted}`}>{e.modelId}</span>
              </th>
              <td className="py-2 pr-3 text-right font-semibold tabular-nums" data-testid="score">
                {e.scoreLabel}
              </td>
              <td className="py-2 pr-3 whitespace-nowrap tabular-nums">
                <IntervalBarView bar={e.bar} /> <span className="ml-1">{e.intervalLabel ?? '—'}</span>
                <span className="sr-only">{e.intervalText}</span>
              </td>
              <td className="py-2 pr-3 text-right tabular-nums">{e.blueprintsLabel}</td>
              <td className={`py-2 text-right tabular-nums ${e.errors > 0 ? 'text-red-700 dark:text-red-400' : ''}`}>{e.errors}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
