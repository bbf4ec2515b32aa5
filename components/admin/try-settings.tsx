/** The maintainers' "Try it" settings (docs/authoring.md): the allowed models and each author's daily budget. */
import { Section } from '@/components/ui';

export interface TrySettingsView {
  models: string[];
  dailyCalls: number;
  dailyCostUsd: number;
  runsPerHour: number;
}

const field = 'mt-1 rounded border border-zinc-300 bg-white px-2 py-1.5 dark:border-zinc-700 dark:bg-zinc-900';

export function TrySettings({ view }: { view: TrySettingsView }) {
  return (
    <Section title="Try it: models and author budgets" id="try-it">
      <form method="post" action="/api/admin/try-settings" className="grid max-w-2xl gap-3 text-sm sm:grid-cols-2">
        <label className="flex flex-col sm:col-span-2">
          Models authors may try (one per line)
          <textarea name="models" rows={3} defaultValue={view.models.join('\n')} className={`${field} font-mono`} />
        </label>
        <label className="flex flex-col">
          Calls per author per day
          <input name="dailyCalls" type="number" min={0} step={1} defaultValue={view.dailyCalls} className={field} />
        </label>
        <label className="flex flex-col">
          Cost per author per day (USD)
          <input name="dailyCostUsd" type="number" min={0} step="0.01" defaultValue={view.dailyCostUsd} className={field} />
        </label>
        <label className="flex flex-col">
          Try-it runs per author per hour
          <input name="runsPerHour" type="number" min={1} step={1} defaultValue={view.runsPerHour} className={field} />
        </label>
        <div className="flex items-end">
          <button type="submit" className="rounded bg-zinc-900 px-3 py-1.5 font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900">
            Save try-it settings
          </button>
        </div>
      </form>
    </Section>
  );
}
