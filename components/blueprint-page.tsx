import Link from 'next/link';
import type { BlueprintPageView } from '@/lib/views/blueprint-view';
import { href } from '@/lib/views/urls';
import { Markdown } from './markdown';
import { Pagination, link, muted } from './ui';

export function BlueprintHeader({ view }: { view: BlueprintPageView }) {
  return (
    <header className="space-y-2">
      <h1 className="text-2xl font-semibold tracking-tight">{view.title}</h1>
      {view.removed && <p className="text-sm font-medium text-amber-800 dark:text-amber-300">This blueprint was removed from its source; its history is kept.</p>}
      {view.description && <Markdown text={view.description} className="max-w-3xl text-zinc-700 dark:text-zinc-300" />}
      <dl className={`flex flex-wrap gap-x-6 gap-y-1 text-sm ${muted}`}>
        {view.authorLabel && (
          <div>
            <dt className="inline">Author: </dt>
            <dd className="inline">
              {view.authorHref ? (
                <a href={view.authorHref} rel="noopener noreferrer nofollow" className={link}>
                  {view.authorLabel}
                </a>
              ) : (
                view.authorLabel
              )}
            </dd>
          </div>
        )}
        <div>
          <dt className="inline">Source: </dt>
          <dd className="inline font-mono">
            {view.sourceLink ? (
              <a href={view.sourceLink} rel="noopener noreferrer" className={link} data-testid="source-link">
                {view.sourceLabel}
              </a>
            ) : (
              view.sourceLabel
            )}
          </dd>
        </div>
      </dl>
      <p className="text-sm">
        <Link href={href.editCopy(view.id)} className={link} data-testid="edit-copy">
          Edit a copy
        </Link>{' '}
        <span className={muted}>in the browser editor, to propose a change or a new blueprint.</span>
      </p>
      {view.tags.length > 0 && (
        <ul className="flex flex-wrap gap-1" aria-label="Tags">
          {view.tags.map((t) => (
            <li key={t.tag}>
              <Link href={t.href} className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs hover:underline dark:bg-zinc-800">
                {t.tag}
              </Link>
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
      <h2 id="prompts-h" className="text-lg font-semibold">
        Prompts
      </h2>
      {view.sealedNote && <p className={`text-sm ${muted}`}>{view.sealedNote}</p>}
      <div className="relative overflow-x-auto">
        <table className="w-full text-left text-sm">
          <thead className="border-b border-zinc-200 dark:border-zinc-800">
            {/* a trailing space in each header: "Id Prompt Turns Points" in the page's text, never run together */}
            <tr>
              <th scope="col" className="py-2 pr-4">
                Id{' '}
              </th>
              <th scope="col" className="py-2 pr-4">
                Prompt{' '}
              </th>
              <th scope="col" className="py-2 pr-4">
                Turns{' '}
              </th>
              <th scope="col" className="py-2">
                Points{' '}
              </th>
            </tr>
          </thead>
          <tbody>
            {view.prompts.map((p) => (
              <tr key={p.key} className="border-b border-zinc-100 align-top dark:border-zinc-900">
                <td className="py-2 pr-4 font-mono text-xs">
                  {p.href ? (
                    <a href={p.href} className={link}>
                      {p.key}
                    </a>
                  ) : (
                    p.key
                  )}
                </td>
                <td className="max-w-xl py-2 pr-4">
                  <span className="line-clamp-3 whitespace-pre-line">{p.firstUserText}</span>
                </td>
                <td className="py-2 pr-4">{p.turns}</td>
                <td className="py-2">
                  {p.pointCount}
                  {/* a space, not only a margin: "3 weight 2", never "3weight 2", in the page's text */}
                  {p.weightLabel && <> <span className={`ml-1 text-xs ${muted}`}>{p.weightLabel}</span></>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pagination view={view.promptPagination} label="Prompt pages" />
    </section>
  );
}

/** The source file at the version's commit (sealed prompts taken out), first part inline. */
export function SourceExcerpt({ text, truncated, rawHref, label }: { text: string | null; truncated: boolean; rawHref: string; label: string }) {
  return (
    <section aria-labelledby="source-h" className="space-y-2">
      <h2 id="source-h" className="text-lg font-semibold">
        Source
      </h2>
      {text === null ? (
        <p className={`text-sm ${muted}`}>The source is not shown: it contains sealed prompts and could not be read to hide them.</p>
      ) : (
        <details>
          <summary className={`cursor-pointer text-sm ${link}`}>{label}</summary>
          <pre className="mt-2 max-h-[32rem] overflow-auto rounded bg-zinc-50 p-3 text-xs dark:bg-zinc-900" data-testid="source-text" tabIndex={0}>
            <code>{text}</code>
          </pre>
          {truncated && (
            <p className="text-sm">
              The file continues:{' '}
              <a href={rawHref} className={link}>
                open the whole file as text
              </a>
              .
            </p>
          )}
        </details>
      )}
    </section>
  );
}
