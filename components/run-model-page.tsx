import Link from 'next/link';
import type { RunModelPageView } from '@/lib/views/run-model-view';
import { Empty, Facts, Pagination, ScoreChip, Section, link, muted } from './ui';
import { ColumnHeaders } from './score-cells';
import { IntervalNote } from './interval';
import { PassAtKTables } from './pass-at-k';

export function RunModelSummary({ view }: { view: RunModelPageView }) {
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-baseline gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">{view.label}</h1>
        <span className={`font-mono text-sm ${muted}`}>{view.modelId}</span>
      </div>
      <p className="text-lg">
        Score{' '}
        <span className="font-semibold tabular-nums" data-testid="model-score" {...view.figures.score}>
          {view.scoreLabel}
        </span>
        {view.intervalLabel && (
          <span className={`ml-2 tabular-nums ${muted}`}>
            (95% interval <span {...view.figures.interval}>{view.intervalLabel}</span>)
          </span>
        )}
        <span className={`ml-3 ${muted}`} {...view.figures.rank}>
          {view.rankLabel} in this run
        </span>
      </p>
      <IntervalNote note={view.intervalNote} />
      <Facts items={view.facts} />
      <PassAtKTables view={view.passAtK} />
      <p className="text-sm">
        <Link href={view.modelPageHref} className={link}>
          {view.label} across every blueprint
        </Link>
      </p>
    </div>
  );
}

export function RunModelPrompts({ view }: { view: RunModelPageView }) {
  return (
    <Section
      id="model-prompts-h"
      title="Prompts"
      description={view.sealedNote ?? undefined}
      actions={
        <nav aria-label="Order of prompts" className="flex gap-2 text-sm">
          {view.sorts.map((s) => (
            <Link key={s.href} href={s.href} prefetch={false} aria-current={s.current ? 'true' : undefined} className={s.current ? 'font-semibold' : link}>
              {s.label}
            </Link>
          ))}
        </nav>
      }
    >
      {view.prompts.length === 0 ? (
        <Empty>No scored prompts.</Empty>
      ) : (
        <table className="w-full text-left text-sm" data-testid="model-prompts">
          <ColumnHeaders columns={[{ label: 'Score' }, { label: 'Prompt' }, { label: 'Errors', right: true }]} />
          <tbody>
            {view.prompts.map((p) => (
              <tr key={p.promptKey} className="border-b border-zinc-100 align-top dark:border-zinc-900">
                <td className="py-2 pr-3">
                  <ScoreChip label={p.scoreLabel} background={p.background} color={p.color} figure={p.figure} />
                </td>
                <td className="py-2 pr-3">
                  <a href={p.href} className={`font-mono text-xs ${link}`}>
                    {p.promptKey}
                  </a>
                  <span className={`block ${muted}`}>{p.snippet}</span>
                </td>
                <td className={`py-2 text-right tabular-nums ${p.errors ? 'text-red-700 dark:text-red-400' : ''}`}>{p.errors}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pagination view={view.pagination} label="Prompt pages" />
    </Section>
  );
}

export function RunModelErrors({ view }: { view: RunModelPageView }) {
  return (
    <Section id="model-errors-h" title="Errors" description="Failed replies and verdicts that could not be obtained: counted, never scored as 0.">
      {view.errors.length === 0 ? (
        <Empty>No errors.</Empty>
      ) : (
        <ul className="space-y-2 text-sm" data-testid="model-errors">
          {view.errors.map((e, i) => (
            <li key={i} className="rounded border border-red-200 p-2 dark:border-red-900">
              <a href={e.href} className={link}>
                {e.label}
              </a>
              <p className="text-red-900 dark:text-red-200">{e.message}</p>
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
