/** A retrieval run's results, the leaderboard of embedding models and a query's drill-down: they render view models and never fetch. */
import Link from 'next/link';
import type { FigureAttrs } from '@/lib/views/figures';
import type { LadderView, MetricCellView, RetrievalBoardView, RetrievalQueryView, RetrievalResultsView } from '@/lib/views/retrieval-view';
import { Cell, Empty, StatusBadge, Table, link, muted } from './ui';

function Ladder({ ladder, figure }: { ladder: LadderView | null; figure: FigureAttrs | null }) {
  return ladder ? (
    <span {...figure}>
      <StatusBadge label={ladder.label} tone={ladder.tone} />
    </span>
  ) : (
    <span className={muted}>—</span>
  );
}

function MetricCell({ cell }: { cell: MetricCellView }) {
  return (
    <Cell>
      <span className="font-medium tabular-nums" data-testid="metric-value">
        {cell.value}
      </span>
      {cell.interval && (
        <span className={`ml-1 text-xs tabular-nums ${muted}`} title={cell.basis ?? undefined}>
          [{cell.interval}]
        </span>
      )}
      {cell.ladder && (
        <span className="ml-1" {...cell.figure}>
          <StatusBadge label={cell.ladder.label} tone={cell.ladder.tone} />
        </span>
      )}
      {cell.threshold && <span className={`block text-xs ${muted}`}>{cell.threshold}</span>}
    </Cell>
  );
}

export function RetrievalResults({ view }: { view: RetrievalResultsView }) {
  if (view.rows.length === 0) return <Empty>No model has results yet.</Empty>;
  return (
    <div className="space-y-2" data-testid="retrieval-results">
      <Table label="Retrieval results per model" head={['Model', ...view.metricLabels.map((m) => (m === view.primaryMetric ? `${m} (primary)` : m)), 'Ladder', 'Cost']}>
        {view.rows.map((r) => (
          <tr key={r.modelId} data-testid="retrieval-model-row">
            <Cell>
              <Link href={r.modelHref} className={link}>
                {r.modelId}
              </Link>
              <span className={`block text-xs ${muted}`}>{r.calls}</span>
              {r.error && <span className="block text-xs text-red-800 dark:text-red-300">not scored: {r.error}</span>}
            </Cell>
            {r.metrics.map((m) => (
              <MetricCell key={m.metric} cell={m} />
            ))}
            <Cell>
              <Ladder ladder={r.ladder} figure={r.figure} />
            </Cell>
            <Cell>{r.cost}</Cell>
          </tr>
        ))}
      </Table>
      <p className={`text-xs ${muted}`}>Metrics as trec_eval computes them (0–1), each with its 95% interval over queries (BCa bootstrap, in brackets).</p>
      {view.thresholdsNote && <p className={`text-xs ${muted}`}>{view.thresholdsNote}</p>}
    </div>
  );
}

export function RetrievalQueries({ view }: { view: RetrievalResultsView }) {
  return (
    <div className="space-y-2">
      <p className={`text-sm ${muted}`}>{view.queriesNote}</p>
      {view.queries.length > 0 && (
        <Table label="Queries" head={['Query', ...view.queryColumns.map((m) => `${m}: ${view.primaryMetric}`)]}>
          {view.queries.map((q) => (
            <tr key={q.id} data-testid="retrieval-query-row">
              <Cell>
                <Link href={q.href} className={link}>
                  {q.id}
                </Link>
                <span className={`block ${muted}`}>{q.text}</span>
              </Cell>
              {q.values.map((v, i) => (
                <Cell key={view.queryColumns[i]}>
                  <span className="tabular-nums">{v}</span>
                </Cell>
              ))}
            </tr>
          ))}
        </Table>
      )}
    </div>
  );
}

