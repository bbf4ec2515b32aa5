/** Table pieces shared by the ranking tables: column headers and a model's rank/score/interval cells. Presentational only. */
import Link from 'next/link';
import type { IntervalNoteView } from '@/lib/views/interval-view';
import type { FigureAttrs } from '@/lib/views/figures';
import type { IntervalBar } from '@/lib/views/leaderboard-view';
import { IntervalNote } from './interval';
import { IntervalBarView, link, muted } from './ui';

export interface Column {
  label: string;
  /** Numbers are right-aligned. */
  right?: boolean;
}

/** A table's header row: `scope="col"` cells, the last without right padding; `dense` for compact tables. */
export function ColumnHeaders({ columns, dense = false }: { columns: Column[]; dense?: boolean }) {
  return (
    <thead className="border-b border-zinc-200 dark:border-zinc-800">
      <tr>
        {columns.map((c, i) => (
          <th key={c.label} scope="col" className={[dense ? 'py-1' : 'py-2', i < columns.length - 1 ? 'pr-3' : null, c.right ? 'text-right' : null].filter(Boolean).join(' ')}>
            {c.label}
            {/* a space between headers, so text read off the row ("Blueprints scored Verdict coverage") keeps them apart */}{' '}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/** The Rank, Model, Score and 95% interval columns of a ranking. */
export const RANKING_COLUMNS: Column[] = [{ label: 'Rank', right: true }, { label: 'Model' }, { label: 'Score', right: true }, { label: '95% interval' }];

export interface RankedModel {
  rank: number | null;
  modelId: string;
  label: string;
  href: string;
  scoreLabel: string;
  intervalLabel: string | null;
  intervalText: string;
  bar: IntervalBar | null;
  /** The interval's method, prompts and attempts (interval-view.ts), shown beneath it. */
  intervalNote?: IntervalNoteView | null;
  /** Which figures these are (lib/views/figures.ts), for the figure census. */
  figures?: { score: FigureAttrs; interval: FigureAttrs | null; rank: FigureAttrs | null };
}

/** A ranked model's Rank, Model (the row header), Score and 95% interval cells. */
export function RankingCells({ entry: e, scoreTestId }: { entry: RankedModel; scoreTestId?: string }) {
  return (
    <>
      <td className="py-2 pr-3 text-right tabular-nums" {...e.figures?.rank}>
        {e.rank ?? '—'}
      </td>
      <th scope="row" className="py-2 pr-3 font-medium">
        <Link href={e.href} prefetch={false} className={link} title={e.modelId}>
          {e.label}
        </Link>
        <span className={`block text-xs font-normal ${muted}`}>{e.modelId}</span>
      </th>
      <td className="py-2 pr-3 text-right font-semibold tabular-nums" data-testid={scoreTestId} {...e.figures?.score}>
        {e.scoreLabel}
      </td>
      <td className="py-2 pr-3 whitespace-nowrap tabular-nums">
        <IntervalBarView bar={e.bar} />{' '}
        <span className="ml-1" {...e.figures?.interval}>
          {e.intervalLabel ?? '—'}
        </span>
        <span className="sr-only">{e.intervalText}</span>
        <IntervalNote note={e.intervalNote} withLabel={false} />
      </td>
    </>
  );
}

/** The last column of a ranking: the error count, red when there are any. */
export function ErrorsCell({ errors }: { errors: number }) {
  return <td className={`py-2 text-right tabular-nums ${errors > 0 ? 'text-red-700 dark:text-red-400' : ''}`}>{errors}</td>;
}

/** A score cell and its interval cell, each carrying its figure's identity; `dense` for compact tables. */
export function ScoreIntervalCells({ figures, scoreLabel, intervalLabel, dense = false, strong = false }: { figures: { score: FigureAttrs; interval: FigureAttrs | null }; scoreLabel: string; intervalLabel: string | null; dense?: boolean; strong?: boolean }) {
  const pad = dense ? 'py-1' : 'py-2';
  return (
    <>
      <td className={`${pad} pr-3 text-right tabular-nums${strong ? ' font-semibold' : ''}`} {...figures.score}>
        {scoreLabel}
      </td>
      <td className={`${pad} pr-3 tabular-nums`} {...figures.interval}>
        {intervalLabel ?? '—'}
      </td>
    </>
  );
}
