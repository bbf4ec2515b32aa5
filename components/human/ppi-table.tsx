/**
 * Each model's judged-point mean twice: as the judges gave it, and prediction-powered (corrected
 * by people's labels, with an interval that includes the judge's error), or why it cannot be
 * corrected yet. View model: the `models` of calibrationView (lib/views/human-figures-view.ts).
 */
import Link from 'next/link';
import type { PpiRowView } from '@/lib/views/human-figures-view';
import { link, muted } from '../ui';

function Score({ shown }: { shown: PpiRowView['judgeOnly'] }) {
  return (
    <>
      <span className="font-medium" {...shown.figures.score}>
        {shown.score}
      </span>
      {shown.interval && (
        <span className={`block text-xs ${muted}`}>
          [<span {...shown.figures.interval}>{shown.interval}</span>]
        </span>
      )}
    </>
  );
}

export function PpiTable({ rows, notes }: { rows: PpiRowView[]; notes: { judgeOnly: string; predictionPowered: string } }) {
  if (rows.length === 0) return null;
  return (
    <div className="space-y-2">
      <div className="relative overflow-x-auto">
        <table className="w-full text-left text-sm" data-testid="ppi-table" aria-describedby="ppi-notes">
          <caption className="sr-only">Judged-point means, judge-only and prediction-powered</caption>
          <thead className={`border-b border-zinc-200 text-xs uppercase dark:border-zinc-800 ${muted}`}>
            <tr>
              <th scope="col" className="py-2 pr-3 font-medium">Model</th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">Judge-only</th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">Prediction-powered</th>
              <th scope="col" className="py-2 pr-3 text-right font-medium">Correction</th>
              <th scope="col" className="py-2 pr-3 font-medium">Labelled</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.modelId} className="border-b border-zinc-100 align-top dark:border-zinc-900" data-testid="ppi-row">
                <td className="py-2 pr-3">
                  <Link href={r.href} prefetch={false} className={link}>
                    {r.label}
                  </Link>
                </td>
                <td className="py-2 pr-3 text-right tabular-nums">
                  <Score shown={r.judgeOnly} />
                </td>
                <td className="py-2 pr-3 text-right tabular-nums">
                  {r.predictionPowered ? <Score shown={r.predictionPowered} /> : <span className={`text-xs ${muted}`}>{r.reason}</span>}
                </td>
                <td className="py-2 pr-3 text-right tabular-nums">{r.rectifier ?? <span className={muted}>—</span>}</td>
                <td className={`py-2 pr-3 text-xs ${muted}`}>{r.basis}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div id="ppi-notes" className={`max-w-3xl space-y-1 text-xs ${muted}`}>
        <p>{notes.judgeOnly}</p>
        <p>{notes.predictionPowered}</p>
      </div>
    </div>
  );
}
