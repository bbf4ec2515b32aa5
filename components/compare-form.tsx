/** Two selects that pick the models of a comparison: a plain GET form, so it works without script and every result has a link. */
import type { CompareView } from '@/lib/views/compare-view';
import { muted } from './ui';

const select = 'rounded border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-950';

export function CompareForm({ view, fixedA = false }: { view: CompareView; fixedA?: boolean }) {
  if (view.choices.length < 2) return <p className={`text-sm ${muted}`}>A comparison needs two models with scores here.</p>;
  return (
    <form action={view.action} method="get" className="flex flex-wrap items-end gap-2" data-testid="compare-form">
      {Object.entries(view.hidden).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      {!fixedA && (
        <label className="flex flex-col text-sm">
          <span className={muted}>Model A</span>
          <select name={view.fieldA} defaultValue={view.selectedA ?? ''} className={select} data-testid="compare-a">
            <option value="">Choose…</option>
            {view.choices.map((c) => (
              <option key={c.modelId} value={c.modelId}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
      )}
      <label className="flex flex-col text-sm">
        <span className={muted}>{fixedA ? 'Compare with' : 'Model B'}</span>
        <select name={view.fieldB} defaultValue={view.selectedB ?? ''} className={select} data-testid="compare-b">
          <option value="">Choose…</option>
          {view.choices
            .filter((c) => !fixedA || c.modelId !== view.selectedA)
            .map((c) => (
              <option key={c.modelId} value={c.modelId}>
                {c.label}
              </option>
            ))}
        </select>
      </label>
      <button type="submit" className="rounded bg-zinc-900 px-3 py-1 text-sm font-medium text-white dark:bg-zinc-100 dark:text-zinc-900" data-testid="compare-submit">
        Compare
      </button>
    </form>
  );
}
