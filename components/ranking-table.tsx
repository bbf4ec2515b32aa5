import type { RankingEntryView } from '@/lib/views/run-view';
import { ColumnHeaders, ErrorsCell, RANKING_COLUMNS, RankingCells } from './score-cells';
import { Empty, muted } from './ui';

/** A run's models ranked: score and interval, and (when `detailed`) volume, errors, cost, latency. */
export function RankingTable({ entries, caption, detailed = false }: { entries: RankingEntryView[]; caption: string; detailed?: boolean }) {
  if (entries.length === 0) return <Empty>No model has a score in this run yet.</Empty>;
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="ranking">
        <caption className={`mb-2 text-left text-sm ${muted}`}>{caption}</caption>
        <ColumnHeaders
          columns={[
            ...RANKING_COLUMNS,
            ...(detailed ? [{ label: 'Replies', right: true }, { label: 'Verdicts', right: true }, { label: 'Coverage' }, { label: 'Cost', right: true }, { label: 'Median latency', right: true }] : []),
            { label: 'Errors', right: true },
          ]}
        />
        <tbody>
          {entries.map((e) => (
            <tr key={e.modelId} className="border-b border-zinc-100 dark:border-zinc-900">
              <RankingCells entry={e} />
              {detailed && (
                <>
                  <td className="py-2 pr-3 text-right tabular-nums">{e.replies}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{e.verdicts}</td>
                  <td className={`py-2 pr-3 text-xs ${muted}`} data-testid="coverage">
                    {e.coverage}
                    {e.withheld && <span className="block text-amber-800 dark:text-amber-300">Score withheld: {e.withheld}</span>}
                  </td>
                  <td className="py-2 pr-3 text-right tabular-nums">{e.cost}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{e.latency}</td>
                </>
              )}
              <ErrorsCell errors={e.errors} />
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