export function RetrievalBoard({ view }: { view: RetrievalBoardView }) {
  if (view.entries.length === 0) return <Empty>No retrieval blueprint has a completed run yet.</Empty>;
  return (
    <div className="space-y-2" data-testid="retrieval-board">
      <Table label="Embedding models by retrieval metric" head={['Rank', 'Model', 'Mean', ...view.columns.map((c) => `${c.title} (${c.metric})`)]}>
        {view.entries.map((e) => (
          <tr key={e.modelId} data-testid="retrieval-board-row">
            <Cell>{e.rank}</Cell>
            <Cell>
              <Link href={e.modelHref} className={link}>
                {e.modelId}
              </Link>
              <span className={`block text-xs ${muted}`}>{e.blueprints}</span>
            </Cell>
            <Cell>
              <span className="font-medium tabular-nums">{e.mean}</span>
            </Cell>
            {e.cells.map((c) => (
              <Cell key={c.blueprintId}>
                {c.runHref ? (
                  <Link href={c.runHref} className={`tabular-nums ${link}`}>
                    {c.value}
                  </Link>
                ) : (
                  <span className={muted}>—</span>
                )}
                {c.interval && <span className={`ml-1 text-xs tabular-nums ${muted}`}>[{c.interval}]</span>}
                {c.ladder && (
                  <span className="ml-1" title="The model’s status on this run, over every metric with a minimum" {...c.figure}>
                    <StatusBadge label={c.ladder.label} tone={c.ladder.tone} />
                  </span>
                )}
              </Cell>
            ))}
          </tr>
        ))}
      </Table>
      <p className={`text-xs ${muted}`}>{view.note}</p>
    </div>
  );
}

export function RetrievalQueryDetail({ view }: { view: RetrievalQueryView }) {
  return (
    <div className="space-y-6">
      <blockquote className="rounded border-l-4 border-blue-300 bg-blue-50 p-3 dark:border-blue-800 dark:bg-blue-950" data-testid="query-text">
        {view.queryText}
      </blockquote>
      <nav aria-label="Other queries" className="flex gap-3 text-sm">
        {view.previousHref ? (
          <Link href={view.previousHref} className={link} rel="prev">
            Previous query
          </Link>
        ) : (
          <span className={muted}>Previous query</span>
        )}
        {view.nextHref ? (
          <Link href={view.nextHref} className={link} rel="next">
            Next query
          </Link>
        ) : (
          <span className={muted}>Next query</span>
        )}
        <Link href={view.runHref} className={link}>
          All results
        </Link>
      </nav>
      {view.models.map((m) => (
        <section key={m.modelId} aria-labelledby={`model-${m.modelId}`} className="space-y-3" data-testid="query-model">
          <h2 id={`model-${m.modelId}`} className="text-lg font-semibold tracking-tight">
            {m.modelId}
          </h2>
          <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm" data-testid="query-metrics">
            {m.metrics.map((x) => (
              <div key={x.metric}>
                <dt className={`inline ${muted}`}>{x.metric}</dt> <dd className="inline font-medium tabular-nums">{x.value}</dd>
              </div>
            ))}
          </dl>
          <Table label={`Top ${view.shown} documents retrieved by ${m.modelId}`} head={['Rank', 'Document', 'Score', 'Relevance']}>
            {m.ranking.map((d) => (
              <tr key={d.docId} data-testid="retrieved-doc" className={d.relevant ? 'bg-emerald-50 dark:bg-emerald-950' : undefined}>
                <Cell>{d.rank}</Cell>
                <Cell>
                  <span className="font-mono text-xs">{d.docId}</span>
                  <span className="block">{d.text}</span>
                </Cell>
                <Cell mono>{d.score}</Cell>
                <Cell>{d.relevance}</Cell>
              </tr>
            ))}
          </Table>
          {m.missed.length > 0 ? (
            <div data-testid="missed-docs">
              <h3 className="text-sm font-medium">Relevant documents missed (not in the top {view.shown})</h3>
              <ul className="list-disc pl-5 text-sm">
                {m.missed.map((d) => (
                  <li key={d.docId}>
                    <span className="font-mono text-xs">{d.docId}</span> ({d.relevance}, {d.where}): {d.text}
                  </li>
                ))}
              </ul>
            </div>
          ) : (
            <p className={`text-sm ${muted}`}>No relevant document was missed in the top {view.shown}.</p>
          )}
        </section>
      ))}
    </div>
  );
}
