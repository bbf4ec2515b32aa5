'use client';
/**
 * A run's live progress: polls the run's small JSON route every 2 s (validating what comes
 * back with the same zod schema the route validates on the way out) until the run ends.
 */
import { useEffect, useState } from 'react';
import { progressView, RunProgressSchema, TERMINAL, type RunProgress } from '@/lib/views/progress-view';
import { WaitNotes } from './run-waits';

const POLL_MS = 2000;

export function ProgressLive({ initial, initialNow, apiHref, resultsHref }: { initial: RunProgress; initialNow: string; apiHref: string; resultsHref: string }) {
  const [progress, setProgress] = useState(initial);
  const [now, setNow] = useState(() => new Date(initialNow));
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (TERMINAL.has(progress.status)) return;
    let cancelled = false;
    const timer = setTimeout(async () => {
      try {
        const res = await fetch(apiHref, { cache: 'no-store', headers: { accept: 'application/json' } });
        if (!res.ok) throw new Error(`the server answered ${res.status}`);
        const parsed = RunProgressSchema.safeParse(await res.json());
        if (!parsed.success) throw new Error('the server sent progress in an unexpected shape');
        if (!cancelled) {
          setProgress(parsed.data);
          setProblem(null);
        }
      } catch (e) {
        if (!cancelled) setProblem(`Could not refresh (${(e as Error).message}); retrying.`);
      } finally {
        if (!cancelled) setNow(new Date());
      }
    }, POLL_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [progress, now, apiHref]);

  const view = progressView(progress, now);
  return (
    <div className="space-y-4" data-testid="progress">
      <p aria-live="polite" className="text-lg font-medium" data-testid="progress-status">
        {view.statusLabel}
        {view.terminal && progress.status === 'completed' && (
          <a href={resultsHref} className="ml-3 text-base text-blue-700 underline dark:text-blue-300">
            See the results
          </a>
        )}
      </p>
      {view.bars.map((b) => (
        <div key={b.label} className="space-y-1">
          <div className="flex justify-between text-sm">
            <span id={`bar-${b.label}`}>{b.label}</span>
            <span className="tabular-nums" data-testid={`progress-${b.label.toLowerCase()}`}>
              {b.text}
            </span>
          </div>
          <div role="progressbar" aria-labelledby={`bar-${b.label}`} aria-valuemin={0} aria-valuemax={b.total} aria-valuenow={b.done} className="h-3 w-full rounded bg-zinc-200 dark:bg-zinc-800">
            <div className="h-3 rounded bg-blue-600 transition-[width] dark:bg-blue-400" style={{ width: `${b.percent}%` }} />
          </div>
        </div>
      ))}
      <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        {view.facts.map((f) => (
          <div key={f.label} className="flex gap-1">
            <dt className="text-zinc-600 dark:text-zinc-400">{f.label}:</dt>
            <dd className="tabular-nums">{f.value}</dd>
          </div>
        ))}
      </dl>
      {view.waits.length > 0 && <WaitNotes waits={view.waits} testId="progress-waits" />}
      {view.error && (
        <p role="alert" className="rounded border border-red-300 bg-red-50 p-2 text-sm text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-200">
          {view.error}
        </p>
      )}
      {problem && <p className="text-sm text-amber-800 dark:text-amber-300">{problem}</p>}
      {!view.terminal && <p className="text-xs text-zinc-600 dark:text-zinc-400">Updates every 2 seconds.</p>}
    </div>
  );
}
