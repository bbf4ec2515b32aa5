import type { PassAtKView } from '@/lib/views/interval-view';
import { muted, Section } from './ui';

/** The pass@k section of a run or blueprint page; nothing where prompts have one attempt each. */
export function PassAtKSection({ view }: { view: PassAtKView | null }) {
  if (!view) return null;
  return (
    <Section id="pass-at-k-h" title={`pass@k and pass^k (k = 1–${view.maxK})`}>
      <PassAtKTables view={view} />
    </Section>
  );
}

/** pass@k and pass^k for k = 1..n, one small table per model (shown where prompts have several attempts). */
export function PassAtKTables({ view }: { view: PassAtKView | null }) {
  if (!view) return null;
  return (
    <div className="space-y-3" data-testid="pass-at-k">
      <p className={`text-sm ${muted}`}>{view.thresholdText}</p>
      <div className="flex flex-wrap gap-4">
        {view.models.map((m) => (
          <table key={m.modelId} className="text-sm" data-testid="pass-at-k-model" data-model={m.modelId}>
            <caption className="mb-1 text-left font-medium" title={m.modelId}>
              {m.label}
            </caption>
            <thead>
              <tr className={`border-b border-zinc-200 text-xs dark:border-zinc-800 ${muted}`}>
                <th scope="col" className="py-1 pr-3 text-right font-normal">
                  k
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-normal">
                  pass@k
                </th>
                <th scope="col" className="py-1 pr-3 text-right font-normal">
                  pass^k
                </th>
              </tr>
            </thead>
            <tbody>
              {m.rows.map((r) => (
                <tr key={r.k} className="border-b border-zinc-100 dark:border-zinc-900" title={`over ${r.prompts} prompts with at least ${r.k} scored attempts`}>
                  <th scope="row" className="py-1 pr-3 text-right font-normal tabular-nums">
                    {r.k}
                  </th>
                  <td className="py-1 pr-3 text-right tabular-nums">{r.passAt}</td>
                  <td className="py-1 pr-3 text-right tabular-nums">{r.passHat}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      </div>
    </div>
  );
}
