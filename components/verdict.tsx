import type { VerdictView } from '@/lib/views/verdict-view';
import { ScoreChip, link, muted } from './ui';

const STATUS_CLASS: Record<VerdictView['status'], string> = {
  pass: 'text-emerald-800 dark:text-emerald-300',
  fail: 'text-red-800 dark:text-red-300',
  not_applicable: 'text-zinc-700 dark:text-zinc-300',
  error: 'text-red-800 dark:text-red-300 font-semibold',
};

/** The label distribution as a row of bars; each bar's label and percentage are text. */
export function DistributionBars({ bars, label }: { bars: NonNullable<VerdictView['distribution']>; label: string }) {
  return (
    <figure className="space-y-0.5">
      <figcaption className={`text-xs ${muted}`}>{label}</figcaption>
      <ul className="space-y-0.5">
        {bars.map((b) => (
          <li key={b.label} className="flex items-center gap-2 text-xs">
            <span className="w-36 shrink-0 truncate">{b.label}</span>
            <span aria-hidden="true" className="h-2 flex-1 rounded bg-zinc-200 dark:bg-zinc-800">
              <span className="block h-2 rounded bg-blue-600 dark:bg-blue-400" style={{ width: `${Math.round(b.probability * 100)}%` }} />
            </span>
            <span className="w-10 text-right tabular-nums">{b.percentLabel}</span>
          </li>
        ))}
      </ul>
    </figure>
  );
}

/** The distribution in one line (compact cards): a stacked bar, with the numbers as text for screen readers. */
function StackedDistribution({ bars }: { bars: NonNullable<VerdictView['distribution']> }) {
  const text = bars.map((b) => `${b.label} ${b.percentLabel}`).join(', ');
  return (
    <p className="text-xs">
      <span className="sr-only">Label distribution: {text}</span>
      <span aria-hidden="true" title={text} className="flex h-2 w-full overflow-hidden rounded bg-zinc-200 dark:bg-zinc-800">
        {bars.map((b, i) => (
          <span key={b.label} style={{ width: `${Math.round(b.probability * 100)}%`, background: `rgb(37 99 235 / ${0.2 + (0.8 * i) / Math.max(1, bars.length - 1)})` }} />
        ))}
      </span>
    </p>
  );
}

/** A point's criterion as readable text: "must not" said first with its direction, a `$js` point's code, its citation. */
export function PointLabel({ text, code, direction, citation, className = 'text-sm font-medium' }: { text: string; code: string | null; direction: string | null; citation: string | null; className?: string }) {
  return (
    <div className="min-w-0 space-y-1 [overflow-wrap:anywhere]">
      <p className={className} data-testid="point-label">
        {direction && (
          <span data-testid="must-not" className="mr-1 rounded bg-amber-100 px-1 text-xs font-semibold text-amber-900 uppercase dark:bg-amber-950 dark:text-amber-200" title={direction}>
            Must not
          </span>
        )}
        {text}
      </p>
      {code && <pre className="max-h-48 overflow-auto rounded bg-zinc-100 p-2 font-mono text-xs whitespace-pre-wrap dark:bg-zinc-900">{code}</pre>}
      {direction && <p className={`text-xs ${muted}`}>{direction.charAt(0).toUpperCase() + direction.slice(1)}.</p>}
      {citation && (
        <p className={`text-xs ${muted}`} data-testid="citation">
          Source: {citation}
        </p>
      )}
    </div>
  );
}

/**
 * One point's verdict: status, score, the judges' reasoning, the label distribution and the
 * panel's spread. `full` adds each judge's own answer (the focused cell and the point page);
 * `compact` (replies side by side) keeps one line of distribution and links to the rest, so
 * a prompt with many models stays a page that loads fast.
 */
