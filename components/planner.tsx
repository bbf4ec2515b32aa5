/** The sample-size planner on the blueprint page. Presentational: it receives the view model. */
import Link from 'next/link';
import type { PlannerView } from '@/lib/views/planner-view';
import { Empty, link, muted } from './ui';

export function Planner({ view }: { view: PlannerView }) {
  if (view.empty !== null) return <Empty>{view.empty}</Empty>;
  return (
    <div className="space-y-4" data-testid="planner">
      <p className="max-w-3xl text-sm">
        {view.headline}{' '}
        {view.run && (
          <span className={muted}>
            (From{' '}
            <Link href={view.run.href} className={link} prefetch={false}>
              {view.run.label}
            </Link>
            ; n = (z₁₋α/₂ + z₁₋β)² ω² / δ².)
          </span>
        )}
      </p>
      <div className="flex flex-wrap gap-8">
        <dl className="grid grid-cols-[auto_auto] gap-x-4 gap-y-1 text-sm">
          <dt className={muted}>Minimum detectable difference</dt>
          <dd className="font-semibold tabular-nums" data-testid="planner-mde">
            <span {...view.figure}>{view.mdeValue}</span> points
          </dd>
          {view.basis.map((b) => (
            <div key={b.label} className="contents">
              <dt className={muted}>{b.label}</dt>
              <dd className="tabular-nums">{b.value}</dd>
            </div>
          ))}
        </dl>
        <table className="text-sm" data-testid="planner-needed">
          <caption className={`whitespace-nowrap text-left ${muted}`}>Prompts needed to detect a difference of</caption>
          <thead>
            <tr>
              <th scope="col" className="pr-4 text-left font-medium">
                Difference
              </th>
              <th scope="col" className="text-right font-medium">
                Prompts
              </th>
            </tr>
          </thead>
          <tbody>
            {view.needed.map((n) => (
              <tr key={n.delta}>
                <td className="pr-4">{n.delta}</td>
                <td className={`text-right tabular-nums ${n.enough ? '' : 'font-medium'}`}>{n.prompts}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {view.pairs.length > 0 && (
        <details className="text-sm">
          <summary className={`cursor-pointer ${muted}`}>Per pair of models</summary>
          <table className="mt-2">
            <thead>
              <tr className="text-left">
                <th scope="col" className="pr-4 font-medium">
                  Pair
                </th>
                <th scope="col" className="pr-4 text-right font-medium">
                  Prompts
                </th>
                <th scope="col" className="pr-4 text-right font-medium">
                  ρ
                </th>
                <th scope="col" className="pr-4 text-right font-medium">
                  ω (points)
                </th>
                <th scope="col" className="text-right font-medium">
                  MDE (points)
                </th>
              </tr>
            </thead>
            <tbody>
              {view.pairs.map((p) => (
                <tr key={p.label}>
                  <td className="pr-4">{p.label}</td>
                  <td className="pr-4 text-right tabular-nums">{p.paired}</td>
                  <td className="pr-4 text-right tabular-nums">{p.rho}</td>
                  <td className="pr-4 text-right tabular-nums">{p.omega}</td>
                  <td className="text-right tabular-nums">{p.mde}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {view.pairsNote && <p className={`mt-1 ${muted}`}>{view.pairsNote}</p>}
        </details>
      )}
      {view.note && <p className={`text-sm ${muted}`}>{view.note}</p>}
    </div>
  );
}
