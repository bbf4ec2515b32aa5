/** The drift page: the filters and one card per drift check. Presentational: it receives the view model. */
import Link from 'next/link';
import type { DriftCheckView, DriftPageView } from '@/lib/views/drift-view';
import { card, Empty, link, muted, SelectField, StatusBadge } from './ui';

export function DriftFilters({ view }: { view: DriftPageView['filters'] }) {
  return (
    <form method="get" action="/drift" className="flex flex-wrap items-end gap-3 text-sm" aria-label="Filter drift checks">
      <SelectField label="Blueprint" name="blueprint" value={view.blueprint} placeholder="All blueprints" options={view.blueprints} />
      <SelectField label="Model" name="model" value={view.model} placeholder="All models" options={view.models} />
      <label className="flex items-center gap-2">
        <input type="checkbox" name="all" value="1" defaultChecked={view.all} />
        <span>Show checks that found no drift</span>
      </label>
      <button type="submit" className="rounded border border-zinc-300 px-3 py-1 font-medium dark:border-zinc-700">
        Filter
      </button>
    </form>
  );
}

function Check({ c }: { c: DriftCheckView }) {
  return (
    <li className={`${card} space-y-3 p-4`} data-testid="drift-check" data-flagged={c.flagged} data-model={c.modelId}>
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <StatusBadge label={c.statusLabel} tone={c.flagged ? 'failed' : 'ok'} />
        <Link href={c.modelHref} className={`font-medium ${link}`} prefetch={false}>
          {c.modelName}
        </Link>
        <span className={muted}>on</span>
        <Link href={c.blueprintHref} className={link} prefetch={false}>
          {c.blueprintTitle}
        </Link>
        <span className={`text-sm ${muted}`}>
          <Link href={c.fromHref} className={link} prefetch={false}>
            run of {c.fromLabel}
          </Link>{' '}
          →{' '}
          <Link href={c.toHref} className={link} prefetch={false}>
            run of {c.toLabel}
          </Link>{' '}
          (
          <Link href={c.diffHref} className={link} prefetch={false}>
            diff
          </Link>
          )
        </span>
      </div>
      {c.servedChange && (
        <p className="rounded bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-100" data-testid="served-change">
          <strong>{c.servedChange.headline}</strong>
          {c.servedChange.details.length > 0 && <>: {c.servedChange.details.join('; ')}</>}.
        </p>
      )}
      <dl className="grid grid-cols-2 gap-x-6 gap-y-1 text-sm sm:grid-cols-4">
        <div>
          <dt className={muted}>Change</dt>
          <dd className="font-medium tabular-nums" data-testid="drift-difference">
            {c.differenceValue === null ? (
              c.difference
            ) : (
              <>
                <span {...c.figure}>{c.differenceValue}</span> points
              </>
            )}
          </dd>
        </div>
        <div>
          <dt className={muted}>Interval</dt>
          <dd className="tabular-nums" data-testid="drift-interval">
            {c.interval}
          </dd>
        </div>
        <div>
          <dt className={muted}>MDE of the earlier run</dt>
          <dd className="tabular-nums" data-testid="drift-mde">
            {c.mdeValue === null ? (
              c.mde
            ) : (
              <>
                ±<span {...c.mdeFigure}>{c.mdeValue}</span> points
              </>
            )}
          </dd>
        </div>
        <div>
          <dt className={muted}>Paired over</dt>
          <dd>{c.prompts}</dd>
        </div>
      </dl>
      <p className={`text-sm ${muted}`}>
        {c.reason}
        {!c.servedChange && <>; {c.served}</>}.
      </p>
      {c.moved.length > 0 && (
        <div className="text-sm">
          <h3 className="font-medium">Prompts that moved most</h3>
          <ul className="mt-1 space-y-1" data-testid="drift-moved">
            {c.moved.map((m) => (
              <li key={m.promptKey} className="flex flex-wrap gap-x-2">
                <span className="font-mono">{m.label}</span>
                <span className="tabular-nums">{m.change}</span>
                <Link href={m.beforeHref} className={link} prefetch={false} aria-label={`${m.label}: the reply before`}>
                  before
                </Link>
                <Link href={m.afterHref} className={link} prefetch={false} aria-label={`${m.label}: the reply after`}>
                  after
                </Link>
              </li>
            ))}
          </ul>
        </div>
      )}
    </li>
  );
}

export function DriftChecks({ view }: { view: DriftPageView }) {
  return (
    <div className="space-y-3">
      <p className={`text-sm ${muted}`} data-testid="drift-summary">
        {view.summary}
      </p>
      {view.checks.length === 0 ? (
        <Empty>{view.empty}</Empty>
      ) : (
        <ul className="space-y-4" data-testid="drift-checks">
          {view.checks.map((c) => (
            <Check key={c.id} c={c} />
          ))}
        </ul>
      )}
    </div>
  );
}
