import Link from 'next/link';
import type { BlueprintRunsView } from '@/lib/views/blueprint-runs-view';
import { ScoreLineChart } from './line-chart';
import { RankingTable } from './ranking-table';
import { Empty, Section, StatusBadge, link, muted } from './ui';
import { ColumnHeaders } from './score-cells';

export function LatestRanking({ view }: { view: BlueprintRunsView }) {
  if (!view.latest) return <Empty>No completed run yet.</Empty>;
  return (
    <div className="space-y-2">
      <RankingTable entries={view.latest.ranking} caption={`Models in the latest completed run, best first: score (0–100) and 95% interval over prompts.`} />
      <p className="text-sm">
        <Link href={view.latest.href} className={link} data-testid="latest-run-link">
          Open the latest run ({view.latest.label}): heatmap, replies and verdicts
        </Link>
      </p>
    </div>
  );
}

export function RunHistory({ view }: { view: BlueprintRunsView }) {
  return (
    <Section id="history-h" title="Run history" description="Each model’s score over the completed runs: drift shows here.">
      {view.trend ? <ScoreLineChart data={view.trend} testId="trend-chart" /> : <p className={`text-sm ${muted}`}>The trend appears after two completed runs.</p>}
      {view.trendTable && (
        <details>
          <summary className={`cursor-pointer text-sm ${link}`}>Scores per run as a table</summary>
          <div className="relative overflow-x-auto">
            <table className="mt-2 text-left text-sm" data-testid="trend-table">
              <thead className="border-b border-zinc-200 dark:border-zinc-800">
                <tr>
                  <th scope="col" className="py-1 pr-3">
                    Run
                  </th>
                  {view.trendTable.header.map((h) => (
                    <th key={h} scope="col" className="py-1 pr-3 text-right">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {view.trendTable.rows.map((r) => (
                  <tr key={r.href} className="border-b border-zinc-100 dark:border-zinc-900">
                    <th scope="row" className="py-1 pr-3 font-normal">
                      <a href={r.href} className={link}>
                        {r.label}
                      </a>
                    </th>
                    {r.values.map((v, i) => (
                      <td key={i} className="py-1 pr-3 text-right tabular-nums" {...r.figures[i]}>
                        {v}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}
      {view.history.length === 0 ? (
        <Empty>This blueprint has not been run yet.</Empty>
      ) : (
        <div className="relative overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="run-history">
            <caption className="sr-only">Every run of this blueprint, newest first</caption>
            <ColumnHeaders columns={[{ label: 'Run' }, { label: 'Status' }, { label: 'Trigger' }, { label: 'Commit' }, { label: 'Replies', right: true }, { label: 'Errors', right: true }, { label: 'Cost', right: true }]} />
            <tbody>
              {view.history.map((r) => (
                <tr key={r.id} className="border-b border-zinc-100 dark:border-zinc-900">
                  <th scope="row" className="py-2 pr-3 font-normal">
                    <Link href={r.href} prefetch={false} className={link}>
                      {r.label}
                    </Link>
                  </th>
                  <td className="py-2 pr-3">
                    <StatusBadge label={r.statusLabel} tone={r.statusTone} />
                  </td>
                  <td className="py-2 pr-3">{r.trigger}</td>
                  <td className="py-2 pr-3 font-mono text-xs">{r.commit ?? '—'}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{r.repliesLabel}</td>
                  <td className="py-2 pr-3 text-right tabular-nums">{r.errorsLabel}</td>
                  <td className="py-2 text-right tabular-nums">{r.cost}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}
