import Link from 'next/link';
import type { LeaderboardView, TagChipView } from '@/lib/server/views/leaderboard-view';
import { ColumnHeaders, ErrorsCell, RANKING_COLUMNS, RankingCells } from './score-cells';
import { Empty, muted } from './ui';

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
        <ColumnHeaders columns={[...RANKING_COLUMNS, { label: 'Blueprints', right: true }, { label: 'Errors', right: true }]} />
        <tbody>
          {view.entries.map((e) => (
            <tr key={e.modelId} className="border-b border-zinc-100 dark:border-zinc-900" data-testid="leaderboard-row">
              <RankingCells entry={e} scoreTestId="score" />
              <td className="py-2 pr-3 text-right tabular-nums">{e.blueprintsLabel}</td>
              <ErrorsCell errors={e.errors} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
