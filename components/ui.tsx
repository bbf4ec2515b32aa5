/** Small presentational pieces shared by the pages. They receive view models and never fetch. */
import Link from 'next/link';
import type { FigureAttrs } from '@/lib/views/figures';
import type { IntervalBar } from '@/lib/views/leaderboard-view';
import type { PaginationView } from '@/lib/views/pagination';
import type { StatusTone } from '@/lib/views/run-view';

export const muted = 'text-zinc-600 dark:text-zinc-400';
export const link = 'text-blue-700 underline-offset-2 hover:underline dark:text-blue-300';
export const card = 'rounded-lg border border-zinc-200 dark:border-zinc-800';

export function Section({ id, title, description, actions, children }: { id: string; title: string; description?: React.ReactNode; actions?: React.ReactNode; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h2 id={id} className="text-lg font-semibold tracking-tight">
            {title}
          </h2>
          {description && <p className={`text-sm ${muted}`}>{description}</p>}
        </div>
        {actions}
      </div>
      {children}
    </section>
  );
}

const TONE: Record<StatusTone, string> = {
  ok: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
  working: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
  failed: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200',
};

export function StatusBadge({ label, tone }: { label: string; tone: StatusTone }) {
  return <span className={`inline-block rounded px-1.5 py-0.5 text-xs font-medium ${TONE[tone]}`}>{label}</span>;
}

/** A score on its heatmap colour (the number is always printed: colour is never the only cue). */
export function ScoreChip({ label, background, color, title, figure }: { label: string; background: string; color: string; title?: string; figure?: FigureAttrs }) {
  return (
    <span className="inline-block min-w-10 rounded px-1.5 py-0.5 text-center text-sm font-medium tabular-nums" style={{ background, color }} title={title} {...figure}>
      {label}
    </span>
  );
}

/** The 95% interval drawn on a 0–100 track; decorative (the numbers are in the table). */
export function IntervalBarView({ bar }: { bar: IntervalBar | null }) {
  if (!bar) return null;
  return (
    <span aria-hidden="true" className="relative inline-block h-2 w-28 rounded bg-zinc-200 align-middle dark:bg-zinc-800">
      <span className="absolute top-0 h-2 rounded bg-blue-300 dark:bg-blue-800" style={{ left: `${bar.low}%`, width: `${Math.max(0.5, bar.high - bar.low)}%` }} />
      <span className="absolute -top-0.5 h-3 w-0.5 bg-blue-900 dark:bg-blue-200" style={{ left: `${bar.point}%` }} />
    </span>
  );
}

/** Pagination's Previous/Next: a link, or a dimmed label on the first/last page. */
function PageStep({ href, rel, label }: { href: string | null; rel: 'prev' | 'next'; label: string }) {
  return href ? (
    <Link href={href} prefetch={false} className={`rounded border px-2 py-1 ${link}`} rel={rel}>
      {label}
    </Link>
  ) : (
    <span className="rounded border px-2 py-1 opacity-50">{label}</span>
  );
}

export function Pagination({ view, label }: { view: PaginationView; label: string }) {
  return (
    <nav aria-label={label} className="flex flex-wrap items-center gap-3 text-sm">
      <span className={muted}>{view.rangeLabel}</span>
      {view.pages > 1 && (
        <ul className="flex flex-wrap items-center gap-1">
          <li>
            <PageStep href={view.previousHref} rel="prev" label="Previous" />
          </li>
          {view.links.map((l, i) =>
            l === null ? (
              <li key={`gap-${i}`} aria-hidden="true">
                …
              </li>
            ) : (
              <li key={l.page}>
                <Link href={l.href} prefetch={false} aria-current={l.current ? 'page' : undefined} className={`rounded px-2 py-1 ${l.current ? 'bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900' : link}`}>
                  <span className="sr-only">Page </span>
                  {l.page}
                </Link>
              </li>
            ),
          )}
          <li>
            <PageStep href={view.nextHref} rel="next" label="Next" />
          </li>
        </ul>
      )}
    </nav>
  );
}

