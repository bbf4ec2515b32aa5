import type { BlueprintPageView } from '@/lib/server/views/blueprint-view';

export function BlueprintHeader({ view }: { view: BlueprintPageView }) {
  return (
    <header className="space-y-2">
      <h1 className="text-2xl font-semibold tracking-tight">{view.title}</h1>
      {view.description && <p className="max-w-3xl whitespace-pre-line text-zinc-700 dark:text-zinc-300">{view.description}</p>}
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm text-zinc-600 dark:text-zinc-400">
        {view.authorLabel && (
          <div>
            <dt className="inline">Author: </dt>
            <dd className="inline">{view.authorLabel}</dd>
          </div>
        )}
        <div>
          <dt className="inline">Source: </dt>
          <dd className="inline font-mono">
            {view.sourceLink ? (
              <a href={view.sourceLink} rel="noopener noreferrer" className="underline">
                {view.sourceLabel}
              </a>
            ) : (
              view.sourceLabel
            )}
          </dd>
        </div>
      </dl>
      {view.tags.length > 0 && (
        <ul className="flex flex-wrap gap-1" aria-label="Tags">
          {view.tags.map((t) => (
            <li key={t} className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs dark:bg-zinc-800">
              {t}
            </li>
          ))}
        </ul>
      )}
    </header>
  );
}

export function ValidationErrors({ view }: { view: BlueprintPageView }) {
  if (view.errors.length === 0) return null;
  return (
    <section aria-labelledby="errors-h" className="rounded border border-red-300 bg-red-50 p-4 dark:border-red-900 dark:bg-red-950">
      <h2 id="errors-h" className="font-medium text-red-800 dark:text-red-300">
        This blueprint does not validate
      </h2>
      <ul className="mt-2 space-y-1 font-mono text-sm">
        {view.errors.map((e, i) => (
          <li key={i}>
            {e.line}:{e.col}: {e.message}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function PromptTable({ view }: { view: BlueprintPageView }) {
  return (
    <section aria-labelledby="prompts-h" className="space-y-2">
      <h2 id="prompts-h" className="text-lg font-medium">
        Prompts
      </h2>
      {view.sealedCount > 0 && (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {view.sealedCount} sealed test {view.sealedCount === 1 ? 'prompt is' : 'prompts are'} scored but not shown.
        </p>
      )}
      <table className="w-full text-left text-sm">
        <thead className="border-b border-zinc-200 dark:border-zinc-800">
          <tr>
            <th scope="col" className="py-2 pr-4">Id</th>
            <th scope="col" className="py-2 pr-4">Prompt</th>
            <th scope="col" className="py-2 pr-4">Turns</th>
            <th scope="col" className="py-2">Points</th>
          </tr>
        </thead>
        <tbody>
          {view.prompts.map((p) => (
            <tr key={p.key} className="border-b border-zinc-100 align-top dark:border-zinc-900">
              <td className="py-2 pr-4 font-mono text-xs">{p.key}</td>
              <td className="max-w-xl py-2 pr-4">
                <span className="line-clamp-3 whitespace-pre-line">{p.firstUserText}</span>
              </td>
              <td className="py-2 pr-4">{p.turns}</td>
              <td className="py-2">
                {p.pointCount}
                {p.weightLabel && <span className="ml-2 text-xs text-zinc-500">{p.weightLabel}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