export function VerdictItem({ v, id, heading, full = true, detailsHref }: { v: VerdictView; id?: string; heading?: React.ReactNode; full?: boolean; detailsHref?: string }) {
  // the panel's answers and their spread; no agreement statistic per verdict (verdict-view.ts says why)
  const panel = [v.disagreement ? 'judges disagree' : null, v.answersLabel, v.spreadLabel].filter(Boolean).join(' · ');
  return (
    <li id={id} className="scroll-mt-20 space-y-2 border-t border-zinc-100 py-3 first:border-t-0 dark:border-zinc-900" data-testid="verdict" data-status={v.status} data-kind={v.kind}>
      <div className="flex items-start gap-2">
        <ScoreChip label={v.scoreLabel} background={v.background} color={v.color} />
        <div className="min-w-0 flex-1 [overflow-wrap:anywhere]">
          {heading ?? <PointLabel text={v.text} code={v.code} direction={v.direction} citation={v.citation} />}
          <p className={`text-xs ${muted}`}>
            <span className={STATUS_CLASS[v.status]}>{v.statusLabel}</span> · {v.kindLabel}
            {v.weightLabel && ` · ${v.weightLabel}`}
            {v.gate && ' · gate'}
            {v.methodLabel && ` · ${v.methodLabel}`}
          </p>
          {v.mixedMethods && (
            <p role="note" className={`text-xs ${muted}`} data-testid="mixed-methods">
              {v.mixedMethods}
            </p>
          )}
        </div>
      </div>
      {v.detail &&
        (v.status === 'error' ? (
          <p data-testid="verdict-detail" className="rounded border border-red-300 bg-red-50 p-2 text-sm whitespace-pre-line text-red-900 [overflow-wrap:anywhere] dark:border-red-900 dark:bg-red-950 dark:text-red-200">
            <span className="font-semibold">Error: </span>
            {v.detail}
          </p>
        ) : (
          <p data-testid="verdict-detail" className="text-sm whitespace-pre-line [overflow-wrap:anywhere]">
            <span className={`text-xs font-semibold uppercase ${muted}`}>Why: </span>
            {v.detail}
          </p>
        ))}
      {v.reasoning && (
        <p className="text-sm whitespace-pre-line [overflow-wrap:anywhere]">
          <span className={`text-xs font-semibold uppercase ${muted}`}>Judges’ reasoning: </span>
          {v.reasoning}
        </p>
      )}
      {!full && (v.distribution || panel) && (
        <div className="space-y-1">
          {v.distribution && <StackedDistribution bars={v.distribution} />}
          <p className={`text-xs ${muted}`}>
            {panel && <span className={v.disagreement ? 'font-semibold text-amber-800 dark:text-amber-300' : ''}>{panel}</span>}
            {detailsHref && v.judges.length > 0 && (
              <>
                {panel && ' · '}
                <a href={detailsHref} className={link}>
                  each judge
                </a>
              </>
            )}
          </p>
        </div>
      )}
      {full && (v.distribution || panel || v.judges.length > 0) && (
        <details className="text-sm">
          <summary className={`cursor-pointer text-xs ${muted}`}>
            Judges
            {panel && <span className={v.disagreement ? 'font-semibold text-amber-800 dark:text-amber-300' : ''}> · {panel}</span>}
          </summary>
          <div className="mt-2 space-y-3">
            {v.distribution && <DistributionBars bars={v.distribution} label="Consensus distribution over the labels" />}
            {v.judges.length > 0 && (
              <ul className="space-y-2">
                {v.judges.map((j, i) => (
                  <li key={i} className="rounded border border-zinc-200 p-2 dark:border-zinc-800">
                    <p className="text-xs" data-testid="judge">
                      <span className="font-mono">{j.judge}</span>
                      {j.approach && <span className={`ml-1 ${muted}`}>({j.approach})</span>}
                      {j.error ? (
                        <span className="ml-2 font-semibold text-red-800 dark:text-red-300">error: {j.error}</span>
                      ) : (
                        <span className={`ml-2 ${muted}`}>
                          score <span data-testid="judge-score">{j.scoreLabel}</span>
                          {j.topLabel && ` · most likely ${j.topLabel}`}
                          {j.methodLabel && (
                            <>
                              {' · '}
                              <span data-testid="judge-method">{j.methodLabel}</span>
                              {j.sampledBecause && ` (sampled: ${j.sampledBecause})`}
                            </>
                          )}
                        </span>
                      )}
                    </p>
                    {j.reasoning && <p className="mt-1 text-sm whitespace-pre-line">{j.reasoning}</p>}
                  </li>
                ))}
              </ul>
            )}
          </div>
        </details>
      )}
    </li>
  );
}
