import Link from 'next/link';
import type { RunHeaderView } from '@/lib/views/run-view';
import { Breadcrumbs, Facts, StatusBadge, Tabs, link, muted } from './ui';
import { WaitNotes } from './run-waits';

/** The top of every run page: where it sits, its state and facts, the run's tabs, the diff picker. */
export function RunHeader({ view, trail = [], main = false }: { view: RunHeaderView; trail?: { label: string; href?: string }[]; main?: boolean }) {
  // the run is the page's subject on the run page (h1); on a prompt or model page it is context
  const Title = main ? 'h1' : 'p';
  return (
    <header className="space-y-3">
      <Breadcrumbs items={[{ label: view.blueprintTitle, href: view.blueprintHref }, { label: view.title, href: trail.length ? view.tabs[0]?.href : undefined }, ...trail]} />
      <div className="flex flex-wrap items-center gap-3">
        <Title className={`${main ? 'text-2xl' : 'text-lg'} font-semibold tracking-tight`}>
          {view.blueprintTitle}: {view.title}
        </Title>
        <StatusBadge label={view.statusLabel} tone={view.statusTone} />
        {view.working && (
          <Link href={view.progressHref} className={link}>
            Follow live progress
          </Link>
        )}
      </div>
      {view.waits.length > 0 && <WaitNotes waits={view.waits} testId="run-waits" />}
      {view.draftBanner && (
        <p role="note" data-testid="draft-banner" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
          {view.draftBanner}
        </p>
      )}
      <Facts items={view.facts} />
      {view.judges.length > 0 && (
        <p className="text-sm" data-testid="judge-panel">
          <span className={muted}>Judges:</span>{' '}
          {view.judges.map((j, i) => (
            <span key={j.label}>
              {i > 0 && ', '}
              {j.label}
              {j.method && (
                <span className={`ml-1 text-xs ${muted}`} data-testid="judge-method">
                  {j.method}
                </span>
              )}
              {j.alsoGraded && <span className="ml-1 rounded bg-amber-100 px-1 text-xs text-amber-900 dark:bg-amber-950 dark:text-amber-200">also graded</span>}
            </span>
          ))}
        </p>
      )}
      {view.judgeMethodsNote && (
        <p role="note" className={`text-xs ${muted}`} data-testid="judge-methods-note">
          {view.judgeMethodsNote}
        </p>
      )}
      {(view.parent || view.rescores.length > 0) && (
        <p className="text-sm" data-testid="rescore-links">
          {view.parent && (
            <Link href={view.parent.href} className={link} data-testid="rescore-parent">
              {view.parent.label}
            </Link>
          )}
          {view.parent && view.rescores.length > 0 && <span className={muted}> · </span>}
          {view.rescores.length > 0 && (
            <>
              <span className={muted}>Rescored as: </span>
              {view.rescores.map((r, i) => (
                <span key={r.href}>
                  {i > 0 && ', '}
                  <Link href={r.href} className={link} data-testid="rescore-child">
                    {r.label}
                  </Link>
                </span>
              ))}
            </>
          )}
        </p>
      )}
      {view.warnings.map((w) => (
        <p key={w} role="note" className="rounded border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-200">
          {w}
        </p>
      ))}
      {view.error && (
        <p role="alert" className="rounded border border-red-300 bg-red-50 p-2 text-sm text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-200">
          {view.error}
        </p>
      )}
      <div className="flex flex-wrap items-end justify-between gap-3">
        <Tabs label="Run views" tabs={view.tabs} />
        {view.downloads.length > 0 && (
          <details className="text-sm" data-testid="run-downloads">
            <summary className={`cursor-pointer ${link}`}>Download data</summary>
            <ul className="mt-1 space-y-1">
              {view.downloads.map((d) => (
                <li key={d.href}>
                  {/* a file, not a page: no client-side navigation or prefetch */}
                  <a href={d.href} download className={link}>
                    {d.label}
                  </a>
                </li>
              ))}
            </ul>
            <p className={`mt-1 text-xs ${muted}`}>Sealed prompts are left out. The columns are described in docs/exports.md.</p>
          </details>
        )}
        {view.diffChoices.length > 0 && (
          <details className="text-sm">
            <summary className={`cursor-pointer ${link}`}>Compare with another run</summary>
            <ul className="mt-1 space-y-1">
              {view.diffChoices.map((d) => (
                <li key={d.href}>
                  <Link href={d.href} prefetch={false} className={link}>
                    {d.label}
                  </Link>
                </li>
              ))}
            </ul>
          </details>
        )}
      </div>
    </header>
  );
}
