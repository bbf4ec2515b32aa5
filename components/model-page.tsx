import Link from 'next/link';
import type { AreaView, ModelPageView, Tone } from '@/lib/views/model-view';
import { Empty, Section, link, muted } from './ui';
import { ColumnHeaders, ScoreIntervalCells } from './score-cells';

const TONE: Record<Tone, string> = {
  better: 'text-emerald-800 dark:text-emerald-300',
  worse: 'text-red-800 dark:text-red-300',
  same: '',
};

export function ModelSummary({ view }: { view: ModelPageView }) {
  return (
    <header className="space-y-2">
      <h1 className="text-2xl font-semibold tracking-tight">{view.label}</h1>
      <p className={`font-mono text-sm ${muted}`}>
        {view.modelId}
        {view.provider && ` · provider ${view.provider}`}
      </p>
      <p className="text-lg">
        Overall{' '}
        <span className="font-semibold tabular-nums" data-testid="model-overall" {...view.overall.figures.score}>
          {view.overall.scoreLabel}
        </span>
        {view.overall.intervalLabel && (
          <span className={`ml-2 tabular-nums ${muted}`}>
            (95% interval <span {...view.overall.figures.interval}>{view.overall.intervalLabel}</span>)
          </span>
        )}
        <span className={`ml-3 ${muted}`}>
          <span {...view.overall.figures.rank}>{view.overall.rankLabel}</span> on the overall leaderboard · {view.overall.blueprintsLabel} · {view.overall.errors} errors
        </span>
      </p>
    </header>
  );
}

function AreaList({ items, empty }: { items: AreaView[]; empty: string }) {
  if (items.length === 0) return <p className={`text-sm ${muted}`}>{empty}</p>;
  return (
    <ul className="space-y-1 text-sm">
      {items.map((a) => (
        <li key={`${a.kind}-${a.name}`}>
          <Link href={a.href} className={link}>
            {a.kind === 'tag' ? `#${a.name}` : a.name}
          </Link>{' '}
          <span className="tabular-nums" {...a.figures.score}>
            {a.scoreLabel}
          </span>{' '}
          <span className={`tabular-nums ${TONE[a.tone]}`}>
            ({a.deltaLabel} vs the field’s {a.fieldLabel})
          </span>
        </li>
      ))}
    </ul>
  );
}

export function StrengthsWeaknesses({ view }: { view: ModelPageView }) {
  return (
    <Section id="areas-h" title="Strongest and weakest areas" description="Compared with the mean of every model on the same blueprints, not in absolute terms.">
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-1" data-testid="strongest">
          <h3 className="font-medium">Strongest</h3>
          <AreaList items={view.strongest} empty="Nowhere above the field yet." />
        </div>
        <div className="space-y-1" data-testid="weakest">
          <h3 className="font-medium">Weakest</h3>
          <AreaList items={view.weakest} empty="Nowhere below the field yet." />
        </div>
      </div>
    </Section>
  );
}

export function AreaTable({ id, title, items, testId }: { id: string; title: string; items: AreaView[]; testId: string }) {
  return (
    <Section id={id} title={title}>
      {items.length === 0 ? (
        <Empty>No scores yet.</Empty>
      ) : (
        <div className="relative overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid={testId}>
            <ColumnHeaders
              columns={[
                { label: items[0]?.kind === 'tag' ? 'Tag' : 'Blueprint' },
                { label: 'Score', right: true },
                { label: items[0]?.kind === 'tag' ? '95% interval (across its blueprints)' : '95% interval (its latest run)' },
                { label: items[0]?.kind === 'tag' ? 'Place on the tag’s board' : 'Place on the blueprint', right: true },
                { label: 'Field mean', right: true },
                { label: 'vs field', right: true },
              ]}
            />
            <tbody>
              {items.map((a) => (
                <tr key={a.name} className="border-b border-zinc-100 dark:border-zinc-900">
                  <th scope="row" className="py-2 pr-3 font-medium">
                    <Link href={a.href} className={link}>
                      {a.name}
                    </Link>
                    {a.kind === 'tag' && <span className={`block text-xs font-normal ${muted}`}>{a.blueprintsLabel}</span>}
                  </th>
                  <ScoreIntervalCells figures={a.figures} scoreLabel={a.scoreLabel} intervalLabel={a.intervalLabel} strong />
                  <td className="py-2 pr-3 text-right tabular-nums" {...a.figures.rank}>
                    {a.rankLabel}
                  </td>
                  <td className="py-2 pr-3 text-right tabular-nums">{a.fieldLabel}</td>
                  <td className={`py-2 text-right tabular-nums ${TONE[a.tone]}`}>{a.deltaLabel}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

export function HistoryTable({ rows }: { rows: ModelPageView['historyTable'] }) {
  if (rows.length === 0) return <Empty>No completed runs yet.</Empty>;
  return (
    <details>
      <summary className={`cursor-pointer text-sm ${link}`}>Every run as a table ({rows.length})</summary>
      <table className="mt-2 w-full text-left text-sm" data-testid="history-table">
        <ColumnHeaders dense columns={[{ label: 'Run' }, { label: 'Blueprint' }, { label: 'Score', right: true }, { label: '95% interval' }]} />
        <tbody>
          {rows.map((r, i) => (
            <tr key={i} className="border-b border-zinc-100 dark:border-zinc-900">
              <td className="py-1 pr-3">
                <a href={r.runHref} className={link}>
                  {r.label}
                </a>
              </td>
              <td className="py-1 pr-3">
                <a href={r.blueprintHref} className={link}>
                  {r.blueprint}
                </a>
              </td>
              <ScoreIntervalCells figures={r.figures} scoreLabel={r.scoreLabel} intervalLabel={r.intervalLabel} dense />
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
