/** A two-model paired comparison: the numbers, wins/losses/ties, and the prompts that differ most with links to both cells. Presentational. */
import Link from 'next/link';
import type { CompareView } from '@/lib/views/compare-view';
import { Facts, link, muted } from './ui';

export function CompareResult({ view, caption }: { view: CompareView; caption?: React.ReactNode }) {
  if (!view.result) return view.message ? <p className={`text-sm ${muted}`} data-testid="compare-message">{view.message}</p> : null;
  const r = view.result;
  return (
    <div className="space-y-4" data-testid="compare-result">
      <p className="text-sm">
        <Link href={r.a.href} className={link}>
          {r.a.label}
        </Link>{' '}
        (A, {r.a.scoreLabel}) vs{' '}
        <Link href={r.b.href} className={link}>
          {r.b.label}
        </Link>{' '}
        (B, {r.b.scoreLabel}) on the prompts both were scored on.
      </p>
      <p className={`rounded border px-3 py-2 text-sm ${r.significant ? 'border-emerald-300 bg-emerald-50 dark:border-emerald-800 dark:bg-emerald-950' : 'border-amber-300 bg-amber-50 dark:border-amber-800 dark:bg-amber-950'}`} data-testid="compare-verdict">
        {r.verdict}
      </p>
      <div data-testid="compare-facts">
        <Facts
          items={[
            { label: 'Mean difference (A − B, points)', value: r.diffLabel },
            { label: '95% interval (paired t)', value: r.intervalLabel ?? '—' },
            { label: 'Paired t-test', value: r.pLabel },
            { label: 'Correlation of per-prompt scores', value: r.correlationLabel },
            { label: 'n', value: `${r.nLabel} on ${r.blueprintsLabel}` },
            { label: 'Wins / losses / ties (A)', value: `${r.wins} / ${r.losses} / ${r.ties}` },
            { label: 'Sign test', value: r.signTestLabel },
          ]}
        />
      </div>
      <p className={`text-xs ${muted}`}>{caption ?? view.caption}</p>
      {r.differing.length > 0 && (
        <div className="relative overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="compare-differing">
            <caption className={`mb-2 text-left text-sm ${muted}`}>
              The prompts whose scores differ most{r.sealedCount > 0 ? ` (${r.sealedLabel} counted above, not listed)` : ''}.
            </caption>
            <thead className="border-b border-zinc-200 dark:border-zinc-800">
              <tr>
                <th scope="col" className="py-1 pr-3">
                  Prompt
                </th>
                <th scope="col" className="py-1 pr-3">
                  Blueprint
                </th>
                <th scope="col" className="py-1 pr-3 text-right">
                  A
                </th>
                <th scope="col" className="py-1 pr-3 text-right">
                  B
                </th>
                <th scope="col" className="py-1 text-right">
                  A − B
                </th>
              </tr>
            </thead>
            <tbody>
              {r.differing.map((d) => (
                <tr key={`${d.blueprintTitle}-${d.promptKey}`} className="border-b border-zinc-100 dark:border-zinc-900" data-testid="compare-differing-row">
                  <th scope="row" className="py-1 pr-3 font-mono text-xs font-normal">
                    {d.promptHref ? (
                      <Link href={d.promptHref} className={link} prefetch={false}>
                        {d.promptKey}
                      </Link>
                    ) : (
                      d.promptKey
                    )}
                  </th>
                  <td className="py-1 pr-3">{d.blueprintTitle}</td>
                  <td className="py-1 pr-3 text-right tabular-nums">
                    <Link href={d.hrefA} className={link} prefetch={false} data-testid="cell-link-a">
                      {d.scoreA}
                    </Link>
                  </td>
                  <td className="py-1 pr-3 text-right tabular-nums">
                    <Link href={d.hrefB} className={link} prefetch={false} data-testid="cell-link-b">
                      {d.scoreB}
                    </Link>
                  </td>
                  <td className="py-1 text-right tabular-nums">{d.diffLabel}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
