import Link from 'next/link';
import type { HeatmapView } from '@/lib/views/heatmap-view';
import { Empty, HeatCell, Pagination, link, muted } from './ui';

/**
 * The prompt × model heatmap. Every cell is a link (a plain <a>: hundreds of them must not
 * each be prefetched) whose accessible name says prompt, model, score and errors.
 */
export function Heatmap({ view }: { view: HeatmapView }) {
  if (view.emptyMessage) return <Empty>{view.emptyMessage}</Empty>;
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <nav aria-label="Order of prompts" className="flex flex-wrap gap-2 text-sm">
          {view.sorts.map((s) => (
            <Link key={s.href} href={s.href} prefetch={false} aria-current={s.current ? 'true' : undefined} className={s.current ? 'font-semibold' : link}>
              {s.label}
            </Link>
          ))}
        </nav>
        <Legend legend={view.legend} />
      </div>
      {view.sealedNote && <p className={`text-sm ${muted}`}>{view.sealedNote}</p>}
      {view.columns.length > 1 && (
        // a phone shows one or two model columns: say that the rest are to the side
        <p className={`text-xs sm:hidden ${muted}`} data-testid="heatmap-scroll-cue">
          {view.columns.length} models: scroll the table sideways to see them all →
        </p>
      )}
      <div className="scroll-cue relative overflow-x-auto" tabIndex={0} role="region" aria-label="Heatmap, scrolls sideways">
        <table className="border-separate border-spacing-0.5 text-sm" data-testid="heatmap">
          <caption className={`mb-2 text-left text-sm ${muted}`}>Score (0–100) of each model on each prompt. Select a cell for the replies and verdicts.</caption>
          <thead>
            <tr>
              <th scope="col" className="sticky left-0 z-10 bg-white pr-2 text-left align-bottom dark:bg-zinc-950">
                Prompt
              </th>
              <th scope="col" className="px-1 text-right align-bottom text-xs font-normal">
                Mean
              </th>
              {view.columns.map((c) => (
                <th key={c.modelId} scope="col" className="max-w-24 px-0.5 align-bottom text-xs font-medium">
                  <a href={c.href} className={`block truncate ${link}`} title={`${c.modelId}: ${c.scoreLabel}`}>
                    {c.label}
                  </a>
                  <span className={`block text-center font-normal tabular-nums ${muted}`} {...c.figure}>
                    {c.scoreLabel}
                  </span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {view.rows.map((r) => (
              <tr key={r.promptKey}>
                <th scope="row" className="sticky left-0 z-10 max-w-64 bg-white pr-2 text-left font-normal dark:bg-zinc-950">
                  <a href={r.href} className={`block truncate font-mono text-xs ${link}`}>
                    {r.promptKey}
                  </a>
                  <span className={`block truncate text-xs ${muted}`}>{r.snippet}</span>
                </th>
                <td className="px-1 text-right text-xs tabular-nums">{r.meanLabel}</td>
                {r.cells.map((c, i) => (
                  <HeatCell key={i} cell={c} className={`hm-cell${c.errors ? ' hm-err' : ''}${c.gateFailed ? ' hm-gate' : ''}`} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pagination view={view.pagination} label="Heatmap pages" />
    </div>
  );
}

export function Legend({ legend }: { legend: HeatmapView['legend'] }) {
  return (
    <div role="group" className="flex items-center gap-1 text-xs" aria-label="Colour scale: red is 0, blue is 100">
      <span className={muted}>Score</span>
      {legend.map((l) => (
        <span key={l.label} className="inline-block min-w-8 rounded px-1 py-0.5 text-center" style={{ background: l.background, color: l.color }}>
          {l.label}
        </span>
      ))}
      <span className="ml-2 inline-block rounded px-1 py-0.5 hm-err" style={{ background: '#d4d4d8', color: '#18181b' }}>
        err
      </span>
      <span className={muted}>errors</span>
      <span className="ml-2 inline-block rounded px-1 py-0.5 hm-gate" style={{ background: '#d4d4d8', color: '#18181b' }}>
        0 ⊘
      </span>
      <span className={muted}>a gate failed</span>
    </div>
  );
}