/** One heatmap cell: the score printed on its colour, linking to the cell's page. */
export function HeatCell({
  cell,
  className = 'hm-cell',
}: {
  cell: { href: string; ariaLabel: string; background: string; color: string; text: string; figure?: FigureAttrs | null };
  className?: string;
}) {
  return (
    <td>
      <a href={cell.href} aria-label={cell.ariaLabel} className={className} style={{ background: cell.background, color: cell.color }} {...cell.figure}>
        {cell.text}
      </a>
    </td>
  );
}

export function Breadcrumbs({ items }: { items: { label: string; href?: string }[] }) {
  return (
    <nav aria-label="Breadcrumb" className="text-sm">
      <ol className="flex flex-wrap items-center gap-1">
        {items.map((item, i) => (
          <li key={i} className="flex items-center gap-1">
            {i > 0 && <span aria-hidden="true" className={muted}>›</span>}
            {item.href ? (
              <Link href={item.href} className={link}>
                {item.label}
              </Link>
            ) : (
              <span aria-current="page">{item.label}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

export function Facts({ items }: { items: { label: string; value: string; href?: string }[] }) {
  return (
    <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
      {items.map((f) => (
        <div key={f.label} className="flex gap-1">
          <dt className={muted}>{f.label}:</dt>
          <dd className="tabular-nums">
            {f.href ? (
              <a href={f.href} rel="noopener noreferrer" className={link}>
                {f.value}
              </a>
            ) : (
              f.value
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export function Tabs({ label, tabs }: { label: string; tabs: { label: string; href: string; current: boolean }[] }) {
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap gap-1 border-b border-zinc-200 dark:border-zinc-800">
        {tabs.map((t) => (
          <li key={t.href}>
            <Link
              href={t.href}
              aria-current={t.current ? 'page' : undefined}
              className={`-mb-px inline-block border-b-2 px-3 py-2 text-sm ${t.current ? 'border-zinc-900 font-medium dark:border-zinc-100' : `border-transparent ${muted} hover:text-zinc-900 dark:hover:text-zinc-100`}`}
            >
              {t.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function Empty({ children }: { children: React.ReactNode }) {
  return <p className={`rounded border border-dashed border-zinc-300 p-6 dark:border-zinc-700 ${muted}`}>{children}</p>;
}

// Tables and forms of the admin page

export function Table({ label, head, children }: { label: string; head: string[]; children: React.ReactNode }) {
  return (
    <div className="overflow-x-auto rounded border border-zinc-200 dark:border-zinc-800">
      <table aria-label={label} className="w-full text-left text-sm">
        <thead className="bg-zinc-50 text-xs uppercase text-zinc-500 dark:bg-zinc-900 dark:text-zinc-400">
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className="px-3 py-2 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">{children}</tbody>
      </table>
    </div>
  );
}

export function Cell({ children, mono = false }: { children: React.ReactNode; mono?: boolean }) {
  return <td className={`px-3 py-2 align-top ${mono ? 'font-mono text-xs' : ''}`}>{children}</td>;
}

export function PostButton({ action, label, fields = {} }: { action: string; label: string; fields?: Record<string, string> }) {
  return (
    <form method="post" action={action} className="inline">
      {Object.entries(fields).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <button type="submit" className="rounded bg-zinc-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900">
        {label}
      </button>
    </form>
  );
}

export function Banner({ kind, children }: { kind: 'notice' | 'error'; children: React.ReactNode }) {
  const style = kind === 'error' ? 'border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200' : 'border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-200';
  return (
    <p role={kind === 'error' ? 'alert' : 'status'} data-testid={`${kind}-banner`} className={`rounded border px-3 py-2 text-sm ${style}`}>
      {children}
    </p>
  );
}

/** A labelled select of a plain GET form (filters, model pickers): "" is the placeholder's value. */
export function SelectField({ label, name, value, placeholder, options, testId }: { label: string; name: string; value: string | null; placeholder: string; options: { value: string; label: string }[]; testId?: string }) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      <span className={muted}>{label}</span>
      <select name={name} defaultValue={value ?? ''} className="rounded border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900" data-testid={testId}>
        <option value="">{placeholder}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}
