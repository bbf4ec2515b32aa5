'use client';
/**
 * "Try it" (docs/authoring.md): run the draft on a few of the models maintainers allow, within the
 * author's budget for the day. Shows the allowance (GET /api/author/try), starts the run
 * (POST, same-origin with the session cookie), then the run's live progress and a link to the
 * draft run's results. Refusals (an invalid draft at file:line:col, a used-up budget, the rate
 * limit) are shown as the server words them.
 */
import { useCallback, useEffect, useState } from 'react';
import { RunProgressSchema, type RunProgress } from '@/lib/views/progress-view';
import { allowanceSentence, TryAllowanceSchema, TryStartedSchema, type TryAllowance, type TryStarted } from '@/lib/views/try-it-view';
import { ProgressLive } from '@/components/progress-live';
import { link, muted } from '@/components/ui';

export interface TryItPanelProps {
  yaml: string;
  /** The draft's name/path, for the run's title. */
  name: string;
  /** The signed-in author's login, or null (then the panel offers sign-in). */
  login: string | null;
  /** Told the results URL of each run started here (the workspace links the latest in a pull request). */
  onRunStarted?: (resultsUrl: string) => void;
  /** Why signing in cannot work on this server (the settings it needs); null when it can. */
  signInUnavailable?: string | null;
  /** The sign-in link (coming back to this draft). */
  signInHref?: string;
}

async function errorMessage(res: Response): Promise<string> {
  const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  return body?.error?.message ?? `The server answered ${res.status}.`;
}

export function TryItPanel({ yaml, name, login, onRunStarted, signInUnavailable = null, signInHref = '/api/auth/github?returnTo=%2Fauthor' }: TryItPanelProps) {
  const [allowance, setAllowance] = useState<TryAllowance | null>(null);
  const [picked, setPicked] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [started, setStarted] = useState<{ run: TryStarted; progress: RunProgress; at: string } | null>(null);

  const loadAllowance = useCallback(async () => {
    const res = await fetch('/api/author/try', { cache: 'no-store', headers: { accept: 'application/json' } });
    if (!res.ok) return setProblem(await errorMessage(res));
    const a = TryAllowanceSchema.parse(await res.json());
    setAllowance(a);
    setPicked((p) => (p.length ? p.filter((m) => a.models.includes(m)) : a.models.slice(0, 1)));
  }, []);

  useEffect(() => {
    if (login) void loadAllowance();
  }, [login, loadAllowance]);

  // while a run started here is going, what is left today follows it
  useEffect(() => {
    if (!started) return;
    const timer = setInterval(() => void loadAllowance(), 3000);
    const stop = setTimeout(() => clearInterval(timer), 120_000);
    return () => {
      clearInterval(timer);
      clearTimeout(stop);
    };
  }, [started, loadAllowance]);

  async function run() {
    setBusy(true);
    setProblem(null);
    try {
      const res = await fetch('/api/author/try', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ yaml, name, models: picked }) });
      if (!res.ok) {
        setProblem(await errorMessage(res));
        return;
      }
      const runStarted = TryStartedSchema.parse(await res.json());
      const p = await fetch(runStarted.apiProgressUrl, { cache: 'no-store' });
      const progress = RunProgressSchema.parse(await p.json());
      setStarted({ run: runStarted, progress, at: new Date().toISOString() });
      onRunStarted?.(runStarted.resultsUrl);
      void loadAllowance();
    } catch (e) {
      setProblem(`Could not start the run (${(e as Error).message}); your draft is still here.`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="try-h" className="space-y-3 rounded border border-zinc-200 p-4 dark:border-zinc-800" data-testid="try-it-panel">
      <h2 id="try-h" className="text-lg font-semibold">Try it</h2>
      {!login && signInUnavailable ? (
        // no sign-in link: it would lead to an error page; the sentence names the settings instead
        <p className="text-sm" data-testid="sign-in-unavailable">
          {signInUnavailable}
        </p>
      ) : !login ? (
        <p className="text-sm">
          <a href={signInHref} className={link}>Sign in with GitHub</a> to run your draft on a few models, within a small daily budget.
        </p>
      ) : (
        <>
          <p className={`text-sm ${muted}`}>
            Runs the draft on the models you pick. The run is a draft run: only you and maintainers see it, and it never reaches a leaderboard.
          </p>
          {allowance && (
            <>
              <p className="text-sm" data-testid="try-allowance">{allowanceSentence(allowance)}</p>
              <fieldset className="flex flex-wrap gap-4 text-sm">
                <legend className="mb-1">Models</legend>
                {allowance.models.map((m) => (
                  <label key={m} className="flex items-center gap-1.5">
                    <input type="checkbox" checked={picked.includes(m)} onChange={(e) => setPicked((p) => (e.target.checked ? [...p, m] : p.filter((x) => x !== m)))} />
                    <span className="font-mono">{m}</span>
                  </label>
                ))}
              </fieldset>
            </>
          )}
          <button type="button" onClick={() => void run()} disabled={busy || !allowance || picked.length === 0} className="rounded bg-zinc-900 px-3 py-1.5 text-sm font-medium text-white hover:bg-zinc-700 disabled:opacity-50 dark:bg-zinc-100 dark:text-zinc-900">
            {busy ? 'Starting…' : 'Run the draft'}
          </button>
          {problem && (
            <p role="alert" data-testid="try-problem" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
              {problem}
            </p>
          )}
          {started && (
            <div className="space-y-2" data-testid="try-run">
              <ProgressLive key={started.run.runId} initial={started.progress} initialNow={started.at} apiHref={started.run.apiProgressUrl} resultsHref={started.run.resultsUrl} />
              <p className="text-sm">
                <a href={started.run.resultsUrl} className={link} data-testid="try-run-link">Open the draft run</a>
                <span className={muted}> ({started.run.plannedCalls} generations planned, plus judging)</span>
              </p>
            </div>
          )}
        </>
      )}
    </section>
  );
}
