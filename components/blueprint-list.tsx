import Link from 'next/link';
import type { BlueprintCardView } from '@/lib/views/blueprint-list-view';

/** The list of blueprints on the home page. Presentational: it receives view models. */
export function BlueprintList({ items }: { items: BlueprintCardView[] }) {
  if (items.length === 0) {
    return (
      <p className="rounded border border-dashed border-zinc-300 p-6 text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
        No blueprints yet. Add a YAML file to <code>blueprints/</code> and run <code>npx assay sync</code>.
      </p>
    );
  }
  return (
    <ul className="grid gap-4 sm:grid-cols-2" aria-label="Blueprints">
      {items.map((b) => (
        <li key={b.id} data-testid="blueprint-card" className="rounded-lg border border-zinc-200 p-4 dark:border-zinc-800">
          <h3 className="font-medium">
            <Link href={b.href} className="hover:underline">
              {b.title}
            </Link>
          </h3>
          {b.description && <p className="mt-1 line-clamp-3 text-sm text-zinc-600 dark:text-zinc-400">{b.description}</p>}
          <p className="mt-2 text-xs text-zinc-500 dark:text-zinc-400">
            <span data-testid="prompt-count">{b.promptCountLabel}</span>
            {/* a space, not only a margin: "3 prompts invalid (…)" in the page's text */}
            {b.errorLabel && <> <span className="ml-1 font-medium text-red-700 dark:text-red-400">{b.errorLabel}</span></>}
          </p>
          {b.tags.length > 0 && (
            <ul className="mt-2 flex flex-wrap gap-1" aria-label={`Tags of ${b.title}`}>
              {b.tags.map((t) => (
                <li key={t} className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
                  {t}
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ul>
  );
}
