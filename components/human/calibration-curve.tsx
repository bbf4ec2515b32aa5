/**
 * A judge's calibration against people, drawn inline (no chart library: a square, its diagonal
 * and one point per bin): the judge's value across, people's mean value up, each point's area in
 * proportion to its items. One image for assistive technology, labelled with every number; the
 * same numbers are in the table beneath it. View model: calibrationCurve (lib/views/human-figures-view.ts).
 */
import type { CalibrationCurveView } from '@/lib/views/human-figures-view';
import { muted } from '../ui';

/** The plot's square is 0–100 in both directions; the margin holds the axes' words. */
const VIEW_BOX = '-14 -4 118 122';
const TICKS = [0, 50, 100];

export function CalibrationCurve({ view }: { view: CalibrationCurveView }) {
  return (
    <figure className="space-y-2" data-testid="calibration-curve">
      <svg viewBox={VIEW_BOX} role="img" aria-label={view.ariaLabel} className="w-full max-w-xs text-zinc-600 dark:text-zinc-400">
        <rect x={0} y={0} width={100} height={100} fill="none" stroke="currentColor" strokeOpacity={0.4} strokeWidth={0.5} />
        {TICKS.map((t) => (
          <g key={t} fontSize={5} fill="currentColor">
            <text x={t} y={107} textAnchor="middle">
              {(t / 100).toFixed(1)}
            </text>
            <text x={-2} y={100 - t + 1.7} textAnchor="end">
              {(t / 100).toFixed(1)}
            </text>
          </g>
        ))}
        {/* where a judge's value is exactly what people said */}
        <line x1={0} y1={100} x2={100} y2={0} stroke="currentColor" strokeOpacity={0.5} strokeWidth={0.5} strokeDasharray="2 2" />
        <text x={50} y={116} fontSize={5} textAnchor="middle" fill="currentColor">
          judge’s value
        </text>
        <text x={-10} y={50} fontSize={5} textAnchor="middle" fill="currentColor" transform="rotate(-90 -10 50)">
          people’s mean
        </text>
        {view.points.map((p) => (
          <circle key={p.key} cx={p.x} cy={100 - p.y} r={p.r} className="fill-blue-600/70 stroke-blue-900 dark:fill-blue-400/70 dark:stroke-blue-200" strokeWidth={0.4}>
            <title>{p.label}</title>
          </circle>
        ))}
      </svg>
      <figcaption className={`max-w-xl text-xs ${muted}`}>{view.title}</figcaption>
      <details className="text-sm">
        <summary className={`cursor-pointer text-xs ${muted}`}>The numbers behind the curve</summary>
        <table className="mt-1 text-left text-xs tabular-nums" data-testid="calibration-bins">
          <thead className={muted}>
            <tr>
              <th scope="col" className="py-1 pr-3 font-medium">Judge’s value</th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">Items</th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">Judge’s mean</th>
              <th scope="col" className="py-1 pr-3 text-right font-medium">People’s mean</th>
            </tr>
          </thead>
          <tbody>
            {view.rows.map((r) => (
              <tr key={r.bin}>
                <td className="py-0.5 pr-3">{r.bin}</td>
                <td className="py-0.5 pr-3 text-right">{r.items}</td>
                <td className="py-0.5 pr-3 text-right">{r.judge}</td>
                <td className="py-0.5 pr-3 text-right">{r.people}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
