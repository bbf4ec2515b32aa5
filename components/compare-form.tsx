/** Two selects that pick the models of a comparison: a plain GET form, so it works without script and every result has a link. */
import type { CompareView } from '@/lib/views/compare-view';
import { muted, SelectField } from './ui';

export function CompareForm({ view, fixedA = false }: { view: CompareView; fixedA?: boolean }) {
  const choices = view.choices.map((c) => ({ value: c.modelId, label: c.label }));
  if (view.choices.length < 2) return <p className={`text-sm ${muted}`}>A comparison needs two models with scores here.</p>;
  return (
    <form action={view.action} method="get" className="flex flex-wrap items-end gap-2" data-testid="compare-form">
      {Object.entries(view.hidden).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      {!fixedA && <SelectField label="Model A" name={view.fieldA} value={view.selectedA} placeholder="Choose…" options={choices} testId="compare-a" />}
      <SelectField label={fixedA ? 'Compare with' : 'Model B'} name={view.fieldB} value={view.selectedB} placeholder="Choose…" options={choices.filter((c) => !fixedA || c.value !== view.selectedA)} testId="compare-b" />
      <button type="submit" className="rounded bg-zinc-900 px-3 py-1 text-sm font-medium text-white dark:bg-zinc-100 dark:text-zinc-900" data-testid="compare-submit">
        Compare
      </button>
    </form>
  );
}
