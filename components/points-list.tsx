import type { PointsListView } from '@/lib/views/points-list-view';
import { Empty, Pagination, ScoreChip, link, muted } from './ui';

/** The run's criteria by prompt: mean and range across models; each opens the point view. */
export function PointsList({ view }: { view: PointsListView }) {
  if (view.groups.length === 0) return <Empty>No scored prompts.</Empty>;
  return (
    <div className="space-y-6" data-testid="points-list">
      {view.groups.map((g) => (
        <section key={g.promptKey} aria-labelledby={`pts-${g.promptKey}`} className="space-y-2">
          <h3 id={`pts-${g.promptKey}`} className="font-mono text-sm">
            <a href={g.promptHref} className={link}>
              {g.promptKey}
            </a>
          </h3>
          <table className="w-full text-left text-sm">
            <thead className="sr-only">
              <tr>
                <th scope="col">Mean across models</th>
                <th scope="col">Point</th>
                <th scope="col">Range</th>
              </tr>
            </thead>
            <tbody>
              {g.points.map((p) => (
                <tr key={p.index} className="border-b border-zinc-100 align-top dark:border-zinc-900">
                  <td className="w-16 py-1 pr-3">
                    <ScoreChip label={p.meanLabel} background={p.background} color={p.color} title="Mean across models" />
                  </td>
                  <td className="py-1 pr-3 [overflow-wrap:anywhere]">
                    <a href={p.href} className={link}>
                      {p.index + 1}. {p.text}
                    </a>
                    {p.notes.length > 0 && <span className={`block text-xs ${muted}`}>{p.notes.join(' · ')}</span>}
                  </td>
                  <td className={`w-24 py-1 text-right text-xs tabular-nums ${muted}`}>range {p.rangeLabel}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
      <Pagination view={view.pagination} label="Prompt pages" />
    </div>
  );
}
