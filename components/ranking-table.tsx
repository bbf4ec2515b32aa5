import Link from 'next/link';
import type { RankingEntryView } from '@/lib/server/views/run-view';
import { Empty, IntervalBarView, link, muted } from './ui';

/** A run's models ranked: score and interval, and (when `detailed`) volume, errors, cost, latency. */
export function RankingTable({ entries, caption, detailed = false }: { entries: RankingEntryView[]; caption: string; detailed?: boolean }) {
  if (entries.length === 0) return <Empty>No model has a score in this run yet.</Empty>;
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="ranking">
        <caption className={`mb-2 text-left text-sm ${muted}`}>{caption}</caption>
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
            {detailed && (
              <>
                <th scope="col" className="py-2 pr-3 text-right">
                  Replies
                </th>
                <th scope="col" className="py-2 pr-3 text-right">
                  Verdicts
                </th>
                <th scope="col" className="py-2 pr-3 text-right">
                  Cost
                </th>
                <th scope="col" className="py-2 pr-3 text-right">
                  Median latency
                </th>
              </>
            )}
            <th scope="col" className="py-2 text-right">
              Errors
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <tr key={e.modelId} className="border-b border-zinc-100 dark:border-zinc-900">
              <td className="py-2 pr-3 text-right tabular-nums">{e.rank ?? '—'}</td>
              <th scope="row" className="py-2 pr-3 font-medium">
                <Link href={e.href} prefetch={false} className={link} title={e.modelId}>
                  {e.label}
                </Link>
                <span className={`block text-xs font-normal ${muted}`}>{e.modelId}</span>
              </th>
              <td className="py-2 pr-3 text-right font-semibold tabular-nums">{e.scoreLabel}</td>
              <td className="py-2 pr-3 whitespace-nowrap tabular-nums">
                <IntervalBarView bar={e.bar} /> <span className="ml-1">{e.intervalLabel ?? '—'}</span>
                <span className="sr-only">{e.intervalText}</span>
              </td>
              {detailed && (
                <>
                  <td className="py-2 pr-3 text-right tabular-nums">{e.replies}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{e.verdicts}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{e.cost}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{e.latency}</td>
                </>
              )}
              <td className={`py-2 text-right tabular-nums ${e.errors > 0 ? 'text-red-700 dark:text-red-400' : ''}`}>{e.errors}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
