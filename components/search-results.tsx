import Link from 'next/link';
import type { SearchPageView } from '@/lib/views/search-view';
import { Empty, Tabs, link, muted } from './ui';

export function SearchResults({ view }: { view: SearchPageView }) {
  return (
    <div className="space-y-4">
      <Tabs label="Search in" tabs={view.tabs} />
      <p className={`text-sm ${muted}`} aria-live="polite" data-testid="search-count">
        {view.countLabel}
      </p>
      {view.hits.length === 0 ? (
        <Empty>Try fewer or different words; quotes match a phrase, a leading minus excludes a word.</Empty>
      ) : (
        <ol className="space-y-3" data-testid="search-results">
          {view.hits.map((h, i) => (
            <li key={i} className="space-y-1">
              <Link href={h.href} prefetch={false} className={`font-medium ${link}`}>
                {h.title}
              </Link>
              <p className={`text-xs ${muted}`}>{h.subtitle}</p>
              <p className="text-sm">
                {h.segments.map((s, j) =>
                  s.match ? (
                    <mark key={j} className="rounded bg-yellow-200 px-0.5 text-zinc-900 dark:bg-yellow-700 dark:text-white">
                      {s.text}
                    </mark>
                  ) : (
                    <span key={j}>{s.text}</span>
                  ),
                )}
              </p>
            </li>
          ))}
        </ol>
      )}
      {(view.previousHref || view.nextHref) && (
        <nav aria-label="Result pages" className="flex gap-3 text-sm">
          {view.previousHref && (
            <Link href={view.previousHref} className={link} rel="prev">
              Previous
            </Link>
          )}
          {view.nextHref && (
            <Link href={view.nextHref} className={link} rel="next">
              Next
            </Link>
          )}
        </nav>
      )}
    </div>
  );
}
